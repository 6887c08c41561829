import { describe, expect, it } from 'vitest';
import { age, count, dateTime, money, shortDateTime } from '@/app/staff/_lib/format';
import { locales } from '@/shared/locales';

describe('the staff dashboard formats figures in each of its languages', () => {
  const at = '2026-03-05T14:07:00.000Z';

  it('money is integer cents shown as US dollars', () => {
    expect(money(34800, 'en')).toBe('$348.00');
    expect(money(34850, 'de')).toMatch(/^348,50\s\$$/u);
    expect(money(129, 'ja')).toBe('$1.29');
  });

  it('every formatter works in all seven locales (times in UTC, labelled)', () => {
    for (const locale of locales) {
      expect(dateTime(at, locale), locale).toMatch(/UTC|GMT/);
      expect(dateTime(at, locale), locale).toMatch(/14|2/);
      expect(shortDateTime(at, locale), locale).toMatch(/14|02/);
      expect(count(12480, locale), locale).toMatch(/12.?480/);
      expect(money(34800, locale), locale).toContain('348');
    }
  });

  it('ages are relative, in the largest unit that fits', () => {
    const now = new Date('2026-03-05T17:07:30.000Z');
    expect(age(at, 'en', now)).toBe('3 hours ago');
    expect(age('2026-03-03T17:00:00.000Z', 'en', now)).toBe('2 days ago');
    expect(age('2026-03-05T17:07:00.000Z', 'en', now)).toBe('this minute');
    expect(age('2026-03-05T17:00:30.000Z', 'fr', now)).toBe('il y a 7 minutes');
  });
});
