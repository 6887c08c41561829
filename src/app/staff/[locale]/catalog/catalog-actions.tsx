'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { staffApi } from '../../_lib/trpc';
import styles from '../staff.module.css';

/** How many of the works a run published are listed by name; a launch-day run may publish thousands. */
const SHOWN_WORKS = 12;

/**
 * Publish now (within today's cap) and recount, through the same procedures as
 * POST /v1/admin/seo/publish and /refresh-counts; the page's figures are read again afterwards.
 */
export function CatalogActions({ locale, capLeft, ready }: { locale: string; capLeft: number; ready: number }) {
  const t = useTranslations('Staff.catalog');
  const router = useRouter();
  const id = useId();
  const number = new Intl.NumberFormat(locale);
  const [countText, setCountText] = useState(String(Math.max(1, Math.min(50, capLeft || 50))));
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string; detail?: string; works?: string[] } | null>(null);

  const failed = (status: number | undefined) => setMessage({ kind: 'error', text: status === 401 ? t('signedOut') : t('failed') });
  const publish = staffApi.pipeline.publish.useMutation({
    onSuccess: (answer) => {
      setMessage({
        kind: 'ok',
        text: answer.published === 0 ? t('publishedNone', { capLeft: answer.capLeft }) : t('publishedSome', { count: answer.published, capLeft: answer.capLeft }),
        detail: [
          answer.artistsIntroduced.length ? t('introduced', { artists: answer.artistsIntroduced.join(', ') }) : '',
          answer.browsePagesAdded.length ? t('pagesAdded', { pages: answer.browsePagesAdded.join(', ') }) : '',
          answer.errors.length ? t('runErrors', { errors: answer.errors.join('; ') }) : '',
        ]
          .filter(Boolean)
          .join(' '),
        works: answer.artworks,
      });
      router.refresh();
    },
    onError: (error) => failed(error.data?.httpStatus),
  });
  const recount = staffApi.pipeline.refreshCounts.useMutation({
    onSuccess: (answer) => {
      setMessage({ kind: 'ok', text: t('recounted', { artists: answer.changed.artists, pages: answer.changed.browsePages }) });
      router.refresh();
    },
    onError: (error) => failed(error.data?.httpStatus),
  });

  const count = Number.parseInt(countText, 10);
  const valid = Number.isInteger(count) && count >= 1 && count <= 100_000;
  const busy = publish.isPending || recount.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setMessage(null);
    publish.mutate({ count });
  };

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('actions')}</h2>
      <form onSubmit={submit} className={styles.form}>
        <div className={styles.field}>
          <label htmlFor={`${id}-count`}>{t('count')}</label>
          <input
            id={`${id}-count`}
            type="number"
            inputMode="numeric"
            min={1}
            max={100_000}
            step={1}
            required
            value={countText}
            onChange={(e) => setCountText(e.target.value)}
            aria-describedby={`${id}-count-hint`}
          />
          <p id={`${id}-count-hint`} className={styles.hint}>
            {ready === 0 ? t('nothingReady') : capLeft === 0 ? t('capReached') : t('countHint', { ready: number.format(ready), capLeft: number.format(capLeft) })}
          </p>
        </div>
        {/* Nothing to publish, or today's cap is used up: the button would only ever answer "published 0". */}
        <button type="submit" className={styles.primaryButton} disabled={busy || !valid || ready === 0 || capLeft === 0} aria-describedby={`${id}-count-hint`}>
          {publish.isPending ? t('publishing') : t('publishNow')}
        </button>
      </form>
      <button type="button" className={styles.secondaryButton} disabled={busy} onClick={() => (setMessage(null), recount.mutate({}))}>
        {recount.isPending ? t('recounting') : t('recount')}
      </button>
      <div role="status" aria-live="polite" data-testid="catalog-outcome" className={message ? (message.kind === 'error' ? styles.error : styles.notice) : undefined}>
        {message && <p>{message.text}</p>}
        {message?.detail && <p className={styles.sub}>{message.detail}</p>}
        {message?.works && message.works.length > 0 && (
          <>
            <p className={styles.sub}>{t('publishedList')}</p>
            <ul className={styles.workList}>
              {message.works.slice(0, SHOWN_WORKS).map((slug) => (
                <li key={slug}>
                  <a href={`/${locale}/artworks/${slug}`} className={styles.quietLink}>
                    {slug}
                  </a>
                </li>
              ))}
              {message.works.length > SHOWN_WORKS && <li>{t('andMore', { count: message.works.length - SHOWN_WORKS })}</li>}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
