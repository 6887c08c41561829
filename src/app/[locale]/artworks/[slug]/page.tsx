import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { cache } from 'react';
import { ArtworkGrid } from '@/components/artwork/artwork-card';
import { FavoriteButton } from '@/components/favorites/favorite-button';
import { JsonLd } from '@/components/json-ld';
import { WhatYouReceive } from '@/components/order/what-you-receive';
import { TaxonName } from '@/components/browse/taxon-name';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { buttonClass } from '@/components/ui/button';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { Link } from '@/i18n/navigation';
import { localizedPath, routing } from '@/i18n/routing';
import { formatSize, formatSizeInches, formatUsd } from '@/lib/format';
import { formatWorkDate } from '@/lib/work-date';
import { imageSrc } from '@/shared/images';
import { pageMetadata } from '@/lib/seo';
import { reproductionOffer } from '@/lib/structured-data';
import type { TaxonRef } from '@/server/catalog/schema';
import { env, publicBaseUrl } from '@/server/env';
import { configuredPaymentMode } from '@/server/orders/payment';
import { shopIdentity } from '@/server/shop/identity';
import { canvasOf, orientationOf } from '@/shared/canvas';
import type { TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { cheapestReproduction } from '@/shared/prices';
import { serverApi } from '@/trpc/server';
import { ArtworkOrder } from './_components/artwork-order';
import { ImageSource } from './_components/image-source';
import { ZoomableImage } from './_components/zoomable-image';
import styles from './_components/artwork-page.module.css';

// Rendered on first visit, then served from cache; a publish run changes it at most daily.
export const revalidate = 300;

/** None at build time (the build has no database); each artwork is rendered on first visit, then cached. */
export function generateStaticParams() {
  return [];
}

interface Props {
  params: Promise<{ locale: string; slug: string }>;
}

/**
 * The artwork and the price table, once per render (metadata and page share it). An unknown or
 * malformed slug is the localized 404.
 */
const load = cache(async (slug: string, locale: Locale) => {
  try {
    const [detail, prices] = await Promise.all([serverApi().catalog.artwork({ slug, locale }), serverApi().orders.pricing({})]);
    return { ...detail, prices };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) return null;
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale, slug } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const data = await load(slug, locale);
  if (!data) return {};
  const t = await getTranslations({ locale, namespace: 'Artwork' });
  const { artwork } = data;
  const vars = { title: artwork.title, artist: artwork.artist.name };
  return pageMetadata({
    locale,
    path: pagePath.artwork(artwork.slug),
    title: t('metaTitle', vars),
    description: t('metaDescription', { ...vars, price: formatUsd(cheapestReproduction(data.prices).cents, locale) }),
    imageFile: artwork.imageFile,
  });
}

/**
 * The browse pages named among the facts, in this order: a movement the painting has from its
 * painter's statements (not its own) has a row of its own, saying so.
 */
const factRows = [
  { kind: 'museums', label: 'museum', viaPainter: false },
  { kind: 'movements', label: 'movement', viaPainter: false },
  { kind: 'movements', label: 'movementOfPainter', viaPainter: true },
  { kind: 'genres', label: 'genre', viaPainter: false },
] as const satisfies { kind: Exclude<TaxonKindPlural, 'subjects'>; label: string; viaPainter: boolean }[];

export default async function ArtworkPage({ params }: Props) {
  const { locale, slug } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const data = await load(slug, locale);
  if (!data) notFound();
  const { artwork, related, prices } = data;
  const [t, nav, catalog, delivery] = await Promise.all([
    getTranslations('Artwork'),
    getTranslations('Nav'),
    getTranslations('Catalog'),
    getTranslations('OrderForm.delivery'),
  ]);

  const alt = catalog('imageAlt', { title: artwork.title, artist: artwork.artist.name });
  const ratio = artwork.widthCm && artwork.heightCm ? artwork.widthCm / artwork.heightCm : null;
  const cheapest = cheapestReproduction(prices);
  const cheapestCanvas = canvasOf(cheapest.size, orientationOf(artwork.widthCm, artwork.heightCm));
  const cheapestInches = formatSizeInches(cheapestCanvas.widthCm, cheapestCanvas.heightCm, locale);
  const byKind = (kind: TaxonKindPlural): TaxonRef[] => artwork.taxa.filter((taxon) => taxon.kind === kind);
  const subjects = byKind('subjects');
  // 1650, c. 1650, the 1650s, the 17th century: as exactly as the date is known.
  const date = formatWorkDate(catalog, artwork.year, artwork.yearPrecision);

  const base = publicBaseUrl(env()).replace(/\/$/, '');
  const url = `${base}${localizedPath(locale, pagePath.artwork(artwork.slug))}`;
  const image = artwork.imageFile ? `${base}${imageSrc(artwork.imageFile, 1280)}` : undefined;
  const shop = shopIdentity(env()).name;
  const cm = (value: number) => ({ '@type': 'QuantitativeValue', value, unitCode: 'CMT' });
  const structured = [
    {
      '@context': 'https://schema.org',
      '@type': 'VisualArtwork',
      name: artwork.title,
      url,
      ...(image ? { image } : {}),
      creator: { '@type': 'Person', name: artwork.artist.name, url: `${base}${localizedPath(locale, pagePath.artist(artwork.artist.slug))}` },
      // schema.org's dateCreated is a date: only a year known to the year is one.
      ...(artwork.year != null && artwork.yearPrecision === 'year' ? { dateCreated: String(artwork.year) } : {}),
      ...(artwork.widthCm ? { width: cm(artwork.widthCm) } : {}),
      ...(artwork.heightCm ? { height: cm(artwork.heightCm) } : {}),
      ...(artwork.story ? { description: artwork.story } : {}),
      inLanguage: locale,
    },
    {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: t('productName', { title: artwork.title }),
      url,
      ...(image ? { image } : {}),
      description: t('metaDescription', { title: artwork.title, artist: artwork.artist.name, price: formatUsd(cheapest.cents, locale) }),
      brand: { '@type': 'Brand', name: shop },
      offers: reproductionOffer({ url, base, locale, shop, table: prices }),
    },
  ];

  return (
    <ClientMessages page="artwork">
      <div className={`container ${styles.page}`}>
        <JsonLd data={structured} />
        <Breadcrumbs
          items={[{ name: nav('artworks'), path: pagePath.artworks() }, { name: artwork.artist.name, path: pagePath.artist(artwork.artist.slug) }, { name: artwork.title }]}
        />

        <article className={styles.article}>
          <section className={styles.hero}>
            <div className={styles.figure}>
              <ZoomableImage file={artwork.imageFile} title={artwork.title} alt={alt} ratio={ratio} />
              {artwork.imageFile ? <ImageSource file={artwork.imageFile} title={artwork.title} locale={locale} /> : null}
            </div>

            <div className={styles.intro}>
              <p className="eyebrow">{t('eyebrow')}</p>
              <h1 className={styles.title}>{artwork.title}</h1>
              <p className={styles.byline}>
                {t.rich('byArtist', {
                  name: artwork.artist.name,
                  artist: (chunks) => <Link href={pagePath.artist(artwork.artist.slug)}>{chunks}</Link>,
                })}
                {date ? <span className={styles.year}>{date}</span> : null}
              </p>
              <div className={styles.price}>
                <p className={styles.from}>
                  {t('fromPrice', {
                    price: formatUsd(cheapest.cents, locale),
                    size: formatSize(cheapestCanvas.widthCm, cheapestCanvas.heightCm, locale) + (cheapestInches ? ` (${cheapestInches})` : ''),
                  })}
                </p>
                <p className={styles.priceTerms}>{delivery('included')}</p>
              </div>
              <div className={styles.actions}>
                <a className={buttonClass('primary')} href="#order">
                  {t('orderCta')}
                </a>
                <FavoriteButton slug={artwork.slug} title={artwork.title} />
              </div>

              {artwork.story ? (
                <section className={styles.story} aria-labelledby="story-title">
                  <h2 id="story-title" className={styles.subheading}>
                    {t('storyHeading')}
                  </h2>
                  {artwork.story
                    .split(/\n{2,}/)
                    .filter(Boolean)
                    .map((paragraph, i) => (
                      <p key={i}>{paragraph}</p>
                    ))}
                </section>
              ) : null}

              <section className={styles.factsSection} aria-labelledby="facts-title">
                <h2 id="facts-title" className={styles.subheading}>
                  {t('factsHeading')}
                </h2>
                <dl className={styles.facts}>
                  <div>
                    <dt>{t('facts.artist')}</dt>
                    <dd>
                      <Link href={pagePath.artist(artwork.artist.slug)}>{artwork.artist.name}</Link>
                    </dd>
                  </div>
                  {date ? (
                    <div>
                      <dt>{t('facts.year')}</dt>
                      <dd>{date}</dd>
                    </div>
                  ) : null}
                  {artwork.widthCm && artwork.heightCm ? (
                    <div>
                      <dt>{t('facts.size')}</dt>
                      <dd>{formatSize(artwork.widthCm, artwork.heightCm, locale)}</dd>
                    </div>
                  ) : null}
                  {factRows.map(({ kind, label, viaPainter }) => {
                    const taxa = artwork.taxa.filter((taxon) => taxon.kind === kind && taxon.viaPainter === viaPainter);
                    return taxa.length ? (
                      <div key={label}>
                        <dt>{t(`facts.${label}`)}</dt>
                        <dd>
                          {taxa.map((taxon, i) => (
                            <span key={taxon.slug}>
                              {i > 0 ? ', ' : null}
                              <TaxonName kind={kind} taxon={taxon} />
                            </span>
                          ))}
                        </dd>
                      </div>
                    ) : null;
                  })}
                  {subjects.length ? (
                    <div className={styles.subjectsFact}>
                      <dt>{t('facts.subjects')}</dt>
                      <dd>
                        <ul className={styles.chips}>
                          {subjects.map((taxon) => (
                            <li key={taxon.slug}>
                              <TaxonName kind="subjects" taxon={taxon} className={styles.chip} textClassName={styles.chipText} />
                            </li>
                          ))}
                        </ul>
                      </dd>
                    </div>
                  ) : null}
                </dl>
              </section>
            </div>
          </section>

          <section id="order" className={styles.orderSection} aria-labelledby="order-title">
            <header className={styles.sectionHead}>
              <h2 id="order-title" className={styles.sectionTitle}>
                {t('orderHeading')}
              </h2>
              <p className={styles.sectionLead}>{t('orderLead')}</p>
            </header>
            <ArtworkOrder
              slug={artwork.slug}
              imageSrc={artwork.imageFile ? imageSrc(artwork.imageFile, 500) : '/favicon.svg'}
              alt={alt}
              ratio={ratio}
              initialPrices={prices}
              paymentMode={configuredPaymentMode()}
            />
          </section>

          <WhatYouReceive locale={locale} kind="reproduction" />

          {related.length ? (
            <section className={styles.related} aria-labelledby="related-title">
              <h2 id="related-title" className={styles.sectionTitle}>
                {t('relatedHeading')}
              </h2>
              <ArtworkGrid works={related} eager={0} label={t('relatedLabel')} />
            </section>
          ) : null}
        </article>
      </div>
    </ClientMessages>
  );
}
