import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import styles from '@/components/browse/browse.module.css';
import { LifeYears } from '@/components/browse/cards';
import { cachedArtist } from '@/components/browse/catalog-lists';
import { TaxonName } from '@/components/browse/taxon-name';
import { pageParam, type SearchParams } from '@/components/browse/params';
import { WorksList } from '@/components/browse/works';
import { JsonLd } from '@/components/json-ld';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Link } from '@/i18n/navigation';
import { localizedPath, routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { env, publicBaseUrl } from '@/server/env';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';

// The page reads `?page=`, so it is rendered per request; its catalog reads are cached for five
// minutes (src/components/browse/catalog-lists.ts), as long as a cached page would live.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string; slug: string }>;
  searchParams: Promise<SearchParams>;
}

/** The artist, or `null` for a slug the catalog does not publish (the page is then the localized 404). */
const readArtist = cache((locale: Locale, slug: string, page: number) => cachedArtist(locale, slug, page));

/** A bio's first sentence or so, for the meta description. */
const excerpt = (text: string, max = 180) => (text.length <= max ? text : `${text.slice(0, text.lastIndexOf(' ', max - 1))}…`);

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale, slug } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const page = pageParam(await searchParams);
  const [t, detail] = await Promise.all([getTranslations({ locale, namespace: 'Artists' }), readArtist(locale, slug, page)]);
  if (!detail) return {};
  const { artist } = detail;
  return pageMetadata({
    locale,
    path: pagePath.artist(artist.slug),
    title: page > 1 ? t('artistTitlePage', { name: artist.name, page }) : t('artistTitle', { name: artist.name }),
    description: artist.bio ? excerpt(artist.bio) : t('artistDescription', { name: artist.name, count: artist.artworkCount }),
    imageFile: artist.imageFile,
  });
}

export default async function ArtistPage({ params, searchParams }: Props) {
  const { locale, slug } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const page = pageParam(await searchParams);
  const [t, taxa, detail] = await Promise.all([getTranslations('Artists'), getTranslations('Taxa'), readArtist(locale, slug, page)]);
  if (!detail) notFound();
  const { artist, movements, works } = detail;
  const base = publicBaseUrl(env()).replace(/\/$/, '');

  return (
    <div className="container">
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Person',
          name: artist.name,
          url: `${base}${localizedPath(locale, pagePath.artist(artist.slug))}`,
          ...(artist.birthYear != null ? { birthDate: String(artist.birthYear) } : {}),
          ...(artist.deathYear != null ? { deathDate: String(artist.deathYear) } : {}),
          ...(artist.bio ? { description: artist.bio } : {}),
          // No `image`: the artist's cover is one of their paintings, not a portrait of them.
          ...(artist.wikidataId ? { sameAs: [`https://www.wikidata.org/wiki/${artist.wikidataId}`] } : {}),
          jobTitle: t('painter'),
        }}
      />
      <header className={`page-head ${styles.detailHead}`}>
        <Breadcrumbs items={[{ name: t('title'), path: pagePath.artists() }, { name: artist.name }]} />
        <h1>{artist.name}</h1>
        <p className={styles.detailMeta}>
          <LifeYears artist={artist} />
          <span>{taxa('works', { count: artist.artworkCount })}</span>
        </p>
        {artist.bio ? <p className={styles.bio}>{artist.bio}</p> : null}
        {movements.length ? (
          <div className={styles.related}>
            <h2 className={styles.relatedTitle} id="artist-movements">
              {t('movements')}
            </h2>
            <ul className={styles.pills} aria-labelledby="artist-movements">
              {movements.map((movement) => (
                <li key={movement.slug}>
                  <TaxonName kind="movements" taxon={movement} className={styles.pill} textClassName={styles.pillText} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </header>
      <section className="page-section" aria-labelledby="artist-works">
        <div className={styles.sectionHead}>
          <h2 id="artist-works">{t('worksTitle', { name: artist.name })}</h2>
          <Link className={styles.textLink} href={{ pathname: pagePath.artworks(), query: { artist: artist.slug } }}>
            {t('refine')}
          </Link>
        </div>
        <WorksList works={works} path={pagePath.artist(artist.slug)} label={t('worksTitle', { name: artist.name })} />
      </section>
    </div>
  );
}
