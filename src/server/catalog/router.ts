import 'server-only';
import { z } from 'zod';
import { keptForEveryone, publicProcedure, router, type Meta } from '@/server/api/trpc';
import {
  ArtistDetail,
  ArtistPage,
  ArtworkCard,
  ArtworkDetail,
  ArtworkSearchPage,
  ArtworksQuery,
  BySlugsQuery,
  Paged,
  SlugPageQuery,
  SlugQuery,
  Suggestions,
  SuggestionsQuery,
  TaxaQuery,
  TaxonDetail,
  TaxonPage,
  TaxonQuery,
} from './schema';
import { artistDetail, artworkDetail, artworksBySlugs, listArtists, listArtworks, listTaxa, searchSuggestions, taxonDetail } from './service';

/** What every catalog read's description ends with: how it may be cached. */
const PUBLIC_READ = 'Public and the same for every client: answered with an ETag (If-None-Match gives 304), Cache-Control public, max-age=60, and CORS for any origin.';

/** Catalog reads are public and the same for everyone: cacheable by browsers and CDNs. */
const catalog = (path: `/${string}`, summary: string, description: string, errorResponses: Record<number, string> = {}): Meta => ({
  publicCache: true,
  openapi: {
    method: 'GET',
    path,
    tags: ['catalog'],
    protect: false,
    summary,
    description: `${description} ${PUBLIC_READ}`,
    errorResponses: { 400: 'Invalid query', ...errorResponses },
  },
});

export const catalogRouter = router({
  artists: publicProcedure
    .meta(
      catalog(
        '/artists',
        'Published artists, most works first, 48 a page',
        'Every artist with published works, in the asked language; a page past the end is empty and still says the total.',
      ),
    )
    .input(Paged)
    .use(keptForEveryone)
    .output(ArtistPage)
    .query(({ ctx, input }) => listArtists(ctx.db, input.page, input.locale)),

  artist: publicProcedure
    .meta(
      catalog(
        '/artists/{slug}',
        'An artist with their main movements and works (48 a page)',
        'Only published works are listed, best known first; texts in the asked language, English where there is none.',
        { 404: 'No such artist' },
      ),
    )
    .input(SlugPageQuery)
    .use(keptForEveryone)
    .output(ArtistDetail)
    .query(({ ctx, input }) => artistDetail(ctx.db, input.slug, input.page, input.locale)),

  artworks: publicProcedure
    .meta(
      catalog(
        '/artworks',
        'Published artworks, best known first; q searches titles in any language and artist names, and a search that finds fewer than 3 works offers (or shows) the results of the closest title or name',
        'The filters narrow the list and combine with q; the answer names the suggestion it offers or shows instead, so a client can say "did you mean". Titles in the asked language, English where there is none.',
      ),
    )
    .input(ArtworksQuery)
    .use(keptForEveryone)
    .output(ArtworkSearchPage)
    .query(({ ctx, input }) => listArtworks(ctx.db, input)),

  searchSuggestions: publicProcedure
    .meta(
      catalog(
        '/search/suggestions',
        'Up to 8 artworks and artists for what has been typed so far: prefixes and near misses of titles in any language and artist names, labelled in the asked language',
        'Made for a search box that asks on every key: each item names its kind and slug, so a click goes straight to its page.',
      ),
    )
    .input(SuggestionsQuery)
    .use(keptForEveryone)
    .output(Suggestions)
    .query(({ ctx, input }) => searchSuggestions(ctx.db, input.q, input.locale)),

  artworksBySlugs: publicProcedure
    .meta(
      catalog(
        '/artworks/by-slugs',
        'Cards for a list of slugs, in the order given (favorites)',
        'For a list a browser keeps (favorites kept while signed out): only published works are answered, each once; unknown slugs are left out.',
      ),
    )
    .input(BySlugsQuery)
    .use(keptForEveryone)
    .output(z.object({ items: z.array(ArtworkCard) }))
    .query(async ({ ctx, input }) => ({ items: await artworksBySlugs(ctx.db, input.slugs, input.locale) })),

  artwork: publicProcedure
    .meta(
      catalog(
        '/artworks/{slug}',
        'An artwork with its artist, browse pages and related works',
        'A work that is not published is 404. Texts in the asked language, English where there is none; its image is named by its Wikimedia Commons file.',
        { 404: 'No such artwork' },
      ),
    )
    .input(SlugQuery)
    .use(keptForEveryone)
    .output(ArtworkDetail)
    .query(({ ctx, input }) => artworkDetail(ctx.db, input.slug, input.locale)),

  taxa: publicProcedure
    .meta(
      catalog(
        '/taxa/{kind}',
        'Browse pages of one kind (museums, movements, subjects, genres) with at least 3 works',
        'A browse page with fewer published works is not listed (and its page is 404), so no list leads to a near-empty page.',
        { 404: 'Unknown kind' },
      ),
    )
    .input(TaxaQuery)
    .use(keptForEveryone)
    .output(TaxonPage)
    .query(({ ctx, input }) => listTaxa(ctx.db, input.kind, input.page, input.locale)),

  taxon: publicProcedure
    .meta(
      catalog(
        '/taxa/{kind}/{slug}',
        'One browse page with its works (48 a page) and top artists',
        'Its published works, best known first, and the artists with most works on it; a page with fewer than 3 works is 404.',
        { 404: 'No such browse page' },
      ),
    )
    .input(TaxonQuery)
    .use(keptForEveryone)
    .output(TaxonDetail)
    .query(({ ctx, input }) => taxonDetail(ctx.db, input.kind, input.slug, input.page, input.locale)),
});
