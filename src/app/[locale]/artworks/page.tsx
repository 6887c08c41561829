import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { TRPCError } from '@trpc/server';
import styles from '@/components/browse/browse.module.css';
import { artistOptions, cachedFilteredGrid, filterName, taxonOptions, type FilterOption } from '@/components/browse/catalog-lists';
import { EmptyState } from '@/components/browse/empty-state';
import { GridFilters } from '@/components/browse/filters';
import { SearchWayOn } from '@/components/browse/search-way-on';
import { pageParam, param, type SearchParams } from '@/components/browse/params';
import { filterKeys, gridQuery, MAX_SLUG, without, type ActiveFilter, type FilterKey, type GridQuery } from '@/components/browse/query';
import { WorksList } from '@/components/browse/works';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ButtonLink } from '@/components/ui/button';
import { Link, redirect } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { PAGE_SIZE, type ArtworkCard, type ArtworkSearchPage, type Page } from '@/server/catalog/schema';
import { pluralOf, type TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';

// The grid reads its query (search words, filters, page), so it is rendered per request, which is
// what search results are. Filter lists and word-less grids are cached (catalog-lists.ts).
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string }>;
  searchParams: Promise<SearchParams>;
}

/** The filter's browse-page kind, as `catalog.taxa` names it (the filters are named as the database names the kinds). */
const kindOfFilter: Record<Exclude<FilterKey, 'artist'>, TaxonKindPlural> = pluralOf;

const emptyPage = (page: number): Page<ArtworkCard> => ({ items: [], total: 0, page, pageSize: PAGE_SIZE });

/** One `catalog.artworks` call per render, shared by the page and its metadata. */
const readGrid = cache(async (locale: Locale, key: string): Promise<Page<ArtworkCard> & Partial<Pick<ArtworkSearchPage, 'suggestion'>>> => {
  const { page, ...query } = JSON.parse(key) as GridQuery & { page: number };
  if (filterKeys.some((k) => (query[k]?.length ?? 0) > MAX_SLUG)) return emptyPage(page);
  try {
    if (!query.q) return await cachedFilteredGrid(locale, query, page);
    return await serverApi().catalog.artworks({ ...query, page, locale });
  } catch (error) {
    // A malformed filter value is a query that finds nothing, not a broken page.
    if (error instanceof TRPCError && error.code === 'BAD_REQUEST') return emptyPage(page);
    throw error;
  }
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const search = await searchParams;
  const query = gridQuery(search);
  const t = await getTranslations({ locale, namespace: 'Browse' });
  const works = await readGrid(locale, JSON.stringify({ ...query, page: pageParam(search) }));
  const filtered = Object.keys(query).length > 0;
  return pageMetadata({
    locale,
    path: pagePath.artworks(),
    title: query.q ? t('searchTitle', { q: query.q }) : t('title'),
    description: t('description'),
    imageFile: works.items.find((work) => work.imageFile)?.imageFile,
    // Search results and filtered views repeat what the grid and browse pages already offer.
    noindex: filtered || pageParam(search) > 1,
  });
}

export default async function ArtworksPage({ params, searchParams }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const search = await searchParams;
  const query = gridQuery(search);
  const page = pageParam(search);
  // The filter form submitted before its script ran (a slow phone) sends every field, the empty
  // ones too (`?q=rose&artist=&museum=`): the same grid, at its clean address.
  if ((['q', 'page', ...filterKeys] as const).some((key) => key in search && param(search, key) === undefined)) {
    redirect({ href: { pathname: pagePath.artworks(), query: { ...without(query), ...(page > 1 ? { page: String(page) } : {}) } }, locale });
  }

  const [t, works, artists, movements, museums, genres, subjects] = await Promise.all([
    getTranslations('Browse'),
    readGrid(locale, JSON.stringify({ ...query, page })),
    artistOptions(locale),
    // Each list by its own name: the filters' order on the page is not the kinds' order anywhere else.
    taxonOptions(kindOfFilter.movement, locale),
    taxonOptions(kindOfFilter.museum, locale),
    taxonOptions(kindOfFilter.genre, locale),
    taxonOptions(kindOfFilter.subject, locale),
  ]);
  const optionsByKey: Record<FilterKey, FilterOption[]> = { artist: artists, movement: movements, museum: museums, genre: genres, subject: subjects };

  const active: ActiveFilter[] = await Promise.all(
    filterKeys
      .filter((key) => query[key])
      .map(async (key) => {
        const slug = query[key]!;
        const known = optionsByKey[key].find((option) => option.slug === slug)?.name;
        const name = known ?? (slug.length <= MAX_SLUG ? await filterName(key === 'artist' ? 'artists' : kindOfFilter[key], slug, locale) : null);
        return { key, slug, name: name ?? slug };
      }),
  );

  // When a suggestion's results are shown instead, the count is theirs, so it names the suggestion.
  const counted = works.suggestion?.shown ? works.suggestion.q : query.q;
  const summary = counted ? t('resultsFor', { count: works.total, q: counted }) : t('results', { count: works.total });
  const nothing = works.total === 0;

  return (
    <div className="container">
      <header className="page-head">
        <Breadcrumbs
          items={[{ name: t('title'), path: query.q || active.length ? pagePath.artworks() : undefined }, ...(query.q ? [{ name: t('searchCrumb', { q: query.q }) }] : [])]}
        />
        <h1>{query.q ? t('searchHeading', { q: query.q }) : t('title')}</h1>
        {query.q ? null : <p>{t('lead')}</p>}
      </header>

      <GridFilters query={query} options={optionsByKey} active={active} />

      <section className="page-section" aria-labelledby="grid-summary">
        {/* With nothing found the empty state says it (as a status); the count would only repeat it. */}
        <p className={nothing ? 'visually-hidden' : styles.summary} id="grid-summary">
          {summary}
        </p>
        {/* Search that forgives: what a search that found little offers (docs/decisions.md). */}
        {works.suggestion ? (
          <p className={styles.summary} role="status">
            {works.suggestion.shown ? (
              t('showingInstead', { typed: query.q ?? '', q: works.suggestion.q })
            ) : (
              <Link href={{ pathname: pagePath.artworks(), query: { ...without(query, 'q'), q: works.suggestion.q } }}>{t('didYouMean', { q: works.suggestion.q })}</Link>
            )}
          </p>
        ) : null}
        {nothing ? (
          <>
            <EmptyState title={query.q ? t('emptySearchTitle', { q: query.q }) : t('emptyTitle')} body={active.length ? t('emptyFiltersBody') : t('emptySearchBody')}>
              {active.length && query.q ? (
                <>
                  <ButtonLink variant="primary" href={{ pathname: pagePath.artworks(), query: without(query, ...filterKeys) }}>
                    {t('searchEverywhere', { q: query.q })}
                  </ButtonLink>
                  <ButtonLink href={{ pathname: pagePath.artworks(), query: without(query, 'q') }}>{t('clearSearch')}</ButtonLink>
                </>
              ) : active.length ? (
                <ButtonLink variant="primary" href={pagePath.artworks()}>
                  {t('clearFilters')}
                </ButtonLink>
              ) : (
                // A search that found nothing goes on below (SearchWayOn), whose custom painting is the one primary action.
                <ButtonLink variant={query.q ? 'secondary' : 'primary'} href={pagePath.artworks()}>
                  {t('seeAll')}
                </ButtonLink>
              )}
              <ButtonLink variant="quiet" href={pagePath.artists()}>
                {t('browseArtists')}
              </ButtonLink>
            </EmptyState>
            {query.q && !active.length ? <SearchWayOn q={query.q} locale={locale} /> : null}
          </>
        ) : (
          <WorksList works={works} path={pagePath.artworks()} query={query} label={summary} />
        )}
      </section>
    </div>
  );
}
