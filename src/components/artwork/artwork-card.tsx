import type { ReactNode } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { formatUsd } from '@/lib/format';
import type { ArtworkCard as Card } from '@/server/catalog/schema';
import { pagePath } from '@/shared/paths';
import { prices } from '@/shared/prices';
import { ArtworkImage } from './artwork-image';
import styles from './artwork.module.css';

/** The cheapest way to own a reproduction: the smallest size, rolled. */
export const fromCents = Math.min(...Object.values(prices.reproduction).map((bySize) => bySize.rolled));

/**
 * One painting in a grid: picture, title, artist, year and the starting price, all from the card
 * the catalog sends (no second query per card). Works in server and client components.
 */
/** `children`: an action that belongs to the card (the favorites page's remove heart), drawn last in the item. */
export function ArtworkCard({ work, priority = false, children }: { work: Card; priority?: boolean; children?: ReactNode }) {
  const t = useTranslations('Catalog');
  const locale = useLocale();
  const ratio = work.widthCm && work.heightCm ? work.widthCm / work.heightCm : null;
  return (
    <li className={styles.card} data-slug={work.slug}>
      <Link href={pagePath.artwork(work.slug)} className={styles.cardLink}>
        <ArtworkImage
          file={work.imageFile}
          alt={t('imageAlt', { title: work.title, artist: work.artist.name })}
          sizes="(min-width: 72rem) 18rem, (min-width: 40rem) 30vw, 45vw"
          maxWidth={640}
          ratio={ratio}
          priority={priority}
          className={styles.cardPicture}
        />
        <span className={styles.cardTitle}>{work.title}</span>
      </Link>
      <p className={styles.cardArtist}>
        {work.artist.name}
        {work.year != null ? <span className={styles.cardYear}>{work.year}</span> : null}
      </p>
      <p className={styles.cardPrice}>{t('fromPrice', { price: formatUsd(fromCents, locale) })}</p>
      {children}
    </li>
  );
}

/** A responsive grid of cards; the first row loads eagerly (it is the page's largest content). */
export function ArtworkGrid({ works, eager = 4, label }: { works: Card[]; eager?: number; label?: string }) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {works.map((work, i) => (
        <ArtworkCard key={work.slug} work={work} priority={i < eager} />
      ))}
    </ul>
  );
}
