import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import styles from '@/components/browse/browse.module.css';
import { cachedTaxon } from '@/components/browse/catalog-lists';
import { isTaxonKind } from '@/components/browse/kinds';
import { pageParam, type SearchParams } from '@/components/browse/params';
import { WorksList } from '@/components/browse/works';
import { JsonLd } from '@/components/json-ld';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Link } from '@/i18n/navigation';
import { localizedPath, routing } from '@/i18n/routing';
import { imageSrc } from '@/shared/images';
import { pageMetadata } from '@/lib/seo';
import { env, publicBaseUrl } from '@/server/env';
import { kindOf, type TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';

// The page reads `?page=`, so it is rendered per request; its catalog reads are cached for five
// minutes (src/components/browse/catalog-lists.ts), as long as a cached page would live.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string; kind: string; slug: string }>;
  searchParams: Promise<SearchParams>;
}

/** The browse page, or `null` when the catalog does not show it (unknown, or under 3 works): the localized 404. */
const readTaxon = cache((locale: Locale, kind: TaxonKindPlural, slug: string, page: number) => cachedTaxon(locale, kind, slug, page));

const excerpt = (text: string, max = 180) => (text.length <= max ? text : `${text.slice(0, text.lastIndexOf(' ', max - 1))}…`);

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale, kind, slug } = await params;
  if (!hasLocale(routing.locales, locale) || !isTaxonKind(kind)) return {};
  const page = pageParam(await searchParams);
  const [t, detail] = await Promise.all([getTranslations({ locale, namespace: 'Taxa' }), readTaxon(locale, kind, slug, page)]);
  if (!detail) return {};
  const { taxon } = detail;
  return pageMetadata({
    locale,
    path: pagePath.taxon(kind, taxon.slug),
    title: page > 1 ? t('pageTitlePage', { name: taxon.name, page }) : t(`pageTitle.${kind}`, { name: taxon.name }),
    description: taxon.description ? excerpt(taxon.description) : t(`pageDescription.${kind}`, { name: taxon.name, count: taxon.artworkCount }),
    imageFile: taxon.imageFile,
  });
}

/** One browse page (`/museums/louvre-museum`): what it is, its best-represented artists and its works. */
export default async function BrowsePage({ params, searchParams }: Props) {
  const { locale, kind, slug } = await params;
  if (!hasLocale(routing.locales, locale) || !isTaxonKind(kind)) notFound();
  setRequestLocale(locale);
  const page = pageParam(await searchParams);
  const [t, detail] = await Promise.all([getTranslations('Taxa'), readTaxon(locale, kind, slug, page)]);
  if (!detail) notFound();
  const { taxon, topArtists, works } = detail;
  const base = publicBaseUrl(env()).replace(/\/$/, '');
  const worksTitle = t('worksTitle', { name: taxon.name });

  return (
    <div className="container">
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
          name: taxon.name,
          url: `${base}${localizedPath(locale, pagePath.taxon(kind, taxon.slug))}`,
          inLanguage: locale,
          ...(taxon.description ? { description: taxon.description } : {}),
          ...(taxon.imageFile ? { image: `${base}${imageSrc(taxon.imageFile, 1280)}` } : {}),
          mainEntity: {
            '@type': 'ItemList',
            numberOfItems: works.total,
            itemListElement: works.items.map((work, i) => ({
              '@type': 'ListItem',
              position: (works.page - 1) * works.pageSize + i + 1,
              url: `${base}${localizedPath(locale, pagePath.artwork(work.slug))}`,
              name: work.title,
            })),
          },
        }}
      />
      <header className={`page-head ${styles.detailHead}`}>
        <Breadcrumbs items={[{ name: t(`plural.${kind}`), path: pagePath.taxa(kind) }, { name: taxon.name }]} />
        <p className={`eyebrow ${styles.kindEyebrow}`}>{t(`singular.${kind}`)}</p>
        <h1>{taxon.name}</h1>
        <p className={styles.detailMeta}>
          <span>{t('works', { count: taxon.artworkCount })}</span>
        </p>
        {taxon.description ? <p className={styles.bio}>{taxon.description}</p> : null}
        {topArtists.length ? (
          <div className={styles.related}>
            <h2 className={styles.relatedTitle} id="top-artists">
              {t('topArtists')}
            </h2>
            <ul className={styles.pills} aria-labelledby="top-artists">
              {topArtists.map((artist) => (
                <li key={artist.slug}>
                  <Link className={styles.pill} href={pagePath.artist(artist.slug)}>
                    {artist.name}
                    <span className={styles.pillCount}>{t('artistWorks', { count: artist.artworkCount })}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </header>
      <section className="page-section" aria-labelledby="taxon-works">
        <div className={styles.sectionHead}>
          <h2 id="taxon-works">{worksTitle}</h2>
          <Link className={styles.textLink} href={{ pathname: pagePath.artworks(), query: { [kindOf[kind]]: taxon.slug } }}>
            {t('refine')}
          </Link>
        </div>
        <WorksList works={works} path={pagePath.taxon(kind, taxon.slug)} label={worksTitle} />
      </section>
    </div>
  );
}
