import 'server-only';
import type { Db, Tx } from '@/server/db/client';
import { ARTIST_BLOCK } from './publish';

/**
 * The queued works that count toward QUEUE_TARGET: all but those of an artist who is not public and
 * has fewer than ARTIST_BLOCK works in the catalog (any status). Such an artist cannot be
 * introduced (a new artist enters only with a block of 10), so their works would hold queue places
 * forever and stop the ingest from bringing painters who can; they wait, not counted, and are
 * published as soon as the painter reaches ten (a later run finds more of their paintings: a label
 * added, an original-language title). docs/pipeline.md "Complete titles".
 */
export async function queuedTowardTarget(db: Db | Tx): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT coalesce(sum(c.queued), 0)::int AS n
      FROM (SELECT w.artist_id, count(*) FILTER (WHERE w.status = 'queued') AS queued, count(*) AS works
              FROM artworks w GROUP BY w.artist_id) c
      JOIN artists a ON a.id = c.artist_id
     WHERE c.queued > 0 AND (a.status = 'published' OR c.works >= ${ARTIST_BLOCK})`;
  return row?.n ?? 0;
}
