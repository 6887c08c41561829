'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useFavorites } from './use-favorites';
import styles from './favorites.module.css';

interface Props {
  slug: string;
  /** The painting's title, for the button's name ("Add The Starry Night to favorites", "Add to favorites: The Starry Night"). */
  title?: string;
  /** `labelled` (default): heart and words, for a page's actions; `icon`: the heart alone, for cards. */
  look?: 'labelled' | 'icon';
  className?: string;
  /** Told as the shopper changes it, before the server answers (the favorites page moves focus when a card leaves). */
  onChange?: (favorite: boolean) => void;
}

/**
 * The heart: a toggle button (aria-pressed) that keeps a painting among the shopper's favorites,
 * in this browser while signed out and in the account while signed in. The change shows at once;
 * a failed write puts the heart back and says so.
 */
export function FavoriteButton({ slug, title, look = 'labelled', className, onChange }: Props) {
  const t = useTranslations('Favorites');
  const { status, isFavorite, setFavorite } = useFavorites();
  const [failed, setFailed] = useState(false);
  const on = isFavorite(slug);
  const common = useTranslations('Common');
  const label = t(on ? 'labelOn' : 'labelOff');
  // A heart alone says what it does to the work ("Add The Starry Night to favorites"); a labelled
  // one is named by the words it shows, then the work (WCAG 2.5.3): "In your favorites: The Starry Night".
  const action = title ? t(on ? 'removeNamed' : 'addNamed', { title }) : t(on ? 'remove' : 'add');
  const name = look === 'icon' ? action : title ? common('named', { label, title }) : label;

  async function toggle() {
    setFailed(false);
    const next = !on;
    const saving = setFavorite(slug, next);
    if (status !== 'loading') onChange?.(next);
    const saved = await saving;
    setFailed(!saved && status !== 'loading');
  }

  return (
    <span className={[styles.favorite, className].filter(Boolean).join(' ')}>
      <button
        type="button"
        className={look === 'icon' ? styles.heartIcon : styles.heartButton}
        aria-pressed={on}
        aria-label={name}
        title={look === 'icon' ? name : undefined}
        // While the session is being read the heart cannot know where to write; it waits a moment.
        aria-disabled={status === 'loading' || undefined}
        data-favorite-slug={slug}
        onClick={toggle}
      >
        <Heart filled={on} />
        {look === 'labelled' ? <span aria-hidden="true">{label}</span> : null}
      </button>
      <span role="status" className={failed ? styles.failed : 'visually-hidden'}>
        {failed ? t('failed') : ''}
      </span>
    </span>
  );
}

function Heart({ filled }: { filled: boolean }) {
  return (
    <svg className={styles.heart} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 20.5s-7.5-4.6-9.3-9.6C1.6 7.7 3.6 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.4 0 5.4 3.2 4.3 6.4-1.8 5-9.3 9.6-9.3 9.6z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}
