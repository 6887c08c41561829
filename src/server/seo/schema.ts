import 'server-only';
import { z } from 'zod';

export const SITEMAP_CHUNK = 5000;
export const sitemapTypes = ['pages', 'artworks', 'artists', 'taxa'] as const;
export type SitemapType = (typeof sitemapTypes)[number];

export const SitemapIndex = z
  .object({
    chunkSize: z.int(),
    sitemaps: z.array(
      z.object({
        type: z.enum(sitemapTypes),
        chunk: z.int().describe('From 1'),
        entries: z.int(),
        lastModified: z.iso.datetime().nullable(),
        path: z.string().describe('Where the chunk is served under /v1'),
      }),
    ),
  })
  .meta({ id: 'SitemapIndex' });

export const SitemapChunk = z
  .object({
    type: z.enum(sitemapTypes),
    chunk: z.int(),
    entries: z.array(
      z.object({
        loc: z.string().describe('The English page address'),
        lastModified: z.iso.datetime().nullable(),
        alternates: z.array(z.object({ hreflang: z.string(), href: z.string() })).describe('The page in each of the six catalog languages'),
      }),
    ),
  })
  .meta({ id: 'SitemapChunk' });

export const SitemapChunkQuery = z.object({ type: z.string().max(20), chunk: z.coerce.number<string | number>().int().min(1).max(100_000) });
