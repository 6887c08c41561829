import { describe, expect, it } from 'vitest';
import { dateTimeFormat, formatCm, formatSize, formatSizeInches, formatUsd, numberFormat } from '@/lib/format';

describe('the shop formats with Intl formatters made once', () => {
  it('answers the same formatter for the same language and options, another for others', () => {
    const usd = { style: 'currency', currency: 'USD' } as const;
    expect(numberFormat('de', usd)).toBe(numberFormat('de', { ...usd }));
    expect(numberFormat('de', usd)).not.toBe(numberFormat('fr', usd));
    expect(numberFormat('de', usd)).not.toBe(numberFormat('de', { ...usd, maximumFractionDigits: 0 }));
    expect(numberFormat('de')).not.toBe(dateTimeFormat('de'));
    expect(dateTimeFormat('ja', { dateStyle: 'medium', timeZone: 'UTC' })).toBe(dateTimeFormat('ja', { dateStyle: 'medium', timeZone: 'UTC' }));
  });

  it('a shared formatter writes what a new one writes, in each language', () => {
    expect(formatUsd(12900, 'en')).toBe('$129');
    expect(formatUsd(12950, 'en')).toBe('$129.50');
    // The whole and the cents prices use different options, so neither takes the other's formatter.
    expect(formatUsd(12900, 'en')).toBe('$129');
    expect(formatUsd(12950, 'de')).toMatch(/^129,50\s\$$/u);
    expect(formatCm(61.5, 'fr')).toBe(new Intl.NumberFormat('fr', { style: 'unit', unit: 'centimeter', maximumFractionDigits: 1 }).format(61.5));
    expect(formatSize(61, 76, 'ja')).toBe('61\u00a0×\u00a076\u00a0cm');
  });

  it('gives sizes in inches too on English pages only, to the nearest inch', () => {
    expect(formatSizeInches(30, 40, 'en')).toBe('12\u00a0×\u00a016\u00a0in');
    expect(formatSizeInches(120, 90, 'en')).toBe('47\u00a0×\u00a035\u00a0in');
    for (const locale of ['de', 'ja', 'fr', 'vi']) expect(formatSizeInches(30, 40, locale), locale).toBeNull();
  });

  it('stays bounded when languages keep coming (a language may come from a request)', () => {
    const first = numberFormat('en-US');
    // 300 distinct keys: the map is emptied once it holds 256, so the first one is made again.
    for (let i = 0; i < 300; i++) numberFormat('en', { minimumIntegerDigits: (i % 21) + 1, maximumSignificantDigits: (Math.floor(i / 21) % 21) + 1 });
    expect(numberFormat('en-US')).not.toBe(first);
    expect(numberFormat('en-US').format(1234)).toBe('1,234');
  });
});
