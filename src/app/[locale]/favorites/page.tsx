import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { FavoritesList } from '@/components/favorites/favorites-list';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { pagePath } from '@/shared/paths';

/*
 * The page itself is the same for everyone (heading and text), so it is rendered once and served
 * from cache; the favorites, which only the browser knows (its own list, or the session's), are
 * read there. Nothing personal is ever in the cached HTML.
 */
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Favorites' });
  // A personal page: kept out of search engines.
  return pageMetadata({ locale, path: pagePath.favorites(), title: t('metaTitle'), description: t('metaDescription'), noindex: true });
}

export default async function FavoritesPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('Favorites');

  return (
    <div className="container">
      <div className="page-head">
        <Breadcrumbs items={[{ name: t('eyebrow') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <section className="page-section" aria-labelledby="favorites-list-label">
        <h2 id="favorites-list-label" className="visually-hidden">
          {t('listLabel')}
        </h2>
        <ClientMessages page="favorites">
          <FavoritesList />
        </ClientMessages>
      </section>
    </div>
  );
}
