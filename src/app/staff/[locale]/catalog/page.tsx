import { getTranslations } from 'next-intl/server';
import { db } from '@/server/db/client';
import { env, inngestConfigured } from '@/server/env';
import { pipelineStats } from '@/server/pipeline/stats';
import { taxonKinds } from '@/shared/catalog';
import { requireStaff, staffLocale } from '../../_lib/auth';
import { staffPageTitle } from '../../_lib/metadata';
import { count, dateTime } from '../../_lib/format';
import styles from '../staff.module.css';
import { CatalogActions } from './catalog-actions';
import { SetAsidePainters } from './set-aside-painters';
import { IngestRuns } from './ingest-runs';
import { PublishChart } from './publish-chart';

interface Props {
  params: Promise<{ locale: string }>;
}

export const dynamic = 'force-dynamic';

export const generateMetadata = staffPageTitle('Staff.catalog');

/**
 * Where the job runs can be watched: a self-hosted Inngest server's own address, the local dev
 * server's, or Inngest Cloud's dashboard.
 */
function inngestDashboard(): string {
  const e = env();
  if (e.INNGEST_BASE_URL) return e.INNGEST_BASE_URL;
  if (e.INNGEST_DEV) return 'http://localhost:8288';
  return 'https://app.inngest.com';
}

/** The catalog pipeline: the figures of /v1/admin/seo/stats, the last 30 publish runs and 10 ingest runs, publish now and recount. */
export default async function CatalogPage({ params }: Props) {
  const locale = staffLocale((await params).locale);
  await requireStaff(locale, `/staff/${locale}/catalog`);
  const t = await getTranslations({ locale, namespace: 'Staff.catalog' });
  const stats = await pipelineStats(db(), { perDay: env().PUBLISH_PER_DAY });
  const figure = (key: string, label: string, value: string, note?: string) => (
    <div className={styles.stat} data-testid={`stat-${key}`}>
      <dt>{label}</dt>
      <dd>
        <span className={styles.statValue}>{value}</span>
        {note && <span className={styles.sub}>{note}</span>}
      </dd>
    </div>
  );
  // Oldest first, as a chart reads left to right.
  const runs = [...stats.runs].reverse();

  return (
    <div className={styles.page}>
      <div className={styles.pageHead}>
        <h1 className={styles.title}>{t('title')}</h1>
        <p className={styles.lead}>{t('lead')}</p>
      </div>

      <section aria-labelledby="figures-title" className={styles.panel}>
        <h2 id="figures-title">{t('figures')}</h2>
        <dl className={styles.stats}>
          {figure('queued', t('queued'), count(stats.queued, locale), t('queuedNote'))}
          {figure('ready', t('ready'), count(stats.ready, locale), t('readyNote'))}
          {figure('published', t('published'), count(stats.published, locale), t('artists', { count: stats.publishedArtists }))}
          {figure('today', t('today'), t('todayValue', { today: stats.publishedToday, perDay: stats.perDay }), t('todayNote'))}
          {figure('capLeft', t('capLeft'), count(stats.capLeft, locale))}
        </dl>
        <h3 className={styles.subhead}>{t('browsePages')}</h3>
        <dl className={styles.stats}>{taxonKinds.map((kind) => figure(kind, t(`kinds.${kind}`), count(stats.browsePages[kind], locale)))}</dl>
        <p className={styles.hint}>{t('browsePagesNote')}</p>
      </section>

      <div className={styles.orderGrid}>
        <section aria-labelledby="runs-title" className={`${styles.panel} ${styles.orderMain}`}>
          <h2 id="runs-title">{t('runs')}</h2>
          {runs.length === 0 ? (
            <p className={styles.empty}>{t('noRuns')}</p>
          ) : (
            <>
              <PublishChart locale={locale} runs={runs.map((r) => ({ id: r.id, at: r.startedAt, published: r.published, requested: r.requested, trigger: r.trigger }))} />
              <details className={styles.runsTable}>
                <summary>{t('runsTable')}</summary>
                <table className={styles.board}>
                  <thead>
                    <tr>
                      <th scope="col">{t('run.at')}</th>
                      <th scope="col">{t('run.trigger')}</th>
                      <th scope="col">{t('run.requested')}</th>
                      <th scope="col">{t('run.published')}</th>
                      <th scope="col">{t('run.artists')}</th>
                      <th scope="col">{t('run.notified')}</th>
                      <th scope="col">{t('run.errors')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {stats.runs.map((r) => (
                      <tr key={r.id}>
                        <td data-label={t('run.at')}>{dateTime(r.startedAt, locale)}</td>
                        <td data-label={t('run.trigger')}>{t(`trigger.${r.trigger}`)}</td>
                        <td data-label={t('run.requested')} className={styles.number}>
                          {count(r.requested, locale)}
                        </td>
                        <td data-label={t('run.published')} className={styles.number}>
                          {count(r.published, locale)}
                        </td>
                        <td data-label={t('run.artists')}>{r.artistsIntroduced.join(', ') || '—'}</td>
                        <td data-label={t('run.notified')} className={styles.number}>
                          {count(r.urlsNotified, locale)}
                        </td>
                        <td data-label={t('run.errors')}>{r.errors.join('; ') || '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </>
          )}
        </section>

        <div className={styles.orderSide}>
          <CatalogActions locale={locale} capLeft={stats.capLeft} ready={stats.ready} />
          <section aria-labelledby="jobs-title" className={styles.panel}>
            <h2 id="jobs-title">{t('jobs')}</h2>
            <p className={styles.hint}>{inngestConfigured(env()) ? t('jobsInngest') : t('jobsInProcess')}</p>
            {/* The dashboard exists only where Inngest runs the jobs; the in-process worker has none. */}
            {inngestConfigured(env()) && (
              <p>
                <a href={inngestDashboard()} target="_blank" rel="noopener noreferrer" className={styles.quietLink}>
                  {t('inngestLink')} ↗
                </a>
              </p>
            )}
          </section>
        </div>
      </div>

      <SetAsidePainters locale={locale} painters={stats.setAsidePainters} />
      <IngestRuns locale={locale} runs={stats.ingestRuns} />
    </div>
  );
}
