import 'server-only';
import { BROWSE_PAGE_MIN_WORKS, recountCatalog } from '@/server/catalog/counts';
import type { Db, Tx } from '@/server/db/client';
import { kindOf, taxonKinds, type PublishTrigger, type TaxonKindPlural } from '@/shared/catalog';
import { catalogLocales } from '@/shared/locales';
import { publishedToday } from './publish';

export async function browsePages(db: Db | Tx): Promise<Record<TaxonKindPlural, number>> {
  const rows = await db.taxon.groupBy({ by: ['kind'], where: { artworkCount: { gte: BROWSE_PAGE_MIN_WORKS } }, _count: { _all: true } });
  return Object.fromEntries(taxonKinds.map((k) => [k, rows.find((r) => r.kind === kindOf[k])?._count._all ?? 0])) as Record<TaxonKindPlural, number>;
}

/** The staff dashboard's view of the pipeline: queue, publication today, browse pages, last 30 runs. */
export async function pipelineStats(db: Db, settings: { perDay: number; now?: Date }) {
  const now = settings.now ?? new Date();
  const [queued, ready, published, today, pages, artists, log, ingests, setAside] = await Promise.all([
    db.artwork.count({ where: { status: 'queued' } }),
    // Ready as a publish run reads it: a story, and a title in each of the six languages.
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM artworks w WHERE w.status = 'queued'
         AND EXISTS (SELECT 1 FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = 'en' AND t.story IS NOT NULL)
         AND (SELECT count(t.title) FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = ANY(${[...catalogLocales]}::text[])) = ${catalogLocales.length}`,
    db.artwork.count({ where: { status: 'published' } }),
    publishedToday(db, now),
    browsePages(db),
    db.artist.count({ where: { status: 'published', artworkCount: { gt: 0 } } }),
    db.publishLog.findMany({ orderBy: { id: 'desc' }, take: 30 }),
    db.ingestRun.findMany({ orderBy: { id: 'desc' }, take: 10 }),
    db.painterFailure.findMany({ where: { setAsideAt: { not: null } }, orderBy: [{ setAsideAt: 'desc' }, { painterQid: 'asc' }], take: 100 }),
  ]);
  return {
    queued,
    ready: ready[0]?.n ?? 0,
    published,
    publishedToday: today,
    perDay: settings.perDay,
    capLeft: Math.max(0, settings.perDay - today),
    publishedArtists: artists,
    browsePages: pages,
    runs: log.map((r) => ({
      id: r.id,
      trigger: r.trigger,
      requested: r.requested,
      published: r.published,
      artistsIntroduced: r.artistsIntroduced,
      urlsNotified: r.urlsNotified,
      errors: r.errors,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt.toISOString(),
    })),
    ingestRuns: ingests.map(ingestRunView),
    setAsidePainters: setAside.map((f) => ({
      qid: f.painterQid,
      nights: f.nights,
      lastError: f.lastError,
      lastFailedAt: f.lastFailedAt.toISOString(),
      setAsideAt: f.setAsideAt!.toISOString(),
    })),
  };
}

/** Staff's "try again" for a painter set aside: the next ingest takes it like any other. */
export async function tryPainterAgain(db: Db, painterQid: string): Promise<{ cleared: boolean }> {
  return { cleared: (await db.painterFailure.deleteMany({ where: { painterQid } })).count > 0 };
}

type QueryRow = { kind?: unknown; ms?: unknown; rows?: unknown; error?: unknown };

/** An ingest_runs row as staff see it: what it took, what it left out and why, and its query times. */
export function ingestRunView(r: {
  id: number;
  kind: string;
  trigger: PublishTrigger;
  outcome: string;
  painters: string[];
  worksQueued: number;
  skipped: unknown;
  queries: unknown;
  queryMs: number;
  errors: string[];
  startedAt: Date;
  finishedAt: Date | null;
}) {
  const queries = (Array.isArray(r.queries) ? r.queries : []) as QueryRow[];
  const ms = (q: QueryRow) => (typeof q.ms === 'number' ? Math.round(q.ms) : 0);
  const slowest = queries.reduce<QueryRow | null>((top, q) => (!top || ms(q) > ms(top) ? q : top), null);
  const skipped = Object.fromEntries(
    Object.entries(r.skipped && typeof r.skipped === 'object' ? (r.skipped as Record<string, unknown>) : {}).filter((e): e is [string, number] => Number.isInteger(e[1])),
  );
  return {
    id: r.id,
    kind: r.kind === 'painter_list' ? ('painter_list' as const) : ('ingest' as const),
    trigger: r.trigger,
    outcome: r.outcome,
    painters: r.painters,
    worksQueued: r.worksQueued,
    skipped,
    queries: {
      count: queries.length,
      totalMs: r.queryMs,
      mostRows: queries.reduce((n, q) => Math.max(n, typeof q.rows === 'number' ? q.rows : 0), 0),
      slowest: slowest ? { kind: String(slowest.kind ?? 'query'), ms: ms(slowest) } : null,
      failed: queries.filter((q) => q.error).length,
    },
    errors: r.errors,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** Recounts artist and browse-page sizes (after manual fixes; also hourly) and answers the new figures. */
export async function refreshCounts(db: Db) {
  const changed = await db.$transaction((tx) => recountCatalog(tx as Tx));
  const [pages, artists, published] = await Promise.all([
    browsePages(db),
    db.artist.count({ where: { status: 'published', artworkCount: { gt: 0 } } }),
    db.artwork.count({ where: { status: 'published' } }),
  ]);
  return { changed: { artists: changed.artists, browsePages: changed.taxa }, published, publishedArtists: artists, browsePages: pages };
}
