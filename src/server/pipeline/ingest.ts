import 'server-only';
import { z } from 'zod';
import { Prisma, type PublishTrigger } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { lockForTransaction } from '@/server/db/locks';
import { RateLimitedError } from '@/server/integrations/http';
import { SparqlTimeoutError, type Labels, type OriginalTitle, type PaintingFacts, type QueryRecord, type WikidataSource } from '@/server/integrations/wikidata';
import { enqueue } from '@/server/jobs/outbox';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';
import { painterListDue, refreshPainterList } from './painter-list';
import { queuedTowardTarget } from './queue';
import { joinSlug, slugify, uniqueSlug } from './slug';
import { stripDisambiguation } from './titles';

/** Ingest runs only while fewer artworks than this are queued, unless forced (interface.md §8). */
export const QUEUE_TARGET = 15_000;
export const PAINTERS_PER_RUN = 20;
export const MIN_PAINTINGS_WITH_IMAGE = 5;
/** A painter qualifies when they died before this year (public domain everywhere that matters). */
export const DIED_BEFORE = 1926;
/** The rule the painter list is computed by. */
export const PAINTER_RULE = { diedBefore: DIED_BEFORE, minPaintings: MIN_PAINTINGS_WITH_IMAGE };
export const SUBJECTS_PER_PAINTING = 8;
/** Outbox event that asks for stories after an ingest added works. */
export const STORIES_EVENT = 'catalog/stories.requested';

/**
 * The event that asks for an ingest (`catalog/ingest.requested`, the staff's "Ingest now"), typed:
 * a painter count from 1 to 200, `force` to run with the queue full. Anything else is ignored.
 */
export const IngestRequest = z.object({
  painters: z
    .number()
    .min(1)
    .transform((n) => Math.min(200, Math.floor(n)))
    .optional()
    .catch(undefined),
  force: z.boolean().optional().catch(undefined),
});

export interface IngestSettings {
  painters?: number;
  force?: boolean;
  trigger?: PublishTrigger;
  progress?: (line: string) => void;
  /** The run's clock (tests move it across nights). */
  now?: Date;
}

/** Why a painting (or painter) was left out; counted on the run. */
export type SkipReason = 'no_image' | 'no_label' | 'in_catalog' | 'painter_without_name' | 'painter_taken_meanwhile' | 'painter_failed';

/** Nights a painter may fail before it is set aside (until staff try again). */
export const PAINTER_FAILING_NIGHTS = 3;
/** Painters whose queries ran out of time one after another that stop a run: then it is the service. */
export const PAINTERS_OUT_OF_TIME = 3;
/** A run still `running` after this long died (a killed process, a cut step): it is marked failed. */
export const RUN_LEASE_MS = 6 * 3_600_000;

export interface IngestResult {
  runId: number;
  skipped: 'queue_full' | null;
  queuedBefore: number;
  painters: { qid: string; slug: string; added: number; seen: number }[];
  artworksAdded: number;
  taxaAdded: number;
  /** Paintings (and painters) left out, by reason. */
  left: Partial<Record<SkipReason, number>>;
  queries: QueryRecord[];
}

type Kind = 'museum' | 'movement' | 'genre' | 'subject';
/** Painters whose unlabelled paintings are looked at again per run: each costs two light queries. */
export const RELABEL_PAINTERS_PER_RUN = 10;

/** One painter of a run's plan: the next qualifying painter, or one looked at again for its unlabelled paintings. */
export interface PainterWork {
  qid: string;
  birthYear: number | null;
  deathYear: number | null;
  retry: boolean;
}

/** A run as its first step planned it: what the later steps (one per painter) and the last need. */
export interface IngestPlan {
  runId: number;
  queuedBefore: number;
  /** ISO 8601: the run's clock, for the painters' failing nights. */
  startedAt: string;
  skipped: 'queue_full' | null;
  work: PainterWork[];
  queries: QueryRecord[];
}

/** What one painter's step did (JSON: Inngest keeps it as the step's output). */
export type PainterStep =
  | { qid: string; outcome: 'written'; slug: string; added: number; seen: number; taxaAdded: number; left: Partial<Record<SkipReason, number>>; queries: QueryRecord[] }
  | { qid: string; outcome: 'skipped'; left: Partial<Record<SkipReason, number>>; queries: QueryRecord[] }
  | { qid: string; outcome: 'failed'; message: string; setAside: boolean; queries: QueryRecord[] };

const tracer = (queries: QueryRecord[], progress: (line: string) => void) => (q: QueryRecord) => {
  queries.push(q);
  progress(`query ${q.kind}: ${q.ms} ms, ${q.rows} rows${q.error ? `, failed: ${q.error}` : ''}`);
};

/**
 * Adds a step's figures to its run's row, under the row's lock (steps of one run never overlap,
 * but a step retried after a cut call might): queries, painters taken, works queued, what was
 * left out and why, errors.
 */
async function recordOnRun(
  tx: Tx | Db,
  runId: number,
  step: { queries: QueryRecord[]; painter?: string; added?: number; left?: Partial<Record<SkipReason, number>>; error?: string },
) {
  const [row] = await tx.$queryRaw<{ skipped: Record<string, number>; queries: QueryRecord[] }[]>(
    Prisma.sql`SELECT skipped, queries FROM ingest_runs WHERE id = ${runId} FOR UPDATE`,
  );
  if (!row) return;
  const skipped = { ...row.skipped };
  for (const [reason, n] of Object.entries(step.left ?? {})) skipped[reason] = (skipped[reason] ?? 0) + n;
  const queries = [...row.queries, ...step.queries];
  await tx.ingestRun.update({
    where: { id: runId },
    data: {
      queries: queries as unknown as Prisma.InputJsonValue,
      queryMs: queries.reduce((n, q) => n + q.ms, 0),
      skipped,
      ...(step.painter ? { painters: { push: step.painter } } : {}),
      ...(step.added ? { worksQueued: { increment: step.added } } : {}),
      ...(step.error ? { errors: { push: step.error } } : {}),
    },
  });
}

/**
 * The run's first step: records the run, marks runs that died past their lease as failed, and
 * chooses the painters: those whose unlabelled paintings now have a label, then the next
 * qualifying painters of the stored list not yet ingested nor set aside, most paintings first.
 */
export async function planIngest(db: Db, source: WikidataSource, settings: IngestSettings = {}): Promise<IngestPlan> {
  const progress = settings.progress ?? (() => undefined);
  const wanted = settings.painters ?? PAINTERS_PER_RUN;
  const startedAt = settings.now ?? new Date();
  // A run that died (its process killed, its step cut) stays `running`: past its lease it failed.
  await db.ingestRun.updateMany({
    where: { outcome: 'running', startedAt: { lt: new Date(startedAt.getTime() - RUN_LEASE_MS) } },
    data: { outcome: 'failed', finishedAt: startedAt, errors: ['the run stopped without finishing (past its lease); the next run took over'] },
  });
  // Works of a painter who cannot be introduced yet (under a block of 10) hold no queue place.
  const queuedBefore = await queuedTowardTarget(db);
  const run = await db.ingestRun.create({ data: { trigger: settings.trigger ?? 'cli', startedAt, painters: [], errors: [] } });
  const plan: IngestPlan = { runId: run.id, queuedBefore, startedAt: startedAt.toISOString(), skipped: null, work: [], queries: [] };
  const trace = tracer(plan.queries, progress);
  try {
    if (queuedBefore >= QUEUE_TARGET && !settings.force) {
      progress(`queue holds ${queuedBefore} artworks (target ${QUEUE_TARGET}): nothing to ingest (force to run anyway)`);
      await db.ingestRun.update({ where: { id: run.id }, data: { outcome: 'queue_full', finishedAt: new Date() } });
      return { ...plan, skipped: 'queue_full' };
    }
    // Paintings an earlier run skipped for want of any label: their labels in the catalog's six
    // (or mul) and in any other language tell which have one now.
    const skips = await db.ingestSkip.findMany({ where: { reason: 'no_label' }, orderBy: { seenAt: 'asc' }, take: 2_000 });
    const skipped = skips.map((s) => s.wikidataId);
    const relabelled = new Set(skips.length ? [...(await source.labels(skipped, trace)).keys(), ...(await source.originalTitles(skipped, trace)).keys()] : []);
    const retry = [...new Set(skips.filter((s) => relabelled.has(s.wikidataId)).map((s) => s.painterQid))].slice(0, RELABEL_PAINTERS_PER_RUN);
    const retryPainters = await db.artist.findMany({ where: { wikidataId: { in: retry } }, select: { wikidataId: true, birthYear: true, deathYear: true } });

    // The next painters from the stored list (painter-list.ts), most paintings first: never those
    // already ingested, nor those set aside after failing nights.
    const chosen =
      wanted > 0
        ? await db.$queryRaw<{ wikidata_id: string; birth_year: number | null; death_year: number | null }[]>`
            SELECT c.wikidata_id, c.birth_year, c.death_year FROM painter_candidates c
             WHERE c.paintings >= ${MIN_PAINTINGS_WITH_IMAGE} AND c.death_year < ${DIED_BEFORE}
               AND NOT EXISTS (SELECT 1 FROM artists a WHERE a.wikidata_id = c.wikidata_id AND a.ingested_at IS NOT NULL)
               AND NOT EXISTS (SELECT 1 FROM painter_failures f WHERE f.painter_qid = c.wikidata_id AND f.set_aside_at IS NOT NULL)
             ORDER BY c.paintings DESC, c.wikidata_id LIMIT ${wanted}`
        : [];
    const listed = await db.painterCandidate.count();
    progress(`${chosen.length} painters to ingest from the stored list of ${listed}, ${retryPainters.length} to look at again (queue holds ${queuedBefore})`);
    plan.work = [
      ...retryPainters.map((a) => ({ qid: a.wikidataId!, birthYear: a.birthYear, deathYear: a.deathYear, retry: true })),
      ...chosen.map((p) => ({ qid: p.wikidata_id, birthYear: p.birth_year, deathYear: p.death_year, retry: false })),
    ];
    await recordOnRun(db, run.id, { queries: plan.queries });
    return plan;
  } catch (error) {
    await finishIngest(db, plan, error).catch(() => undefined);
    throw error;
  }
}

/**
 * One painter's step: its paintings and labels from Wikidata, then its works written, all or
 * nothing, with the run's figures in the same transaction. A painter whose queries run out of
 * time even at the smallest page is this painter's failure: recorded, skipped, tried again next
 * night (set aside after three). Anything else is the service's (a 429 asking us to wait, a 5xx
 * after every retry, the network) and is thrown: the run stops, or on Inngest the step is retried
 * with its back-off, rather than send the next painters' queries into it.
 */
export async function ingestPainter(db: Db, source: WikidataSource, plan: IngestPlan, index: number, settings: Pick<IngestSettings, 'progress'> = {}): Promise<PainterStep> {
  const progress = settings.progress ?? (() => undefined);
  const painter = plan.work[index]!;
  const queries: QueryRecord[] = [];
  const trace = tracer(queries, progress);
  const where = `painter ${index + 1}/${plan.work.length}`;
  let all: PaintingFacts[];
  let labels: Labels;
  let originals: Map<string, OriginalTitle>;
  try {
    all = await source.paintings(painter.qid, { diedBefore: DIED_BEFORE }, trace);
    const withImage = all.filter((p) => p.imageFile);
    const taxonQids = withImage.flatMap((p) => [...p.collections, ...p.museums, ...p.movements, ...p.genres, ...p.depicts.slice(0, SUBJECTS_PER_PAINTING)]);
    labels = await source.labels([painter.qid, ...withImage.map((p) => p.qid), ...taxonQids], trace);
    // Paintings labelled only in other languages (nl, sv, ru…): one label of another language each,
    // the original title their six are translated from (docs/pipeline.md "Complete titles").
    const unlabelled = withImage.filter((p) => !firstLabel(labels.get(p.qid) ?? {})).map((p) => p.qid);
    originals = unlabelled.length ? await source.originalTitles(unlabelled, trace) : new Map<string, OriginalTitle>();
  } catch (error) {
    if (!(error instanceof SparqlTimeoutError)) {
      await recordOnRun(db, plan.runId, { queries });
      throw error;
    }
    const message = error.message.slice(0, 500);
    const setAside = await recordPainterFailure(db, painter.qid, message, new Date(plan.startedAt));
    await recordOnRun(db, plan.runId, { queries, left: { painter_failed: 1 }, error: `${painter.qid}: ${message}` });
    progress(`${where} ${painter.qid} failed (${message})${setAside ? `: set aside after ${PAINTER_FAILING_NIGHTS} nights` : ', tried again next run'}`);
    return { qid: painter.qid, outcome: 'failed', message, setAside, queries };
  }
  const paintings = all.filter((p) => p.imageFile);
  const step = await db.$transaction(
    async (tx): Promise<PainterStep> => {
      await lockForTransaction(tx, 'ingest');
      const written = await writePainter(tx as Tx, painter, paintings, labels, originals);
      if ('skipped' in written) {
        const left = { [written.skipped]: 1 };
        await recordOnRun(tx as Tx, plan.runId, { queries, left });
        return { qid: painter.qid, outcome: 'skipped', left, queries };
      }
      await tx.painterFailure.deleteMany({ where: { painterQid: painter.qid } });
      // Counted for the run that wrote the painter (two runs at once fetch the same painters).
      const left: Partial<Record<SkipReason, number>> = {};
      if (!painter.retry && all.length > paintings.length) left.no_image = all.length - paintings.length;
      for (const [reason, n] of Object.entries(written.left)) if (n && (!painter.retry || reason !== 'in_catalog')) left[reason as SkipReason] = n;
      await recordOnRun(tx as Tx, plan.runId, { queries, left, painter: `${painter.qid} ${written.slug}`, added: written.added });
      return { qid: painter.qid, outcome: 'written', slug: written.slug, added: written.added, seen: paintings.length, taxaAdded: written.taxaAdded, left, queries };
    },
    { timeout: 120_000, maxWait: 120_000 },
  );
  progress(
    step.outcome === 'written'
      ? `${where} ${step.slug} (${painter.qid})${painter.retry ? ' again' : ''}: ${step.added} new of ${step.seen} paintings with an image`
      : `${where} ${painter.qid}: ${step.outcome === 'skipped' && 'painter_without_name' in step.left ? 'no name in any language (mul included), left for a later run' : 'ingested meanwhile by another run, skipped'}`,
  );
  return step;
}

/** The run's last step: its outcome (done, or why it stopped) on its row. */
export async function finishIngest(db: Db, plan: Pick<IngestPlan, 'runId'>, error?: unknown): Promise<void> {
  const outcome = error === undefined ? 'done' : error instanceof RateLimitedError ? 'rate_limited' : 'failed';
  await db.ingestRun.update({
    where: { id: plan.runId },
    data: { outcome, finishedAt: new Date(), ...(error === undefined ? {} : { errors: { push: error instanceof Error ? error.message.slice(0, 500) : String(error) } }) },
  });
}

/** A run's figures from its plan and its painters' steps, as the CLI, the staff and the Inngest function answer them. */
export function ingestResult(plan: IngestPlan, steps: PainterStep[]): IngestResult {
  const queries = [...plan.queries, ...steps.flatMap((s) => s.queries)];
  const left: Partial<Record<SkipReason, number>> = {};
  for (const step of steps) {
    const counts = step.outcome === 'failed' ? { painter_failed: 1 } : step.left;
    for (const [reason, n] of Object.entries(counts)) left[reason as SkipReason] = (left[reason as SkipReason] ?? 0) + (n ?? 0);
  }
  const written = steps.filter((s) => s.outcome === 'written');
  return {
    runId: plan.runId,
    skipped: plan.skipped,
    queuedBefore: plan.queuedBefore,
    painters: written.map((s) => ({ qid: s.qid, slug: s.slug, added: s.added, seen: s.seen })),
    artworksAdded: written.reduce((n, s) => n + s.added, 0),
    taxaAdded: written.reduce((n, s) => n + s.taxaAdded, 0),
    left,
    queries,
  };
}

/**
 * Fills the publication queue from Wikidata: the next qualifying painters not yet ingested, most
 * paintings first, each painter's paintings with an image written as `queued` rows keyed on their
 * Q-ids. Existing rows (the curated works included) are never duplicated or changed. Paintings
 * skipped for want of a label are remembered and taken by a later run once they have one.
 * Every run is recorded (ingest_runs) with its query times, whatever its outcome. The same steps
 * as the Inngest function takes one by one (src/server/jobs/functions.ts), in one call.
 */
export async function ingestCatalog(db: Db, source: WikidataSource, settings: IngestSettings = {}): Promise<IngestResult> {
  const progress = settings.progress ?? (() => undefined);
  if (await painterListDue(db, settings.now ?? new Date())) {
    await refreshPainterList(db, source, PAINTER_RULE, { trigger: settings.trigger ?? 'cli', now: settings.now, progress });
  }
  const plan = await planIngest(db, source, settings);
  if (plan.skipped) return ingestResult(plan, []);
  const steps: PainterStep[] = [];
  try {
    for (const index of plan.work.keys()) {
      const step = await ingestPainter(db, source, plan, index, settings);
      steps.push(step);
      if (tooManyOutOfTime(steps)) throw new SparqlTimeoutError(`${PAINTERS_OUT_OF_TIME} painters in a row ran out of time: the query service is struggling`);
    }
  } catch (error) {
    await finishIngest(db, plan, error).catch(() => undefined);
    throw error;
  }
  await finishIngest(db, plan);
  const result = ingestResult(plan, steps);
  progress(
    `ingest done: ${result.artworksAdded} artworks queued, ${result.taxaAdded} browse pages added, left out ${JSON.stringify(result.left)}, ${result.queries.length} queries`,
  );
  return result;
}

/** Three painters in a row out of time: the service is struggling, not they; the run stops. */
export const tooManyOutOfTime = (steps: PainterStep[]) => steps.length >= PAINTERS_OUT_OF_TIME && steps.slice(-PAINTERS_OUT_OF_TIME).every((s) => s.outcome === 'failed');

/**
 * Records a painter's failed night; answers whether it is now set aside. A second failure in the
 * same UTC night counts once: a retried run must not set a painter aside in one night.
 */
async function recordPainterFailure(db: Db, painterQid: string, lastError: string, now: Date): Promise<boolean> {
  const night = (d: Date) => d.toISOString().slice(0, 10);
  return db.$transaction(async (tx) => {
    const earlier = await tx.painterFailure.findUnique({ where: { painterQid } });
    const nights = !earlier ? 1 : night(earlier.lastFailedAt) === night(now) ? earlier.nights : earlier.nights + 1;
    const setAsideAt = earlier?.setAsideAt ?? (nights >= PAINTER_FAILING_NIGHTS ? now : null);
    await tx.painterFailure.upsert({
      where: { painterQid },
      create: { painterQid, nights, lastError, lastFailedAt: now, setAsideAt },
      update: { nights, lastError, lastFailedAt: now, setAsideAt },
    });
    return setAsideAt !== null;
  });
}

const firstLabel = (l: Labels extends Map<string, infer V> ? V : never) => catalogLocales.map((lang) => l[lang]).find((v) => v) ?? null;

async function writePainter(
  tx: Tx,
  painter: { qid: string; birthYear: number | null; deathYear: number | null; retry: boolean },
  paintings: PaintingFacts[],
  labels: Labels,
  originals: Map<string, OriginalTitle> = new Map(),
): Promise<{ slug: string; added: number; taxaAdded: number; left: Partial<Record<SkipReason, number>> } | { skipped: SkipReason }> {
  const now = new Date();
  let artist = await tx.artist.findUnique({ where: { wikidataId: painter.qid } });
  if (artist?.ingestedAt && !painter.retry) return { skipped: 'painter_taken_meanwhile' };
  const painterLabels = labels.get(painter.qid) ?? {};
  if (!artist) {
    // Never a Q-id as a name: a painter without a label in any language (mul included) waits.
    const known = painterLabels.en ?? firstLabel(painterLabels);
    if (!known) return { skipped: 'painter_without_name' };
    const name = known.slice(0, 300);
    const base = slugify(painterLabels.en ?? '') || catalogLocales.map((l) => slugify(painterLabels[l] ?? '')).find(Boolean) || `painter-${painter.qid.toLowerCase()}`;
    const taken = await takenSlugs(tx, 'artists', [base]);
    const slug = uniqueSlug([base, painter.deathYear ? `${base}-${painter.deathYear}` : ''], taken);
    artist = await tx.artist.create({ data: { wikidataId: painter.qid, slug, name, birthYear: painter.birthYear, deathYear: painter.deathYear } });
    const texts = catalogLocales.flatMap((locale) =>
      painterLabels[locale] ? [{ artistId: artist!.id, locale, name: painterLabels[locale]!.slice(0, 300), source: 'wikidata' as const }] : [],
    );
    if (!texts.some((t) => t.locale === 'en')) texts.push({ artistId: artist.id, locale: 'en', name, source: 'wikidata' });
    await tx.artistText.createMany({ data: texts, skipDuplicates: true });
  }
  const creatorNames = [artist.name, ...Object.values(painterLabels)];

  const taxa = new TaxonResolver(tx, labels);
  const existing = new Set((await tx.artwork.findMany({ where: { wikidataId: { in: paintings.map((p) => p.qid) } }, select: { wikidataId: true } })).map((a) => a.wikidataId));
  // A painting with a label in the six (mul included) or an original-language one is taken; only
  // one with no label at all waits (ingest_skips).
  const titledSomehow = (p: PaintingFacts) => Boolean(firstLabel(labels.get(p.qid) ?? {})) || originals.has(p.qid);
  const fresh = paintings.filter((p) => !existing.has(p.qid) && titledSomehow(p));
  const unlabelled = paintings.filter((p) => !existing.has(p.qid) && !titledSomehow(p));
  const left: Partial<Record<SkipReason, number>> = {};
  if (existing.size) left.in_catalog = existing.size;
  if (unlabelled.length) left.no_label = unlabelled.length;
  const titled = await Promise.all(
    fresh.map(async (p) => {
      const museumNames = (await Promise.all([...new Set([...p.collections, ...p.museums])].map((q) => taxa.name(q)))).filter((n): n is string => Boolean(n));
      const own = labels.get(p.qid) ?? {};
      const titles = Object.fromEntries(
        catalogLocales.flatMap((l) => (own[l] ? [[l, stripDisambiguation(own[l]!, { creatorNames, museumNames }).slice(0, 500)]] : [])),
      ) as Partial<Record<CatalogLocale, string>>;
      // No catalog-language title: the original one, its suffix stripped too; the title pass translates from it.
      const other = Object.keys(titles).length ? undefined : originals.get(p.qid);
      const original = other
        ? { language: other.language.slice(0, 20), title: (stripDisambiguation(other.title, { creatorNames, museumNames }) || other.title).slice(0, 500) }
        : null;
      return { painting: p, titles, original };
    }),
  );
  const bases = titled.map(
    ({ titles, original }) => slugify(titles.en ?? '') || catalogLocales.map((l) => slugify(titles[l] ?? '')).find(Boolean) || slugify(original?.title ?? '') || '',
  );
  const taken = await takenSlugs(tx, 'artworks', [
    ...bases.filter(Boolean).flatMap((b) => [b, joinSlug(b, artist!.slug)]),
    ...titled.filter((_, i) => !bases[i]).map(({ painting }) => joinSlug(artist!.slug, painting.qid.toLowerCase())),
  ]);
  const rows = titled.map(({ painting, titles }, i) => {
    const base = bases[i]!;
    const fallback = joinSlug(artist!.slug, painting.qid.toLowerCase());
    return { painting, titles, slug: uniqueSlug(base ? [base, joinSlug(base, artist!.slug)] : [fallback], taken) };
  });
  const inserted = rows.length
    ? await tx.$queryRaw<{ id: number; wikidata_id: string }[]>`
        INSERT INTO artworks (slug, wikidata_id, artist_id, year, year_precision, height_cm, width_cm, image_file, popularity, status, updated_at)
        SELECT v.slug, v.qid, ${artist.id}, v.year, v.yp::"DatePrecision", v.h, v.w, v.img, v.pop, 'queued', now()
          FROM unnest(${rows.map((r) => r.slug)}::text[], ${rows.map((r) => r.painting.qid)}::text[], ${rows.map((r) => r.painting.year)}::int[],
                      ${rows.map((r) => r.painting.heightCm)}::numeric[], ${rows.map((r) => r.painting.widthCm)}::numeric[],
                      ${rows.map((r) => r.painting.imageFile)}::text[], ${rows.map((r) => r.painting.wikipediaArticles)}::int[],
                      ${rows.map((r) => r.painting.yearPrecision)}::text[]) AS v(slug, qid, year, h, w, img, pop, yp)
        ON CONFLICT (wikidata_id) DO NOTHING RETURNING id, wikidata_id`
    : [];
  const idOf = new Map(inserted.map((r) => [r.wikidata_id, r.id]));
  const originalRows = titled.flatMap(({ painting, original }) => (original && idOf.has(painting.qid) ? [{ id: idOf.get(painting.qid)!, ...original }] : []));
  if (originalRows.length) {
    await tx.$executeRaw`
      UPDATE artworks w SET original_title = v.title, original_language = v.language
        FROM unnest(${originalRows.map((r) => r.id)}::int[], ${originalRows.map((r) => r.title)}::text[], ${originalRows.map((r) => r.language)}::text[]) AS v(id, title, language)
       WHERE w.id = v.id`;
  }
  const texts: { artworkId: number; locale: CatalogLocale; title: string | null; titleSource: 'wikidata' | 'translation' }[] = [];
  const links: { artworkId: number; taxonId: number; viaPainter: boolean }[] = [];
  for (const { painting, titles } of rows) {
    const id = idOf.get(painting.qid);
    if (!id) continue;
    for (const locale of catalogLocales) texts.push({ artworkId: id, locale, title: titles[locale] ?? null, titleSource: titles[locale] ? 'wikidata' : 'translation' });
    const wanted: [Kind, string[]][] = [
      ['museum', painting.museums],
      ['movement', painting.movements],
      ['genre', painting.genres],
      ['subject', painting.depicts.slice(0, SUBJECTS_PER_PAINTING)],
    ];
    const seen = new Set<number>();
    for (const [kind, qids] of wanted) {
      for (const q of qids) {
        const taxonId = await taxa.resolve(kind, q);
        if (taxonId && !seen.has(taxonId)) {
          seen.add(taxonId);
          // A movement from the painter's statements is marked so, to be shown as the painter's.
          links.push({ artworkId: id, taxonId, viaPainter: kind === 'movement' && painting.movementsOfPainter });
        }
      }
    }
  }
  if (texts.length) await tx.artworkText.createMany({ data: texts });
  if (links.length) await tx.artworkTaxon.createMany({ data: links, skipDuplicates: true });
  const added = inserted.length;
  // The painter is done; paintings without a label are remembered for a later run, and those
  // written now are forgotten.
  if (unlabelled.length) {
    await tx.$executeRaw`
      INSERT INTO ingest_skips (wikidata_id, painter_qid, reason, seen_at)
      SELECT q, ${painter.qid}, 'no_label', now() FROM unnest(${unlabelled.map((p) => p.qid)}::text[]) AS q
      ON CONFLICT (wikidata_id) DO UPDATE SET seen_at = now()`;
  }
  await tx.ingestSkip.deleteMany({ where: { wikidataId: { in: [...rows.map((r) => r.painting.qid), ...existing].filter((q): q is string => Boolean(q)) } } });
  await tx.artist.update({ where: { id: artist.id }, data: { ingestedAt: now } });
  if (added) await enqueue(tx, STORIES_EVENT, { painter: painter.qid, artworks: added });
  return { slug: artist.slug, added, taxaAdded: taxa.created, left };
}

/** Slugs in use in `table` equal to a base or starting with `<base>-`. */
async function takenSlugs(tx: Tx, table: 'artists' | 'artworks', bases: string[]): Promise<Set<string>> {
  if (!bases.length) return new Set();
  const patterns = bases.map((b) => `${b}-%`);
  const rows = await tx.$queryRaw<{ slug: string }[]>`
    SELECT slug FROM ${Prisma.raw(table)} WHERE slug = ANY(${bases}::text[]) OR slug LIKE ANY(${patterns}::text[])`;
  return new Set(rows.map((r) => r.slug));
}

/**
 * Finds the browse page a Wikidata item means: by (kind, Q-id), then an alias (the Louvre's
 * painting department is the Louvre), then an editorial page of the seed by the slug of the item's
 * English label (recording the Q-id as an alias), else a new page named by its labels.
 */
class TaxonResolver {
  created = 0;
  private cache = new Map<string, number | null>();
  constructor(
    private tx: Tx,
    private labels: Labels,
  ) {}

  async name(q: string): Promise<string | null> {
    return this.labels.get(q)?.en ?? firstLabel(this.labels.get(q) ?? {});
  }

  async resolve(kind: Kind, q: string): Promise<number | null> {
    const key = `${kind}:${q}`;
    if (!this.cache.has(key)) this.cache.set(key, await this.find(kind, q));
    return this.cache.get(key)!;
  }

  private async find(kind: Kind, q: string): Promise<number | null> {
    const tx = this.tx;
    const byId = await tx.taxon.findUnique({ where: { kind_wikidataId: { kind, wikidataId: q } }, select: { id: true } });
    if (byId) return byId.id;
    const alias = await tx.taxonAlias.findUnique({ where: { wikidataId: q }, select: { taxon: { select: { id: true, kind: true } } } });
    if (alias && alias.taxon.kind === kind) return alias.taxon.id;
    const own = this.labels.get(q) ?? {};
    const english = own.en ? slugify(own.en) : '';
    if (english) {
      const bySlug = await tx.taxon.findUnique({ where: { kind_slug: { kind, slug: english } }, select: { id: true, wikidataId: true } });
      if (bySlug) {
        if (!alias) await tx.taxonAlias.create({ data: { wikidataId: q, taxonId: bySlug.id } });
        return bySlug.id;
      }
    }
    const base = english || catalogLocales.map((l) => slugify(own[l] ?? '')).find(Boolean);
    if (!base) return null; // no name in any catalog language: no browse page for it
    const rows = await tx.$queryRaw<{ slug: string }[]>`
      SELECT slug FROM taxa WHERE kind = ${kind}::"TaxonKind" AND (slug = ${base} OR slug LIKE ${`${base}-%`})`;
    const slug = uniqueSlug([base, `${base}-${q.toLowerCase()}`], new Set(rows.map((r) => r.slug)));
    const taxon = await tx.taxon.create({ data: { kind, slug, wikidataId: q } });
    const name = (own.en ?? firstLabel(own))!.slice(0, 300);
    const texts = catalogLocales.flatMap((locale) => (own[locale] ? [{ taxonId: taxon.id, locale, name: own[locale]!.slice(0, 300), source: 'wikidata' as const }] : []));
    if (!texts.some((t) => t.locale === 'en')) texts.push({ taxonId: taxon.id, locale: 'en', name, source: 'wikidata' });
    await tx.taxonText.createMany({ data: texts });
    this.created++;
    return taxon.id;
  }
}
