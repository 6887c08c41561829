import { useTranslations } from 'next-intl';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import { Link } from '@/i18n/navigation';
import type { ArtistCard as Artist, TaxonCard as Taxon } from '@/server/catalog/schema';
import { pagePath } from '@/shared/paths';
import styles from './browse.module.css';

/** `1853–1890`, `born 1900`, `died 1519`, or nothing. Years go in as text so they are never grouped (1,853). */
export function LifeYears({ artist }: { artist: Pick<Artist, 'birthYear' | 'deathYear'> }) {
  const t = useTranslations('Artists');
  const { birthYear: birth, deathYear: death } = artist;
  if (birth != null && death != null) return <span>{t('lifeYears', { birth: String(birth), death: String(death) })}</span>;
  if (death != null) return <span>{t('died', { death: String(death) })}</span>;
  if (birth != null) return <span>{t('born', { birth: String(birth) })}</span>;
  return null;
}

/** Browse pages (a museum, a movement…) as cards: the cover painting, the name and how many works. */
export function TaxonCards({ items, eager = 0, label }: { items: Taxon[]; eager?: number; label?: string }) {
  const t = useTranslations('Taxa');
  return (
    <ul className={styles.cards} aria-label={label}>
      {items.map((taxon, i) => (
        <li key={taxon.slug} className={styles.card} data-slug={taxon.slug}>
          <Link className={styles.cardLink} href={pagePath.taxon(taxon.kind, taxon.slug)}>
            <ArtworkImage
              file={taxon.imageFile}
              alt=""
              ratio={4 / 3}
              sizes="(min-width: 72rem) 17rem, (min-width: 40rem) 30vw, 45vw"
              maxWidth={500}
              priority={i < eager}
              className={styles.cover}
            />
            <span className={styles.cardName}>{taxon.name}</span>
          </Link>
          <p className={styles.cardMeta}>{t('works', { count: taxon.artworkCount })}</p>
        </li>
      ))}
    </ul>
  );
}

/** Artists as cards: their best-known painting, name, life years and number of works. */
export function ArtistCards({ items, eager = 0 }: { items: Artist[]; eager?: number }) {
  const t = useTranslations('Taxa');
  return (
    <ul className={styles.cards}>
      {items.map((artist, i) => {
        return (
          <li key={artist.slug} className={styles.card} data-slug={artist.slug}>
            <Link className={styles.cardLink} href={pagePath.artist(artist.slug)}>
              <ArtworkImage
                file={artist.imageFile}
                alt=""
                ratio={4 / 3}
                sizes="(min-width: 72rem) 17rem, (min-width: 40rem) 30vw, 45vw"
                maxWidth={500}
                priority={i < eager}
                className={styles.cover}
              />
              <span className={styles.cardName}>{artist.name}</span>
            </Link>
            <p className={styles.cardMeta}>
              <LifeYears artist={artist} />
              <span>{t('works', { count: artist.artworkCount })}</span>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
