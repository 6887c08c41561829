import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { ArtworkGrid } from '@/components/artwork/artwork-card';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import browse from '@/components/browse/browse.module.css';
import { TaxonCards } from '@/components/browse/cards';
import { JsonLd } from '@/components/json-ld';
import { EmptyState } from '@/components/browse/empty-state';
import styles from '@/components/browse/home.module.css';
import { ShowcaseGallery } from '@/components/showcase/showcase-gallery';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { localizedPath, routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { shopNodes } from '@/lib/structured-data';
import { env, publicBaseUrl } from '@/server/env';
import { shopIdentity } from '@/server/shop/identity';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';

// Rendered on first visit, then served from cache; a publish run changes it at most daily, and a
// painting staff show in (or take out of) the gallery appears within these 300 s (docs/storefront.md).
export const revalidate = 300;

/** How many browse pages each row on the home page shows. */
const ROW = 4;
/** Featured works shown: two full rows of four on a wide screen. */
const FEATURED = 8;

interface Props {
  params: Promise<{ locale: string }>;
}

/** The home page's three catalog reads, once per render (the metadata takes its picture from them). */
const readHome = cache((locale: Locale) =>
  Promise.all([
    // The same procedure as GET /v1/artworks?featured=1: published featured works, best known first.
    serverApi().catalog.artworks({ featured: '1', locale }),
    serverApi().catalog.taxa({ kind: 'movements', locale }),
    serverApi().catalog.taxa({ kind: 'museums', locale }),
  ]),
);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const [t, [featured]] = await Promise.all([getTranslations({ locale, namespace: 'Metadata' }), readHome(locale)]);
  return {
    ...pageMetadata({ locale, path: '/', title: t('title'), description: t('description'), imageFile: featured.items.find((w) => w.imageFile)?.imageFile }),
    title: { absolute: t('title') },
  };
}

export default async function HomePage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const [t, catalog, [featured, movements, museums], gallery] = await Promise.all([
    getTranslations('Home'),
    getTranslations('Catalog'),
    readHome(locale),
    // The same procedure as GET /v1/showcase: finished paintings shown with their customers' consent.
    serverApi().showcase.gallery({ locale }),
  ]);
  const hung = featured.items.find((work) => work.imageFile) ?? featured.items[0];
  const works = featured.items.slice(0, FEATURED);

  return (
    <>
      <JsonLd data={shopNodes({ base: publicBaseUrl(env()).replace(/\/$/, ''), locale, identity: shopIdentity(env()) })} />
      <section className={styles.hero} aria-labelledby="home-title">
        <div className={`container ${styles.heroInner}`}>
          <div className={styles.heroText}>
            <p className="eyebrow">{t('eyebrow')}</p>
            <h1 id="home-title" className={styles.promise}>
              {t('promise')}
            </h1>
            <p className={styles.lead}>{t('lead')}</p>
            {/* A plain GET form to the grid: it works before (and without) JavaScript, and results have an address. */}
            <form className={styles.search} role="search" action={localizedPath(locale, pagePath.artworks())} method="get">
              <label className={styles.searchLabel} htmlFor="home-search">
                {t('searchLabel')}
              </label>
              <div className={styles.searchRow}>
                <input id="home-search" name="q" type="search" placeholder={t('searchPlaceholder')} maxLength={200} autoComplete="off" aria-describedby="home-search-hint" />
                <button type="submit">{t('searchButton')}</button>
              </div>
              <p className={styles.searchHint} id="home-search-hint">
                {t('searchHint')}
              </p>
            </form>
          </div>
          {hung ? (
            <figure className={styles.hung}>
              <Link href={pagePath.artwork(hung.slug)} className={styles.hungLink}>
                <ArtworkImage
                  file={hung.imageFile}
                  alt={catalog('imageAlt', { title: hung.title, artist: hung.artist.name })}
                  ratio={hung.widthCm && hung.heightCm ? hung.widthCm / hung.heightCm : null}
                  sizes="(min-width: 60rem) 26rem, 80vw"
                  maxWidth={960}
                  priority
                  className={styles.hungPicture}
                />
              </Link>
              <figcaption className={styles.hungCaption}>
                <span className={styles.hungTitle}>{hung.title}</span>
                <span>{hung.artist.name}</span>
              </figcaption>
            </figure>
          ) : null}
        </div>
      </section>

      <section id="featured" className={styles.section} aria-labelledby="featured-title">
        <div className="container">
          <header className={browse.sectionHead}>
            <div>
              <h2 id="featured-title">{t('featuredTitle')}</h2>
              <p>{t('featuredLead')}</p>
            </div>
            <Link className={styles.more} href={pagePath.artworks()}>
              {t('allArtworks')}
            </Link>
          </header>
          {works.length === 0 ? (
            <EmptyState title={t('empty')} />
          ) : (
            <div className={styles.featuredGrid}>
              <ArtworkGrid works={works} label={t('featuredTitle')} eager={2} />
            </div>
          )}
        </div>
      </section>

      {[
        { id: 'movements', kind: 'movements' as const, list: movements, title: t('movementsTitle'), lead: t('movementsLead'), more: t('allMovements') },
        { id: 'museums', kind: 'museums' as const, list: museums, title: t('museumsTitle'), lead: t('museumsLead'), more: t('allMuseums') },
      ]
        .filter((row) => row.list.items.length > 0)
        .map((row) => (
          <section key={row.id} id={row.id} className={styles.section} aria-labelledby={`${row.id}-title`}>
            <div className="container">
              <header className={browse.sectionHead}>
                <div>
                  <h2 id={`${row.id}-title`}>{row.title}</h2>
                  <p>{row.lead}</p>
                </div>
                <Link className={styles.more} href={pagePath.taxa(row.kind)}>
                  {row.more}
                </Link>
              </header>
              <TaxonCards items={row.list.items.slice(0, ROW)} label={row.title} />
            </div>
          </section>
        ))}

      <ShowcaseGallery gallery={gallery} locale={locale} allHref={pagePath.showcase()} moreHref={pagePath.custom()} />

      <section className={styles.section} aria-labelledby="custom-title">
        <div className="container">
          <div className={styles.custom}>
            <div className={styles.customCanvas} aria-hidden="true" />
            <div className={styles.customText}>
              <p className="eyebrow">{t('customEyebrow')}</p>
              <h2 id="custom-title">{t('customTitle')}</h2>
              <p>{t('customBody')}</p>
              <ButtonLink variant="primary" href={pagePath.custom()}>
                {t('customCta')}
              </ButtonLink>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
