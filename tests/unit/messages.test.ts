import { readFileSync } from 'node:fs';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { type Locale, locales } from '@/shared/locales';
import { differences } from '../../scripts/messages';

describe('website strings', () => {
  it('every locale has exactly the keys English has', () => {
    expect(differences()).toEqual([]);
  });

  it('no string is left empty or untranslated placeholder text', () => {
    for (const locale of locales) {
      const text = readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8');
      expect(text, locale).not.toMatch(/:\s*""/);
      expect(text, locale).not.toMatch(/TODO|FIXME|TRANSLATE/);
    }
  });
});

const messagesOf = (locale: string) => JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as Record<string, never>;
const textOf = (locale: string) =>
  readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8') + readFileSync(new URL(`../../messages/mail/${locale}.json`, import.meta.url), 'utf8');

describe('words a native speaker would write', () => {
  it('percentages are written as each language writes them', () => {
    const crop = (locale: Locale) =>
      createTranslator({ locale, messages: messagesOf(locale), namespace: 'OrderForm' as never })('fit.note.crop' as never, { percent: 0.31 } as never);
    expect(crop('en')).toBe('31% of the painting is cropped');
    expect(crop('de')).toBe('31\u00a0% des Gemäldes werden abgeschnitten');
    expect(crop('fr')).toMatch(/^31[\u00a0\u202f]% du tableau est recadré$/);
    expect(crop('ja')).toBe('絵の31%がトリミングされます');
  });

  it('one term per thing: the order number, the favorites, the people and animals of a custom painting', () => {
    const de = textOf('de');
    expect(de).not.toMatch(/Bestellcode|Merkliste|Ihre Bestellung ist da|Leinwand für Leinwand/);
    // "Motiv" is the catalog's subject (a landscape, a still life); a custom painting counts figures.
    expect(messagesOf('de').Custom).not.toMatchObject({ subjects: { count: expect.stringContaining('Motiv') } });
    const ja = textOf('ja');
    expect(ja).not.toMatch(/注文コード|人・匹|匹数/);
    expect(ja).not.toMatch(/\d\s%|\}\s%/);
  });

  it('beside the price, each language says what its shoppers look for: VAT, shipping, duties', () => {
    const line = (locale: Locale) => createTranslator({ locale, messages: messagesOf(locale), namespace: 'OrderForm' as never })('delivery.included' as never);
    expect(line('de')).toContain('inkl. MwSt.');
    expect(line('de')).toContain('Versand');
    expect(line('ja')).toMatch(/送料を含みます.*関税・輸入消費税は含まれず/);
    expect(line('en')).toMatch(/shipping included.*duties/);
    expect(line('fr')).toMatch(/TTC.*droits d’importation/);
    const from = (locale: Locale) =>
      createTranslator({ locale, messages: messagesOf(locale), namespace: 'Artwork' as never })('fromPrice' as never, { price: '$129', size: '30 × 40 cm' } as never);
    // "From" names the choice it prices, so the size cards (stretched by default) do not contradict it.
    expect(from('en')).toBe('Hand-painted copies from $129, as a 30 × 40 cm rolled canvas');
    expect(from('de')).toBe('Handgemalte Reproduktionen ab $129 (gerollte Leinwand, 30 × 40 cm)');
  });
});
