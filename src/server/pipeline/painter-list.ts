import 'server-only';
import { Prisma, type PublishTrigger } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { RateLimitedError } from '@/server/integrations/http';
import { deathSlices, SparqlTimeoutError, type DeathSlice, type QueryRecord, type WikidataSource } from '@/server/integrations/wikidata';

/**
 * The stored painter list (painter_candidates): every qualifying painter with their count of
 * paintings, computed by cheap queries one slice of death years at a time, refreshed weekly. The
 * nightly ingest reads its painters from here and never asks Wikidata for the whole list
 * (docs/pipeline.md "Bounded queries").
 */

/** The list is refreshed when its last complete refresh began longer ago than this. */
export const PAINTER_LIST_MAX_AGE_MS = 7 * 24 * 3_600_000;

export interface PainterListRefresh {
  runId: number;
  /** ISO 8601: the rows this refresh finds carry it; a complete refresh removes the older ones. */
  startedAt: string;
  slices: DeathSlice[];
}

/** What one slice's step did (JSON: Inngest keeps it as the step's output). */
export type SliceStep =
  { slice: DeathSlice; outcome: 'listed'; painters: number; queries: QueryRecord[] } | { slice: DeathSlice; outcome: 'failed'; message: string; queries: QueryRecord[] };

/** Whether the ingest must refresh the list first: never refreshed whole, or the last whole refresh is a week old. */
export async function painterListDue(db: Db, now: Date): Promise<boolean> {
  const last = await db.ingestRun.findFirst({ where: { kind: 'painter_list', outcome: 'done' }, orderBy: { startedAt: 'desc' }, select: { startedAt: true } });
  return !last || now.getTime() - last.startedAt.getTime() >= PAINTER_LIST_MAX_AGE_MS;
}

/** Records a refresh (an ingest_runs row of kind `painter_list`) and its slices. */
export async function startPainterListRefresh(db: Db, rule: { diedBefore: number }, settings: { trigger: PublishTrigger; now?: Date }): Promise<PainterListRefresh> {
  const startedAt = settings.now ?? new Date();
  const run = await db.ingestRun.create({ data: { kind: 'painter_list', trigger: settings.trigger, startedAt, painters: [], errors: [] } });
  return { runId: run.id, startedAt: startedAt.toISOString(), slices: deathSlices(rule.diedBefore) };
}

/**
 * One slice's step: its qualifying painters from Wikidata, stored with the refresh's time. A slice
 * that runs out of time even in halves is recorded and skipped (the refresh is then partial and
 * keeps the rows an earlier refresh found); a 429 or a 5xx after the retries is thrown, for the
 * refresh to stop (or, on Inngest, for the step to wait and be retried).
 */
export async function refreshSlice(
  db: Db,
  source: WikidataSource,
  refresh: PainterListRefresh,
  index: number,
  rule: { diedBefore: number; minPaintings: number },
  progress: (line: string) => void = () => undefined,
): Promise<SliceStep> {
  const slice = refresh.slices[index]!;
  const queries: QueryRecord[] = [];
  const trace = (q: QueryRecord) => void queries.push(q);
  const name = `died ${slice.from ?? '…'}–${slice.to}`;
  try {
    const painters = await source.paintersDied(slice, rule, trace);
    const listedAt = new Date(refresh.startedAt);
    await db.$transaction(async (tx) => {
      for (let i = 0; i < painters.length; i += 1_000) {
        const part = painters.slice(i, i + 1_000);
        // A painter whose death dates fall in two slices is written twice by one refresh: the
        // larger figures stay. Of two refreshes at once, the later one's figures stay, and a row
        // never goes back in time (a refresh removes only what neither found).
        await tx.$executeRaw`
          INSERT INTO painter_candidates AS c (wikidata_id, paintings, birth_year, death_year, listed_at)
          SELECT * FROM unnest(${part.map((p) => p.qid)}::text[], ${part.map((p) => p.paintings)}::int[], ${part.map((p) => p.birthYear)}::int[],
                               ${part.map((p) => p.deathYear)}::int[], ${part.map(() => listedAt)}::timestamptz[])
          ON CONFLICT (wikidata_id) DO UPDATE SET
            paintings = CASE WHEN EXCLUDED.listed_at > c.listed_at THEN EXCLUDED.paintings
                             WHEN EXCLUDED.listed_at = c.listed_at THEN GREATEST(c.paintings, EXCLUDED.paintings) ELSE c.paintings END,
            birth_year = CASE WHEN EXCLUDED.listed_at >= c.listed_at THEN EXCLUDED.birth_year ELSE c.birth_year END,
            death_year = CASE WHEN EXCLUDED.listed_at > c.listed_at THEN EXCLUDED.death_year
                              WHEN EXCLUDED.listed_at = c.listed_at THEN GREATEST(c.death_year, EXCLUDED.death_year) ELSE c.death_year END,
            listed_at = GREATEST(c.listed_at, EXCLUDED.listed_at)`;
      }
      await recordQueries(tx as Tx, refresh.runId, queries, {});
    });
    progress(`painter list, ${name}: ${painters.length} qualifying painters (${queries.length} queries)`);
    return { slice, outcome: 'listed', painters: painters.length, queries };
  } catch (error) {
    if (!(error instanceof SparqlTimeoutError)) {
      await recordQueries(db, refresh.runId, queries, {});
      throw error;
    }
    const message = `${name}: ${error.message}`.slice(0, 500);
    await recordQueries(db, refresh.runId, queries, { error: message });
    progress(`painter list, ${name}: failed (${error.message}); the painters an earlier refresh found there stay`);
    return { slice, outcome: 'failed', message, queries };
  }
}

/**
 * The refresh's last step. Whole (every slice listed): painters it no longer found are removed, and
 * the list counts as fresh. Partial: nothing is removed, and the next night tries again.
 */
export async function finishPainterListRefresh(
  db: Db,
  refresh: PainterListRefresh,
  steps: SliceStep[],
  error?: unknown,
): Promise<'done' | 'partial' | 'failed' | 'rate_limited'> {
  const whole = error === undefined && steps.length === refresh.slices.length && steps.every((s) => s.outcome === 'listed');
  const outcome = error instanceof RateLimitedError ? 'rate_limited' : error !== undefined ? 'failed' : whole ? 'done' : 'partial';
  await db.$transaction(async (tx) => {
    if (whole) await tx.painterCandidate.deleteMany({ where: { listedAt: { lt: new Date(refresh.startedAt) } } });
    await tx.ingestRun.update({
      where: { id: refresh.runId },
      data: {
        outcome,
        finishedAt: new Date(),
        ...(error === undefined ? {} : { errors: { push: error instanceof Error ? error.message.slice(0, 500) : String(error) } }),
      },
    });
  });
  return outcome;
}

/** Slices in a row out of time, even in halves, that stop a refresh: then it is the service, not the slices. */
export const SLICES_OUT_OF_TIME = 3;
export const tooManySlicesOutOfTime = (steps: SliceStep[]) => steps.length >= SLICES_OUT_OF_TIME && steps.slice(-SLICES_OUT_OF_TIME).every((s) => s.outcome === 'failed');

/** The whole refresh in one call (the command line, the tests, the one-call ingest): every slice in turn. */
export async function refreshPainterList(
  db: Db,
  source: WikidataSource,
  rule: { diedBefore: number; minPaintings: number },
  settings: { trigger: PublishTrigger; now?: Date; progress?: (line: string) => void },
): Promise<{ outcome: Awaited<ReturnType<typeof finishPainterListRefresh>>; painters: number; steps: SliceStep[] }> {
  const refresh = await startPainterListRefresh(db, rule, settings);
  const steps: SliceStep[] = [];
  try {
    for (const index of refresh.slices.keys()) {
      steps.push(await refreshSlice(db, source, refresh, index, rule, settings.progress));
      if (tooManySlicesOutOfTime(steps))
        throw new SparqlTimeoutError(`${SLICES_OUT_OF_TIME} slices of the painter list in a row ran out of time: the query service is struggling`);
    }
  } catch (error) {
    await finishPainterListRefresh(db, refresh, steps, error).catch(() => undefined);
    throw error;
  }
  const outcome = await finishPainterListRefresh(db, refresh, steps);
  const painters = await db.painterCandidate.count();
  settings.progress?.(`painter list ${outcome}: ${painters} qualifying painters stored`);
  return { outcome, painters, steps };
}

/** Adds a step's queries (and its error) to the refresh's row, under the row's lock. */
async function recordQueries(db: Db | Tx, runId: number, queries: QueryRecord[], step: { error?: string }) {
  const [row] = await db.$queryRaw<{ queries: QueryRecord[] }[]>(Prisma.sql`SELECT queries FROM ingest_runs WHERE id = ${runId} FOR UPDATE`);
  if (!row) return;
  const all = [...row.queries, ...queries];
  await db.ingestRun.update({
    where: { id: runId },
    data: {
      queries: all as unknown as Prisma.InputJsonValue,
      queryMs: all.reduce((n, q) => n + q.ms, 0),
      ...(step.error ? { errors: { push: step.error } } : {}),
    },
  });
}
