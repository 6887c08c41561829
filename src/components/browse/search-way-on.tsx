import { getTranslations } from 'next-intl/server';
import { ArtworkGrid } from '@/components/artwork/artwork-card';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { SUGGESTIONS_QUERY_MAX, type ArtworkCard } from '@/server/catalog/schema';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';
import { cachedFilteredGrid } from './catalog-lists';
import styles from './browse.module.css';

/** Near works shown under a search that found nothing: two full rows of the widest grid (five across). */
const NEAR_WORKS = 10;

/** Words of a longer search looked up one by one for a painter or near works. */
const MAX_WORDS = 3;

/**
 * What a search that found nothing offers, so it never ends there (issue #42, item 3): the
 * painter's page when what was typed is near a painter's name, the works nearest to it (the
 * suggestions' prefix and typo machinery; else the best-known works), and a custom painting from
 * the shopper's own photo, with the words carried over as the idea.
 */
export async function SearchWayOn({ q, locale }: { q: string; locale: Locale }) {
  // What was typed as a whole, then each of its first words: "Gogh Sonnenblumen" finds nothing
  // together, but its first word is a painter.
  const words = q.split(/\s+/).filter((word) => word.length > 1);
  // As suggestions take it: no NUL (a hand-edited address), at most SUGGESTIONS_QUERY_MAX characters.
  const asked = [q, ...(words.length > 1 ? words.slice(0, MAX_WORDS) : [])].map((text) => text.replaceAll('\u0000', '').trim().slice(0, SUGGESTIONS_QUERY_MAX)).filter(Boolean);
  const [t, ...answers] = await Promise.all([getTranslations('Browse.wayOn'), ...asked.map((text) => serverApi().catalog.searchSuggestions({ q: text, locale }))]);
  const near = [...new Map(answers.flatMap((answer) => answer.items).map((item) => [`${item.kind}:${item.slug}`, item])).values()];
  const painters = near.filter((item) => item.kind === 'artist').slice(0, 3);
  const slugs = near
    .filter((item) => item.kind === 'artwork')
    .map((item) => item.slug)
    .slice(0, NEAR_WORKS);
  // The near works: those suggested, else the nearest painter's best known, else the catalog's.
  const shown = slugs.length ? 'near' : painters.length ? 'painter' : 'loved';
  const works: ArtworkCard[] =
    shown === 'near'
      ? (await serverApi().catalog.artworksBySlugs({ slugs: slugs.join(','), locale })).items
      : (await cachedFilteredGrid(locale, shown === 'painter' ? { artist: painters[0]!.slug } : {}, 1)).items.slice(0, NEAR_WORKS);

  return (
    <div className={styles.wayOn}>
      {painters.length ? (
        <section aria-labelledby="way-on-painters">
          <h2 id="way-on-painters" className={styles.wayOnHeading}>
            {t('painters')}
          </h2>
          <ul className={styles.wayOnPainters}>
            {painters.map((painter) => (
              <li key={painter.slug}>
                <Link href={pagePath.artist(painter.slug)}>{painter.label}</Link>
                {painter.sublabel ? <span className={styles.wayOnYears}> {painter.sublabel}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className={styles.wayOnCustom} aria-labelledby="way-on-custom">
        <h2 id="way-on-custom" className={styles.wayOnHeading}>
          {t('customTitle')}
        </h2>
        <p>{t('customBody', { q })}</p>
        <ButtonLink variant="primary" href={{ pathname: pagePath.custom(), query: { idea: q } }}>
          {t('customAction')}
        </ButtonLink>
      </section>

      <section aria-labelledby="way-on-works">
        <h2 id="way-on-works" className={styles.wayOnHeading}>
          {shown === 'loved' ? t('lovedWorks') : t('nearWorks')}
        </h2>
        <ArtworkGrid works={works} eager={0} />
      </section>
    </div>
  );
}
