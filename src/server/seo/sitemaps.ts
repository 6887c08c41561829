import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { BROWSE_PAGE_MIN_WORKS } from '@/server/catalog/counts';
import { readRows, type Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import { pluralOf } from '@/shared/catalog';
import { alternatesUnder, pagePath, pageUrl, staticPaths } from '@/shared/paths';
import { SITEMAP_CHUNK, sitemapTypes, type SitemapType } from './schema';

/** What each sitemap type lists: published rows only, browse pages only from 3 works. */
const sources: Record<Exclude<SitemapType, 'pages'>, { from: Prisma.Sql; path: (row: { slug: string; kind?: keyof typeof pluralOf }) => string }> = {
  artworks: { from: Prisma.sql`artworks WHERE status = 'published'`, path: (row) => pagePath.artwork(row.slug) },
  artists: { from: Prisma.sql`artists WHERE status = 'published' AND artwork_count > 0`, path: (row) => pagePath.artist(row.slug) },
  taxa: { from: Prisma.sql`taxa WHERE artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`, path: (row) => pagePath.taxon(pluralOf[row.kind!], row.slug) },
};

export async function sitemapIndex(db: Db) {
  // Artworks are counted from the artists' stored counts and dated by the last publish: both read
  // an index or a few thousand rows, not the whole catalog, on every request.
  const counts = await readRows<{ type: string; n: bigint; modified: Date | null }>(
    db,
    Prisma.sql`
    SELECT 'artworks' AS type, (SELECT COALESCE(sum(artwork_count), 0) FROM ${sources.artists.from})::bigint AS n,
           (SELECT max(published_at) FROM ${sources.artworks.from}) AS modified
    UNION ALL SELECT 'artists', count(*), max(updated_at) FROM ${sources.artists.from}
    UNION ALL SELECT 'taxa', count(*), max(updated_at) FROM ${sources.taxa.from}`,
  );
  const newest = counts.reduce<Date | null>((latest, row) => (row.modified && (!latest || row.modified > latest) ? row.modified : latest), null);
  const sitemaps: { type: SitemapType; chunk: number; entries: number; modified: Date | null }[] = [{ type: 'pages', chunk: 1, entries: staticPaths.length, modified: newest }];
  for (const row of counts) {
    const total = Number(row.n);
    for (let chunk = 1; (chunk - 1) * SITEMAP_CHUNK < total; chunk++) {
      sitemaps.push({ type: row.type as SitemapType, chunk, entries: Math.min(SITEMAP_CHUNK, total - (chunk - 1) * SITEMAP_CHUNK), modified: row.modified });
    }
  }
  return {
    chunkSize: SITEMAP_CHUNK,
    sitemaps: sitemaps.map(({ modified, ...s }) => ({ ...s, lastModified: modified?.toISOString() ?? null, path: `/v1/seo/sitemaps/${s.type}/${s.chunk}` })),
  };
}

export async function sitemapChunk(db: Db, baseUrl: string, type: string, chunk: number) {
  if (!(sitemapTypes as readonly string[]).includes(type)) throw notFound(`There is no sitemap of the type "${type}"; the types are ${sitemapTypes.join(', ')}.`);
  const home = pageUrl(baseUrl, 'en', '');
  const alternatesOf = alternatesUnder(baseUrl);
  const entry = (path: string, modified: Date | null) => ({
    loc: home + path,
    lastModified: modified?.toISOString() ?? null,
    alternates: alternatesOf(path),
  });
  let entries: ReturnType<typeof entry>[];
  if (type === 'pages') {
    const [{ modified } = { modified: null }] = await readRows<{ modified: Date | null }>(
      db,
      Prisma.sql`SELECT max(published_at) AS modified FROM artworks WHERE status = 'published'`,
    );
    entries = chunk === 1 ? staticPaths.map((path) => entry(path, modified)) : [];
  } else {
    const source = sources[type as Exclude<SitemapType, 'pages'>];
    const kindColumn = type === 'taxa' ? Prisma.sql`kind::text AS kind,` : Prisma.empty;
    const rows = await readRows<{ slug: string; kind?: keyof typeof pluralOf; modified: Date }>(
      db,
      Prisma.sql`
      SELECT slug, ${kindColumn} updated_at AS modified FROM ${source.from}
       ORDER BY id LIMIT ${SITEMAP_CHUNK} OFFSET ${(chunk - 1) * SITEMAP_CHUNK}`,
    );
    entries = rows.map((row) => entry(source.path(row), row.modified));
  }
  if (!entries.length) throw notFound(`The ${type} sitemap has no chunk ${chunk}.`);
  return { type: type as SitemapType, chunk, entries };
}
