import 'server-only';
import type { PublishTrigger } from '@/generated/prisma/client';
import { recountCatalog, BROWSE_PAGE_MIN_WORKS } from '@/server/catalog/counts';
import type { Db, Tx } from '@/server/db/client';
import { lockForTransaction } from '@/server/db/locks';
import { enqueue } from '@/server/jobs/outbox';
import { pluralOf } from '@/shared/catalog';
import { catalogLocales } from '@/shared/locales';
import { alternates, pagePath } from '@/shared/paths';
import { stripDisambiguation } from './titles';
import { publishedWithoutTitles } from './translations';

/** A new artist is introduced with exactly this many works in one run; artists below it are served first. */
export const ARTIST_BLOCK = 10;
export { TITLES_PER_CALL } from './translations';
/** Outbox event that hands new page addresses to the search-engine notification. */
export const NOTIFY_EVENT = 'seo/notify.requested';
export const URLS_PER_NOTIFY_EVENT = 1_000;

export interface PublishSettings {
  perDay: number;
  baseUrl: string;
  trigger: PublishTrigger;
  /** At most this many (a staff request's count); unset: whatever the day's cap leaves. */
  count?: number;
  now?: () => Date;
  progress?: (line: string) => void;
}

export interface PublishResult {
  publishLogId: number | null;
  published: number;
  capLeft: number;
  artworks: string[];
  artistsIntroduced: string[];
  browsePagesAdded: string[];
  urls: number;
  errors: string[];
}

/** A run's answer with its figures: how long it held the lock, and how many published works lack a title in one of the six languages (after it). */
export type PublishRunResult = PublishResult & { transactionMs: number; publishedWithoutTitles: number };

/** Start of the current UTC day. */
export const utcDayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * Artworks published today by any path (scheduled run, staff request, command line). The curated
 * seed is not a publish path: its works never count against the cap.
 */
export async function publishedToday(db: Db | Tx, now: Date): Promise<number> {
  return db.artwork.count({ where: { status: 'published', curated: false, publishedAt: { gte: utcDayStart(now) } } });
}

interface Candidate {
  id: number;
  artist_id: number;
  popularity: number;
}

/**
 * The works of one run, in the rules' order: works of public artists with fewer than 10 public
 * works first (up to 10), then by popularity, a new artist entering only with a block of their 10
 * most popular ready works (never fewer).
 */
export function chooseWorks(candidates: Candidate[], publicCounts: Map<number, number>, budget: number): { ids: number[]; introduced: number[] } {
  const sorted = [...candidates].sort((a, b) => b.popularity - a.popularity || a.id - b.id);
  const chosen = new Set<number>();
  const counts = new Map(publicCounts);
  const introduced: number[] = [];
  const take = (c: Candidate) => {
    chosen.add(c.id);
    counts.set(c.artist_id, (counts.get(c.artist_id) ?? 0) + 1);
  };
  for (const c of sorted) {
    if (chosen.size >= budget) break;
    const n = counts.get(c.artist_id) ?? 0;
    if (n > 0 && n < ARTIST_BLOCK) take(c);
  }
  const byArtist = new Map<number, Candidate[]>();
  for (const c of sorted) if (!chosen.has(c.id)) byArtist.set(c.artist_id, [...(byArtist.get(c.artist_id) ?? []), c]);
  for (const c of sorted) {
    if (chosen.size >= budget) break;
    if (chosen.has(c.id)) continue;
    if ((counts.get(c.artist_id) ?? 0) > 0) {
      take(c);
      continue;
    }
    const block = byArtist.get(c.artist_id)!.slice(0, ARTIST_BLOCK);
    if (block.length < ARTIST_BLOCK || budget - chosen.size < ARTIST_BLOCK) continue;
    for (const w of block) take(w);
    introduced.push(c.artist_id);
  }
  return { ids: [...chosen], introduced };
}

/** A publish transaction only reads, updates and recounts: seconds. Far above that is a fault, not a slow model. */
const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The works a run takes now, in the rules' order: queued works ready to publish, that is with a
 * story and a title in each of the six languages (the title pass, translations.ts, completes them
 * before; a work it has not finished waits, never published half-titled).
 */
async function chooseNow(db: Db | Tx, settings: PublishSettings, now: Date) {
  const left = Math.max(0, settings.perDay - (await publishedToday(db, now)));
  const budget = Math.min(left, settings.count ?? left);
  if (budget <= 0) return { left, budget, ids: [] as number[], introduced: [] as number[], ready: 0 };
  const candidates = await db.$queryRaw<Candidate[]>`
    SELECT w.id, w.artist_id, w.popularity FROM artworks w
     WHERE w.status = 'queued'
       AND EXISTS (SELECT 1 FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = 'en' AND t.story IS NOT NULL)
       AND (SELECT count(t.title) FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = ANY(${[...catalogLocales]}::text[])) = ${catalogLocales.length}`;
  const artistIds = [...new Set(candidates.map((c) => c.artist_id))];
  const counts = await db.$queryRaw<{ artist_id: number; n: number }[]>`
    SELECT w.artist_id, count(*)::int AS n FROM artworks w
     WHERE w.status = 'published' AND w.artist_id = ANY(${artistIds}::int[]) GROUP BY w.artist_id`;
  return { left, budget, ready: candidates.length, ...chooseWorks(candidates, new Map(counts.map((c) => [c.artist_id, c.n])), budget) };
}

/**
 * One publish run: one short transaction under an advisory lock chooses the ready works within
 * what is left of the day's cap, strips disambiguation suffixes, publishes works and artists,
 * recounts, and writes the publish-log row and the notification events (sent after commit by
 * `seo.notify`). No outside service is called: titles are completed before, by the title pass
 * (translations.ts), so the lock is held for database work only, seconds.
 */
export async function publishRun(db: Db, settings: PublishSettings): Promise<PublishRunResult> {
  const clock = settings.now ?? (() => new Date());
  const startedAt = clock();
  const progress = settings.progress ?? (() => undefined);
  let transactionStarted = 0;
  const result = await db.$transaction(
    async (t) => {
      transactionStarted = performance.now();
      const tx = t as Tx;
      await lockForTransaction(tx, 'publish');
      const now = clock();
      const { left, budget, ids, introduced, ready } = await chooseNow(tx, settings, now);
      const empty: PublishResult = { publishLogId: null, published: 0, capLeft: left, artworks: [], artistsIntroduced: [], browsePagesAdded: [], urls: 0, errors: [] };
      if (budget <= 0) {
        progress(`publish: nothing to do (${left} left of today's cap of ${settings.perDay})`);
        return empty;
      }
      if (!ids.length) {
        progress(`publish: no ready work fits the rules (${ready} ready, ${left} left of today's cap)`);
        return empty;
      }
      await stripTitles(tx, ids);
      const errors: string[] = [];

      const taxaBefore = await tx.$queryRaw<{ id: number; n: number }[]>`
        SELECT DISTINCT t.id, t.artwork_count AS n FROM taxa t JOIN artwork_taxa l ON l.taxon_id = t.id WHERE l.artwork_id = ANY(${ids}::int[])`;
      const works = await tx.$queryRaw<{ slug: string }[]>`
        UPDATE artworks SET status = 'published', published_at = ${now}, updated_at = ${now}
         WHERE id = ANY(${ids}::int[]) AND status = 'queued' RETURNING slug`;
      const newArtists = await tx.$queryRaw<{ slug: string }[]>`
        UPDATE artists SET status = 'published', published_at = ${now}, updated_at = ${now}
         WHERE status = 'queued' AND id IN (SELECT artist_id FROM artworks WHERE id = ANY(${ids}::int[])) RETURNING slug`;
      await recountCatalog(tx);
      const taxaAfter = await tx.taxon.findMany({
        where: { id: { in: taxaBefore.filter((t) => t.n < BROWSE_PAGE_MIN_WORKS).map((t) => t.id) }, artworkCount: { gte: BROWSE_PAGE_MIN_WORKS } },
        select: { kind: true, slug: true },
      });
      const introducedSlugs = introduced.length ? (await tx.artist.findMany({ where: { id: { in: introduced } }, select: { slug: true } })).map((a) => a.slug) : [];
      const paths = [
        ...works.map((w) => pagePath.artwork(w.slug)),
        ...newArtists.map((a) => pagePath.artist(a.slug)),
        ...taxaAfter.map((t) => pagePath.taxon(pluralOf[t.kind], t.slug)),
      ];
      const urls = paths.flatMap((p) => alternates(settings.baseUrl, p).map((a) => a.href));
      const log = await tx.publishLog.create({
        data: {
          trigger: settings.trigger,
          requested: settings.count ?? budget,
          published: works.length,
          artistsIntroduced: introducedSlugs,
          urlsNotified: 0,
          errors,
          startedAt,
          finishedAt: new Date(),
        },
      });
      for (let i = 0; i < urls.length; i += URLS_PER_NOTIFY_EVENT) {
        await enqueue(tx, NOTIFY_EVENT, { publishLogId: log.id, urls: urls.slice(i, i + URLS_PER_NOTIFY_EVENT) });
      }
      progress(`publish: ${works.length} artworks, ${newArtists.length} new artist pages, ${taxaAfter.length} new browse pages, ${urls.length} addresses to notify`);
      return {
        publishLogId: log.id,
        published: works.length,
        capLeft: left - works.length,
        artworks: works.map((w) => w.slug),
        artistsIntroduced: introducedSlugs,
        browsePagesAdded: taxaAfter.map((t) => `${pluralOf[t.kind]}/${t.slug}`),
        urls: urls.length,
        errors,
      };
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: TRANSACTION_TIMEOUT_MS },
  );
  const transactionMs = Math.round(performance.now() - transactionStarted);
  progress(`publish: the transaction held the lock for ${transactionMs} ms`);
  return { ...result, transactionMs, publishedWithoutTitles: await publishedWithoutTitles(db) };
}

interface TitleRow {
  id: number;
  present: Map<string, string>;
  context: { creatorNames: string[]; museumNames: string[] };
}

async function titleRows(db: Db | Tx, ids: number[]): Promise<TitleRow[]> {
  const rows = await db.artwork.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      texts: { select: { locale: true, title: true } },
      artist: { select: { name: true, texts: { select: { name: true } } } },
      taxa: { where: { taxon: { kind: 'museum' } }, select: { taxon: { select: { texts: { select: { name: true } } } } } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    present: new Map(row.texts.filter((t) => t.title).map((t) => [t.locale, t.title!])),
    context: { creatorNames: [row.artist.name, ...row.artist.texts.map((t) => t.name)], museumNames: row.taxa.flatMap((l) => l.taxon.texts.map((t) => t.name)) },
  }));
}

/** Takes disambiguation suffixes off the titles of the works being published (in the transaction: cheap). */
async function stripTitles(tx: Tx, ids: number[]): Promise<void> {
  const stripped: { id: number; locale: string; title: string }[] = [];
  for (const row of await titleRows(tx, ids)) {
    for (const [locale, title] of row.present) {
      const clean = stripDisambiguation(title, row.context);
      if (clean !== title && clean) stripped.push({ id: row.id, locale, title: clean });
    }
  }
  if (stripped.length) {
    await tx.$executeRaw`
      UPDATE artwork_texts t SET title = v.title
        FROM unnest(${stripped.map((u) => u.id)}::int[], ${stripped.map((u) => u.locale)}::text[], ${stripped.map((u) => u.title)}::text[]) AS v(id, locale, title)
       WHERE t.artwork_id = v.id AND t.locale = v.locale`;
  }
}
