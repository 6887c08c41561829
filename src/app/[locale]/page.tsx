import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { alternatesFor, routing } from '@/i18n/routing';
import type { ArtworkCard as Card } from '@/server/catalog/schema';
import { listArtworks } from '@/server/catalog/service';
import { db } from '@/server/db/client';
import { reproductionPrices } from '@/server/orders/pricing';
import type { Locale } from '@/server/shared/locales';

// Reads the catalog at request time (`next build` runs without a database).
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Metadata' });
  return { title: { absolute: t('title') }, alternates: alternatesFor(locale, '/') };
}

/** Integer cents → the locale's way of writing US dollars (`$129`, `129 $`, `129 $US`). */
function formatUsd(cents: number, locale: Locale): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/** The cheapest way to own a reproduction: the smallest size, rolled. */
const fromCents = Math.min(...Object.values(reproductionPrices).map((bySize) => bySize.rolled));

export default async function HomePage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);

  // The same catalog read as GET /v1/artworks?featured=1: published featured works, best known first.
  const [t, { items: works }] = await Promise.all([getTranslations('Home'), listArtworks(db(), { featured: '1', page: 1, locale })]);
  const price = t('fromPrice', { price: formatUsd(fromCents, locale) });

  return (
    <>
      <section className="hero">
        <div className="container hero__inner">
          <p className="eyebrow">{t('eyebrow')}</p>
          <h1 className="hero__promise">{t('promise')}</h1>
          <p className="hero__lead">{t('lead')}</p>
          <a className="button" href="#featured">
            {t('cta')}
          </a>
        </div>
      </section>

      <section id="featured" className="featured" aria-labelledby="featured-title">
        <div className="container">
          <header className="section-header">
            <h2 id="featured-title">{t('featuredTitle')}</h2>
            <p>{t('featuredLead')}</p>
          </header>
          {works.length === 0 ? (
            <p className="empty">{t('empty')}</p>
          ) : (
            <ul className="artwork-grid">
              {works.map((work) => (
                <ArtworkCard
                  key={work.slug}
                  work={work}
                  alt={t('imageAlt', { title: work.title, artist: work.artist.name })}
                  price={price}
                />
              ))}
            </ul>
          )}
        </div>
      </section>
    </>
  );
}

function ArtworkCard({ work, alt, price }: { work: Card; alt: string; price: string }) {
  return (
    <li className="artwork-card" data-slug={work.slug}>
      {/* The frame keeps its shape and paper colour whether the Commons image loads or not. */}
      <div className="artwork-card__frame">
        {work.imageUrl ? (
          // A plain <img>: Commons serves its own thumbnails, nothing to optimise here.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={`${work.imageUrl}?width=600`} alt={alt} width={600} height={750} loading="lazy" decoding="async" />
        ) : null}
      </div>
      <div className="artwork-card__caption">
        <h3 className="artwork-card__title">{work.title}</h3>
        <p className="artwork-card__artist">
          {work.artist.name}
          {work.year != null ? <span className="artwork-card__year">{work.year}</span> : null}
        </p>
        <p className="artwork-card__price">{price}</p>
      </div>
    </li>
  );
}
