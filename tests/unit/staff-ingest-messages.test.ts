import { readFileSync } from 'node:fs';
import { createTranslator } from 'next-intl';
import { describe, expect, test } from 'vitest';
import { locales } from '@/shared/locales';

/**
 * The staff page's ingest-run strings (StaffIngest) format in every locale with the values the
 * page passes: an ICU mistake in one language would otherwise show only in a browser.
 */
describe('ingest runs on the staff pipeline page', () => {
  test.each(locales)('%s: every string formats with its values', (locale) => {
    const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'));
    const errors: string[] = [];
    const t = createTranslator({ locale, messages, namespace: 'StaffIngest', onError: (e) => errors.push(e.message) });
    const out = [
      t('title'),
      t('lead'),
      t('none'),
      t('at'),
      t('trigger'),
      t('outcomeHead'),
      t('painters'),
      t('queued'),
      t('skipped'),
      t('queries'),
      t('errors'),
      t('seconds', { seconds: 1.5 }),
      t('andMore', { count: 14 }),
      t('slowest', { kind: 'paintings', time: '0.8 s' }),
      t('failedQueries', { count: 2 }),
      t('queryTimes', { count: 42, total: '3.4 s', rows: 2000 }),
      t('painterList'),
      ...(['running', 'done', 'queue_full', 'failed', 'rate_limited', 'partial'] as const).map((o) => t(`outcome.${o}`)),
      ...(['no_image', 'no_label', 'in_catalog', 'painter_without_name', 'painter_taken_meanwhile'] as const).flatMap((r) => [
        t(`reason.${r}`, { count: 1 }),
        t(`reason.${r}`, { count: 3 }),
      ]),
    ];
    expect(errors).toEqual([]);
    expect(out.every((s) => s && !s.includes('StaffIngest.'))).toBe(true);
    expect(t('reason.no_image', { count: 3 })).toContain('3');
  });
});
