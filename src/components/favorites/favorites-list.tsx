'use client';

import { keepPreviousData } from '@tanstack/react-query';
import { useRef } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { ArtworkCard } from '@/components/artwork/artwork-card';
import { ButtonLink } from '@/components/ui/button';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import { SignInButton } from './sign-in';
import { useFavorites } from './use-favorites';
import styles from './favorites.module.css';

/** `/v1/artworks/by-slugs` answers at most this many cards at once; a longer local list shows its newest. */
const MAX_CARDS = 100;

/**
 * The favorites page's content: the works as catalog cards, each with a heart that removes it.
 * Signed out, the cards of this browser's list come from the catalog (`catalog.artworksBySlugs`);
 * signed in, from the account (`account.favorites`).
 */
export function FavoritesList() {
  const t = useTranslations('Favorites');
  const account = useTranslations('Account');
  const locale = useLocale() as Locale;
  const { status, slugs, storedCards, storedLoading, isFavorite } = useFavorites();
  const list = useRef<HTMLUListElement>(null);
  const emptyHeading = useRef<HTMLHeadingElement>(null);
  // Asked together with the session (one batched request), so the sign-in offer does not wait for it.
  const config = trpc.account.config.useQuery({}, { staleTime: Infinity });

  const wanted = status === 'signedOut' ? slugs.slice(0, MAX_CARDS) : [];
  const local = trpc.catalog.artworksBySlugs.useQuery(
    { slugs: wanted.join(','), locale },
    // Removing one keeps the other cards on screen while the shorter list is asked for.
    { enabled: wanted.length > 0, placeholderData: keepPreviousData, staleTime: 5 * 60_000 },
  );

  const cards = (status === 'signedIn' ? storedCards : wanted.length > 0 ? local.data?.items : []) ?? null;
  const failed = status === 'signedIn' ? false : local.isError;
  const waiting = status === 'loading' || storedLoading || (status === 'signedOut' && wanted.length > 0 && !local.data && !failed);

  /** After a card leaves, focus goes to the heart now in its place (or the last one, or the empty state), never to nowhere. */
  function afterRemove(slug: string) {
    const hearts = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button[data-favorite-slug]') ?? []);
    // Where the card was, read before React takes it out.
    const at = hearts().findIndex((button) => button.dataset.favoriteSlug === slug);
    requestAnimationFrame(() => {
      const left = hearts().filter((button) => button.dataset.favoriteSlug !== slug);
      const next = left[Math.min(Math.max(0, at), left.length - 1)];
      if (next) next.focus();
      else emptyHeading.current?.focus();
    });
  }

  if (waiting) {
    return (
      <p className={styles.waiting} role="status">
        {t('loading')}
      </p>
    );
  }
  if (failed) {
    return (
      <p className={styles.waiting} role="alert">
        {t('loadFailed')}
      </p>
    );
  }

  const shown = (cards ?? []).filter((card) => isFavorite(card.slug));
  const signInHint =
    status === 'signedOut' && config.data?.signInEnabled ? (
      <div className={styles.signInHint}>
        <p>{t('signInHint')}</p>
        <SignInButton variant="primary" failedText={account('signInFailed')}>
          {account('signInWithGoogle')}
        </SignInButton>
      </div>
    ) : null;

  return (
    <>
      {shown.length === 0 ? null : (
        <div className={styles.intro}>
          <p className={styles.count} aria-live="polite">
            {t('count', { count: shown.length })}
          </p>
          <p>{status === 'signedIn' ? t('keptInAccount') : t('keptInBrowser')}</p>
        </div>
      )}
      {shown.length === 0 ? (
        <div className={styles.empty} data-favorites-empty>
          <svg className={styles.emptyMark} viewBox="0 0 24 24" width="36" height="36" aria-hidden="true" focusable="false">
            <path
              d="M12 20.5s-7.5-4.6-9.3-9.6C1.6 7.7 3.6 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.4 0 5.4 3.2 4.3 6.4-1.8 5-9.3 9.6-9.3 9.6z"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.2"
            />
          </svg>
          <h2 ref={emptyHeading} tabIndex={-1}>
            {t('emptyTitle')}
          </h2>
          <p>{t('emptyBody')}</p>
          <ButtonLink href={pagePath.artworks()} variant="primary">
            {t('browse')}
          </ButtonLink>
        </div>
      ) : (
        <ul className={styles.grid} ref={list} aria-label={t('listLabel')}>
          {shown.map((work, i) => (
            <ArtworkCard key={work.slug} work={work} priority={i < 4} onFavoriteChange={(on) => (on ? undefined : afterRemove(work.slug))} />
          ))}
        </ul>
      )}
      {signInHint}
    </>
  );
}
