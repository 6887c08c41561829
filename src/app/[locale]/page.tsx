import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { alternatesFor, routing } from '@/i18n/routing';
import { reproductionPrices } from '@/server/orders/pricing';
import type { Locale } from '@/server/shared/locales';
import { commonsImageUrl, featuredArtworks, type FeaturedArtwork } from './_data/featured';

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

  const [t, works] = await Promise.all([getTranslations('Home'), featuredArtworks(locale)]);
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
                  title={work.title ?? t('untitled')}
                  alt={t('imageAlt', { title: work.title ?? t('untitled'), artist: work.artist })}
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

function ArtworkCard({ work, title, alt, price }: { work: FeaturedArtwork; title: string; alt: string; price: string }) {
  return (
    <li className="artwork-card" data-slug={work.slug}>
      {/* The frame keeps its shape and paper colour whether the Commons image loads or not. */}
      <div className="artwork-card__frame">
        {work.imageFile ? (
          // A plain <img>: Commons serves its own thumbnails, nothing to optimise here.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={commonsImageUrl(work.imageFile)} alt={alt} width={600} height={750} loading="lazy" decoding="async" />
        ) : null}
      </div>
      <div className="artwork-card__caption">
        <h3 className="artwork-card__title">{title}</h3>
        <p className="artwork-card__artist">
          {work.artist}
          {work.year != null ? <span className="artwork-card__year">{work.year}</span> : null}
        </p>
        <p className="artwork-card__price">{price}</p>
      </div>
    </li>
  );
}
