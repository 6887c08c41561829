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

/** Catalog reads are public and the same for everyone: cacheable by browsers and CDNs. */
const catalog = (path: `/${string}`, summary: string, errorResponses: Record<number, string> = {}): Meta => ({
  publicCache: true,
  openapi: { method: 'GET', path, tags: ['catalog'], protect: false, summary, errorResponses: { 400: 'Invalid query', ...errorResponses } },
});

export const catalogRouter = router({
  artists: publicProcedure
    .meta(catalog('/artists', 'Published artists, most works first, 48 a page'))
    .input(Paged)
    .use(keptForEveryone)
    .output(ArtistPage)
    .query(({ ctx, input }) => listArtists(ctx.db, input.page, input.locale)),

  artist: publicProcedure
    .meta(catalog('/artists/{slug}', 'An artist with their main movements and works (48 a page)', { 404: 'No such artist' }))
    .input(SlugPageQuery)
    .use(keptForEveryone)
    .output(ArtistDetail)
    .query(({ ctx, input }) => artistDetail(ctx.db, input.slug, input.page, input.locale)),

  artworks: publicProcedure
    .meta(
      catalog(
        '/artworks',
        'Published artworks, best known first; q searches titles in any language and artist names, and a search that finds fewer than 3 works offers (or shows) the results of the closest title or name',
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
      ),
    )
    .input(SuggestionsQuery)
    .use(keptForEveryone)
    .output(Suggestions)
    .query(({ ctx, input }) => searchSuggestions(ctx.db, input.q, input.locale)),

  artworksBySlugs: publicProcedure
    .meta(catalog('/artworks/by-slugs', 'Cards for a list of slugs, in the order given (favorites)'))
    .input(BySlugsQuery)
    .use(keptForEveryone)
    .output(z.object({ items: z.array(ArtworkCard) }))
    .query(async ({ ctx, input }) => ({ items: await artworksBySlugs(ctx.db, input.slugs, input.locale) })),

  artwork: publicProcedure
    .meta(catalog('/artworks/{slug}', 'An artwork with its artist, browse pages and related works', { 404: 'No such artwork' }))
    .input(SlugQuery)
    .use(keptForEveryone)
    .output(ArtworkDetail)
    .query(({ ctx, input }) => artworkDetail(ctx.db, input.slug, input.locale)),

  taxa: publicProcedure
    .meta(catalog('/taxa/{kind}', 'Browse pages of one kind (museums, movements, subjects, genres) with at least 3 works', { 404: 'Unknown kind' }))
    .input(TaxaQuery)
    .use(keptForEveryone)
    .output(TaxonPage)
    .query(({ ctx, input }) => listTaxa(ctx.db, input.kind, input.page, input.locale)),

  taxon: publicProcedure
    .meta(catalog('/taxa/{kind}/{slug}', 'One browse page with its works (48 a page) and top artists', { 404: 'No such browse page' }))
    .input(TaxonQuery)
    .use(keptForEveryone)
    .output(TaxonDetail)
    .query(({ ctx, input }) => taxonDetail(ctx.db, input.kind, input.slug, input.page, input.locale)),
});
