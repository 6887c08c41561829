import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locales } from '@/shared/locales';
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
