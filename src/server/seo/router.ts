import 'server-only';
import { z } from 'zod';
import { keptForEveryone, publicProcedure, router } from '@/server/api/trpc';
import { env, publicBaseUrl } from '@/server/env';
import { SitemapChunk, SitemapChunkQuery, SitemapIndex } from './schema';
import { sitemapChunk, sitemapIndex } from './sitemaps';

export const seoRouter = router({
  sitemaps: publicProcedure
    .meta({
      publicCache: true,
      openapi: {
        method: 'GET',
        path: '/seo/sitemaps',
        tags: ['seo'],
        protect: false,
        summary: 'Sitemap data index: chunks of at most 5,000 pages per type',
        description: 'For a crawler or a static-site builder: each type of page and how many chunks of it there are, to read with GET /seo/sitemaps/{type}/{chunk}.',
      },
    })
    .input(z.object({}))
    .use(keptForEveryone)
    .output(SitemapIndex)
    .query(({ ctx }) => sitemapIndex(ctx.db)),

  sitemapChunk: publicProcedure
    .meta({
      publicCache: true,
      openapi: {
        method: 'GET',
        path: '/seo/sitemaps/{type}/{chunk}',
        tags: ['seo'],
        protect: false,
        summary: 'One chunk of sitemap data: page addresses with their six language alternates and last-modified times',
        description: 'Public and cacheable like the catalog reads; a chunk number past the last is 404.',
        errorResponses: { 400: 'Invalid chunk number', 404: 'Unknown type or chunk' },
      },
    })
    .input(SitemapChunkQuery)
    .use(keptForEveryone)
    .output(SitemapChunk)
    .query(({ ctx, input }) => sitemapChunk(ctx.db, publicBaseUrl(env()), input.type, input.chunk)),
});
