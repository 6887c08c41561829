'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { staffApi } from '../../_lib/trpc';
import { dateTime } from '../../_lib/format';
import styles from '../staff.module.css';

/** A set-aside painter as the stats answer it (SeoStats.setAsidePainters). */
interface Painter {
  qid: string;
  nights: number;
  lastError: string;
  setAsideAt: string;
}

/**
 * The painters the nightly ingest leaves out after three failing nights, each with its last error
 * and "Try again": the next run takes it like any other (docs/pipeline.md "One painter never stops a run").
 */
export function SetAsidePainters({ locale, painters }: { locale: string; painters: Painter[] }) {
  const t = useTranslations('Staff.catalog.setAside');
  const router = useRouter();
  const [failed, setFailed] = useState<string | null>(null);
  const retry = staffApi.tryPainterAgain.useMutation({ onSuccess: () => router.refresh(), onError: (_e, input) => setFailed(input.qid) });
  if (!painters.length) return null;
  return (
    <section aria-labelledby="set-aside-title" className={styles.panel} data-testid="set-aside-painters">
      <h2 id="set-aside-title">{t('title')}</h2>
      <p className={styles.hint}>{t('hint')}</p>
      <ul className={styles.refunds}>
        {painters.map((painter) => (
          <li key={painter.qid}>
            <a href={`https://www.wikidata.org/wiki/${painter.qid}`} target="_blank" rel="noopener noreferrer" className={styles.quietLink}>
              {painter.qid}
            </a>{' '}
            · {t('nights', { count: painter.nights })} · <time dateTime={painter.setAsideAt}>{dateTime(painter.setAsideAt, locale)}</time>
            <span className={styles.sub}>{painter.lastError}</span>
            <button type="button" className={styles.secondaryButton} disabled={retry.isPending} onClick={() => (setFailed(null), retry.mutate({ qid: painter.qid }))}>
              {t('retry')}
            </button>
            {failed === painter.qid && (
              <span role="alert" className={styles.error}>
                {t('failed')}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
