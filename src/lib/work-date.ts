import type { DatePrecision } from '@/shared/catalog';

/** The part of a `Catalog` translator the date forms need (next-intl's, on the server or in the browser). */
export type CatalogTranslator = (key: 'date.circa' | 'date.decade' | 'date.century', values: Record<string, string | number>) => string;

const ROMAN: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

/** 17 → XVII: French, Spanish and Italian write centuries in Roman numerals. */
export function romanNumeral(n: number): string {
  let rest = Math.trunc(n);
  let out = '';
  for (const [value, letters] of ROMAN) {
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  }
  return out;
}

/** The century a stored century year names: 1601 → 17 (the ingest stores a century as its first year). */
export const centuryOf = (year: number) => Math.ceil(year / 100);

/**
 * A work's date as a visitor reads it in their language: 1650, c. 1650, the 1650s, the 17th
 * century (messages `Catalog.date`); null without a year. The year goes in as text, so ICU never
 * groups its digits (1,650).
 */
export function formatWorkDate(t: CatalogTranslator, year: number | null, precision: DatePrecision): string | null {
  if (year === null) return null;
  switch (precision) {
    case 'circa':
      return t('date.circa', { year: String(year) });
    case 'decade':
      return t('date.decade', { year: String(year) });
    case 'century': {
      const century = centuryOf(year);
      return t('date.century', { century, roman: romanNumeral(century) });
    }
    default:
      return String(year);
  }
}
