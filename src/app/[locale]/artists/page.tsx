import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { ArtistCards } from '@/components/browse/cards';
import { cachedArtists } from '@/components/browse/catalog-lists';
import { EmptyState } from '@/components/browse/empty-state';
import { pageParam, type SearchParams } from '@/components/browse/params';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ButtonLink } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';

// The page reads `?page=`, so it is rendered per request; its catalog reads are cached for five
// minutes (src/components/browse/catalog-lists.ts), as long as a cached page would live.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string }>;
  searchParams: Promise<SearchParams>;
}

/** One `catalog.artists` call per render, shared by the page and its metadata. */
const readArtists = cache((locale: Locale, page: number) => cachedArtists(locale, page));

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const page = pageParam(await searchParams);
  const [t, artists] = await Promise.all([getTranslations({ locale, namespace: 'Artists' }), readArtists(locale, page)]);
  return pageMetadata({
    locale,
    path: pagePath.artists(),
    title: page > 1 ? t('titlePage', { page }) : t('title'),
    description: t('description'),
    imageFile: artists.items.find((artist) => artist.imageFile)?.imageFile,
  });
}

export default async function ArtistsPage({ params, searchParams }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const page = pageParam(await searchParams);
  const [t, browse, artists] = await Promise.all([getTranslations('Artists'), getTranslations('Browse'), readArtists(locale, page)]);

  return (
    <div className="container">
      <header className="page-head">
        <Breadcrumbs items={[{ name: t('title') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead', { count: artists.total })}</p>
      </header>
      <section className="page-section" aria-label={t('title')}>
        {artists.items.length ? (
          <>
            <ArtistCards items={artists.items} eager={4} />
            <Pagination path={pagePath.artists()} page={artists.page} total={artists.total} pageSize={artists.pageSize} />
          </>
        ) : artists.total > 0 ? (
          <EmptyState title={browse('pastEndTitle')} body={browse('pastEndBody')}>
            <ButtonLink variant="primary" href={pagePath.artists()}>
              {browse('firstPage')}
            </ButtonLink>
          </EmptyState>
        ) : (
          <EmptyState title={t('emptyTitle')} body={t('emptyBody')} />
        )}
      </section>
    </div>
  );
}
