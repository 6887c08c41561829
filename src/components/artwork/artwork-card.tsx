import { useLocale, useTranslations } from 'next-intl';
import { FavoriteButton } from '@/components/favorites/favorite-button';
import { Link } from '@/i18n/navigation';
import { formatUsd } from '@/lib/format';
import { formatWorkDate } from '@/lib/work-date';
import type { ArtworkCard as Card } from '@/server/catalog/schema';
import { pagePath } from '@/shared/paths';
import { cheapestReproduction } from '@/shared/prices';
import { ArtworkImage } from './artwork-image';
import styles from './artwork.module.css';

/** The cheapest way to own a reproduction: the smallest size, rolled. */
const fromCents = cheapestReproduction().cents;

/**
 * One painting in a grid: picture, title, artist, year and the starting price, all from the card
 * the catalog sends (no second query per card), and its heart, so a shopper keeps a painting from
 * any grid as from its page. Works in server and client components.
 * `onFavoriteChange`: told when the shopper toggles the heart (the favorites page moves focus).
 */
export function ArtworkCard({ work, priority = false, onFavoriteChange }: { work: Card; priority?: boolean; onFavoriteChange?: (favorite: boolean) => void }) {
  const t = useTranslations('Catalog');
  const locale = useLocale();
  const ratio = work.widthCm && work.heightCm ? work.widthCm / work.heightCm : null;
  const date = formatWorkDate(t, work.year, work.yearPrecision);
  return (
    <li className={styles.card} data-slug={work.slug}>
      <Link href={pagePath.artwork(work.slug)} className={styles.cardLink}>
        <ArtworkImage
          file={work.imageFile}
          alt={t('imageAlt', { title: work.title, artist: work.artist.name })}
          sizes="(min-width: 72rem) 18rem, (min-width: 40rem) 30vw, 45vw"
          maxWidth={500}
          ratio={ratio}
          priority={priority}
          className={styles.cardPicture}
        />
        <span className={styles.cardTitle}>{work.title}</span>
      </Link>
      <p className={styles.cardArtist}>
        {work.artist.name}
        {date ? <span className={styles.cardYear}>{date}</span> : null}
      </p>
      <p className={styles.cardPrice}>{t('fromPrice', { price: formatUsd(fromCents, locale) })}</p>
      <FavoriteButton slug={work.slug} title={work.title} look="icon" className={styles.cardHeart} onChange={onFavoriteChange} />
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
