import { unstable_cache } from 'next/cache';
import { TRPCError } from '@trpc/server';
import type { TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import { serverApi } from '@/trpc/server';

/** How long the lists behind the filter controls are kept: the same five minutes as catalog pages. */
const LIST_SECONDS = 300;

export interface FilterOption {
  slug: string;
  name: string;
  count: number;
}

/**
 * The options of one filter: the browse pages of a kind with the most works (the first page of
 * `catalog.taxa`, best known first). Search pages are dynamic, so these lists are cached apart
 * from the page: a search costs one procedure call for the grid, not six.
 */
export const taxonOptions = unstable_cache(
  async (kind: TaxonKindPlural, locale: Locale): Promise<FilterOption[]> => {
    const list = await serverApi().catalog.taxa({ kind, locale, page: 1 });
    return list.items.map((t) => ({ slug: t.slug, name: t.name, count: t.artworkCount }));
  },
  ['browse-taxon-options'],
  { revalidate: LIST_SECONDS },
);

/** The artists with the most works, for the artist filter. */
export const artistOptions = unstable_cache(
  async (locale: Locale): Promise<FilterOption[]> => {
    const list = await serverApi().catalog.artists({ locale, page: 1 });
    return list.items.map((a) => ({ slug: a.slug, name: a.name, count: a.artworkCount }));
  },
  ['browse-artist-options'],
  { revalidate: LIST_SECONDS },
);

const isNotFound = (error: unknown) => error instanceof TRPCError && error.code === 'NOT_FOUND';

/**
 * The name of a filter value that is not among the options (a smaller museum, a lesser-known
 * artist, reached from its page's link). `null` when the slug names nothing: the grid then shows
 * a calm empty result, never an error.
 */
export const filterName = unstable_cache(
  async (kind: TaxonKindPlural | 'artists', slug: string, locale: Locale): Promise<string | null> => {
    try {
      if (kind === 'artists') return (await serverApi().catalog.artist({ slug, locale, page: 1 })).artist.name;
      return (await serverApi().catalog.taxon({ kind, slug, locale, page: 1 })).taxon.name;
    } catch (error) {
      if (isNotFound(error) || (error instanceof TRPCError && error.code === 'BAD_REQUEST')) return null;
      throw error;
    }
  },
  ['browse-filter-name'],
  { revalidate: LIST_SECONDS },
);

/*
 * Pages that take `?page=` read the query, so Next renders them per request (a page rendered once
 * for the cache cannot read it). Their catalog reads are cached here instead, for the same five
 * minutes a cached page would live: a request costs a render, not a database round trip.
 */

const missing = (error: unknown) => error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST');

export const cachedArtists = unstable_cache((locale: Locale, page: number) => serverApi().catalog.artists({ locale, page }), ['browse-artists'], { revalidate: LIST_SECONDS });

/** An artist with a page of works; `null` when the catalog does not publish that slug. */
export const cachedArtist = unstable_cache(
  async (locale: Locale, slug: string, page: number) => {
    try {
      return await serverApi().catalog.artist({ locale, slug, page });
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  },
  ['browse-artist'],
  { revalidate: LIST_SECONDS },
);

export const cachedTaxa = unstable_cache((locale: Locale, kind: TaxonKindPlural, page: number) => serverApi().catalog.taxa({ locale, kind, page }), ['browse-taxa'], {
  revalidate: LIST_SECONDS,
});

/** A browse page with a page of works; `null` when the catalog does not show it. */
export const cachedTaxon = unstable_cache(
  async (locale: Locale, kind: TaxonKindPlural, slug: string, page: number) => {
    try {
      return await serverApi().catalog.taxon({ locale, kind, slug, page });
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  },
  ['browse-taxon'],
  { revalidate: LIST_SECONDS },
);

/**
 * A page of the grid filtered without search words (a handful of filters × pages: a bounded set
 * worth caching). Searches with words are read fresh: their variety would only fill the cache.
 */
export const cachedFilteredGrid = unstable_cache(
  (locale: Locale, query: Partial<Record<'artist' | 'movement' | 'museum' | 'genre' | 'subject', string>>, page: number) =>
    serverApi().catalog.artworks({ ...query, locale, page }),
  ['browse-grid'],
  { revalidate: LIST_SECONDS },
);
