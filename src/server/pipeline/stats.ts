import { BROWSE_PAGE_MIN_WORKS, recountCatalog } from '@/server/catalog/counts';
import type { Db, Tx } from '@/server/db/client';
import { publishedToday } from './publish';

const kinds = ['museum', 'movement', 'subject', 'genre'] as const;
const plural = { museum: 'museums', movement: 'movements', subject: 'subjects', genre: 'genres' } as const;

export async function browsePages(db: Db | Tx): Promise<Record<(typeof plural)[keyof typeof plural], number>> {
  const rows = await db.taxon.groupBy({ by: ['kind'], where: { artworkCount: { gte: BROWSE_PAGE_MIN_WORKS } }, _count: { _all: true } });
  return Object.fromEntries(kinds.map((k) => [plural[k], rows.find((r) => r.kind === k)?._count._all ?? 0])) as Record<(typeof plural)[keyof typeof plural], number>;
}

/** The staff dashboard's view of the pipeline: queue, publication today, browse pages, last 30 runs. */
export async function pipelineStats(db: Db, settings: { perDay: number; now?: Date }) {
  const now = settings.now ?? new Date();
  const [queued, ready, published, today, pages, artists, log] = await Promise.all([
    db.artwork.count({ where: { status: 'queued' } }),
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM artworks w WHERE w.status = 'queued'
         AND EXISTS (SELECT 1 FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = 'en' AND t.story IS NOT NULL)`,
    db.artwork.count({ where: { status: 'published' } }),
    publishedToday(db, now),
    browsePages(db),
    db.artist.count({ where: { status: 'published', artworkCount: { gt: 0 } } }),
    db.publishLog.findMany({ orderBy: { id: 'desc' }, take: 30 }),
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
      id: r.id, trigger: r.trigger, requested: r.requested, published: r.published, artistsIntroduced: r.artistsIntroduced,
      urlsNotified: r.urlsNotified, errors: r.errors, startedAt: r.startedAt.toISOString(), finishedAt: r.finishedAt.toISOString(),
    })),
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
