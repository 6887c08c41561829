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
});
