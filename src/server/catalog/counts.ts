import 'server-only';
import type { Db, Tx } from '@/server/db/client';

/** A browse page exists from this many published works (interface.md §8). */
export const BROWSE_PAGE_MIN_WORKS = 3;
/** How many artists a browse page names as its top artists. */
export const TOP_ARTISTS = 8;

/**
 * Recounts the published works of every artist and browse page, their cover (the image of
 * their best-known published work), each browse page's top artists, each search word's
 * best-known work, and stores the grid's order and the order of each browse page whose works
 * changed. Lists, browse pages, suggestions and the grid's deep pages read these stored values,
 * so they must follow every publish and every data fix. Answers how many rows changed.
 */
export async function recountCatalog(db: Db | Tx): Promise<{ artists: number; taxa: number }> {
  const artists = await db.$executeRaw`
    UPDATE artists a SET artwork_count = c.n, cover_image = c.cover
    FROM (SELECT ar.id, count(w.id)::int AS n,
                 (array_agg(w.image_file ORDER BY w.popularity DESC, w.id) FILTER (WHERE w.image_file IS NOT NULL))[1] AS cover
            FROM artists ar
            LEFT JOIN artworks w ON w.artist_id = ar.id AND w.status = 'published'
           GROUP BY ar.id) c
    WHERE a.id = c.id AND (a.artwork_count IS DISTINCT FROM c.n OR a.cover_image IS DISTINCT FROM c.cover)`;
  // Every link counts, a movement the painting has from its painter's statements (via_painter)
  // too: P135 is on about 3 % of paintings, so without them a movement's browse page would lose
  // nearly all of its painters' works; the artwork page says whose movement it is
  // (docs/pipeline.md, "Data a visitor trusts").
  const taxa = await db.$executeRaw`
    UPDATE taxa t SET artwork_count = c.n, cover_image = c.cover
    FROM (SELECT tx.id, count(w.id)::int AS n,
                 (array_agg(w.image_file ORDER BY w.popularity DESC, w.id) FILTER (WHERE w.image_file IS NOT NULL))[1] AS cover
            FROM taxa tx
            LEFT JOIN artwork_taxa l ON l.taxon_id = tx.id
            LEFT JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published'
           GROUP BY tx.id) c
    WHERE t.id = c.id AND (t.artwork_count IS DISTINCT FROM c.n OR t.cover_image IS DISTINCT FROM c.cover)`;
  await db.$executeRaw`
    UPDATE taxa t SET top_artists = COALESCE(c.top, '[]')
    FROM taxa tx LEFT JOIN (
      SELECT taxon_id, jsonb_agg(jsonb_build_object('id', artist_id, 'n', n) ORDER BY n DESC, artist_id) AS top
        FROM (SELECT l.taxon_id, w.artist_id, count(*)::int AS n,
                     row_number() OVER (PARTITION BY l.taxon_id ORDER BY count(*) DESC, w.artist_id) AS rank
                FROM artwork_taxa l JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published'
               GROUP BY l.taxon_id, w.artist_id) ranked
       WHERE rank <= ${TOP_ARTISTS}
       GROUP BY taxon_id) c ON c.taxon_id = tx.id
    WHERE t.id = tx.id AND t.top_artists IS DISTINCT FROM COALESCE(c.top, '[]')`;
  // The triggers only ever raise a word's best (migration 20261125070000_search_term_best); here
  // it comes down again for a word whose best-known work was unpublished or became less known.
  // One index probe per word (term, popularity DESC): 26 ms for 6,897 words at 100,000 works.
  await db.$executeRaw`
    UPDATE search_terms s SET best = m.best
      FROM (SELECT t.term, COALESCE((SELECT p.popularity FROM artwork_terms p WHERE p.term = t.term ORDER BY p.popularity DESC LIMIT 1), 0) AS best
              FROM search_terms t) m
     WHERE s.term = m.term AND s.best <> m.best`;
  // The grid's order (grid_positions), written again whole: a publish moves every place after its
  // best-known new work. 66 ms at 100,000 works, where keeping the unchanged places (an upsert that
  // writes only the moved ones) took 350 ms with nothing moved and 550 ms with everything moved.
  // Readers see the old order until the transaction commits.
  await db.$executeRaw`DELETE FROM grid_positions`;
  await db.$executeRaw`
    INSERT INTO grid_positions (position, artwork_id)
    SELECT row_number() OVER (ORDER BY popularity DESC, id), id FROM artworks WHERE status = 'published'`;
  // Each browse page's order (taxon_positions), so that any page of a browse page is a range. Only
  // the pages whose published works changed are written again: all of them took 1.8-2.9 s at
  // 100,000 works (544,000 places). A page's works are told apart by their number and a sum of
  // their ids' hashes; a work's popularity never changes once published, so the same works are
  // the same order.
  const moved = await db.$queryRaw<{ taxon_id: number }[]>`
    SELECT coalesce(live.taxon_id, kept.taxon_id) AS taxon_id
      FROM (SELECT l.taxon_id, count(*) AS n, sum(hashint4(l.artwork_id)) AS works
              FROM artwork_taxa l JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published'
             GROUP BY l.taxon_id) live
      FULL JOIN (SELECT taxon_id, count(*) AS n, sum(hashint4(artwork_id)) AS works FROM taxon_positions GROUP BY taxon_id) kept
        ON kept.taxon_id = live.taxon_id
     WHERE live.n IS DISTINCT FROM kept.n OR live.works IS DISTINCT FROM kept.works`;
  if (moved.length) {
    const ids = moved.map((row) => row.taxon_id);
    await db.$executeRaw`DELETE FROM taxon_positions WHERE taxon_id = ANY(${ids})`;
    await db.$executeRaw`
      INSERT INTO taxon_positions (taxon_id, position, artwork_id)
      SELECT l.taxon_id, row_number() OVER (PARTITION BY l.taxon_id ORDER BY w.popularity DESC, w.id), w.id
        FROM artwork_taxa l JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published'
       WHERE l.taxon_id = ANY(${ids})`;
  }
  return { artists, taxa };
}
