import { getTranslations } from 'next-intl/server';
import type { ingestRunView } from '@/server/pipeline/stats';
import type { Locale } from '@/shared/locales';
import { count, dateTime } from '../../_lib/format';
import styles from '../staff.module.css';

type Run = ReturnType<typeof ingestRunView>;

/** Painter slugs listed by name per run; a run takes 20 by default. */
const SHOWN_PAINTERS = 6;
const reasons = ['no_image', 'no_label', 'in_catalog', 'painter_without_name', 'painter_taken_meanwhile'] as const;

/**
 * The last ingest runs (ingest_runs), the painter list's weekly refreshes among them: what each
 * took from Wikidata, what it left out and why, how long its SPARQL queries took and the largest
 * answer, so staff can see an ingest as well as the publish runs.
 */
export async function IngestRuns({ locale, runs }: { locale: Locale; runs: Run[] }) {
  const t = await getTranslations({ locale, namespace: 'StaffIngest' });
  const triggers = await getTranslations({ locale, namespace: 'Staff.catalog.trigger' });
  const seconds = (ms: number) => t('seconds', { seconds: Math.round(ms / 100) / 10 });
  const outcome = (o: string) => (['running', 'done', 'queue_full', 'failed', 'rate_limited', 'partial'].includes(o) ? t(`outcome.${o as 'done'}`) : o);
  return (
    <section aria-labelledby="ingest-runs-title" className={styles.panel} data-testid="ingest-runs">
      <h2 id="ingest-runs-title">{t('title')}</h2>
      <p className={styles.hint}>{t('lead')}</p>
      {runs.length === 0 ? (
        <p className={styles.empty}>{t('none')}</p>
      ) : (
        <table className={styles.board}>
          <thead>
            <tr>
              <th scope="col">{t('at')}</th>
              <th scope="col">{t('trigger')}</th>
              <th scope="col">{t('outcomeHead')}</th>
              <th scope="col">{t('painters')}</th>
              <th scope="col">{t('queued')}</th>
              <th scope="col">{t('skipped')}</th>
              <th scope="col">{t('queries')}</th>
              <th scope="col">{t('errors')}</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => {
              const slugs = r.painters.map((p) => p.split(' ')[1] ?? p);
              const left = reasons.filter((k) => r.skipped[k]).map((k) => t(`reason.${k}`, { count: r.skipped[k]! }));
              return (
                <tr key={r.id}>
                  <td data-label={t('at')}>{dateTime(r.startedAt, locale)}</td>
                  <td data-label={t('trigger')}>
                    {triggers(r.trigger)}
                    {r.kind === 'painter_list' && <span className={styles.sub}> {t('painterList')}</span>}
                  </td>
                  <td data-label={t('outcomeHead')}>{outcome(r.outcome)}</td>
                  <td data-label={t('painters')}>
                    {count(r.painters.length, locale)}
                    {slugs.length > 0 && (
                      <span className={styles.sub}>
                        {' '}
                        {slugs.slice(0, SHOWN_PAINTERS).join(', ')}
                        {slugs.length > SHOWN_PAINTERS ? ` ${t('andMore', { count: slugs.length - SHOWN_PAINTERS })}` : ''}
                      </span>
                    )}
                  </td>
                  <td data-label={t('queued')} className={styles.number}>
                    {count(r.worksQueued, locale)}
                  </td>
                  <td data-label={t('skipped')}>{left.join(' · ') || '—'}</td>
                  <td data-label={t('queries')}>
                    {t('queryTimes', { count: r.queries.count, total: seconds(r.queries.totalMs), rows: r.queries.mostRows })}
                    {r.queries.slowest && <span className={styles.sub}> {t('slowest', { kind: r.queries.slowest.kind, time: seconds(r.queries.slowest.ms) })}</span>}
                    {r.queries.failed > 0 && <span className={styles.sub}> {t('failedQueries', { count: r.queries.failed })}</span>}
                  </td>
                  <td data-label={t('errors')}>{r.errors.join('; ') || '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
