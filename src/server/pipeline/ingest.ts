import 'server-only';
import { Prisma, type PublishTrigger } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { lockForTransaction } from '@/server/db/locks';
import { RateLimitedError } from '@/server/integrations/http';
import { SparqlTimeoutError, type Labels, type PaintingFacts, type QueryRecord, type WikidataSource } from '@/server/integrations/wikidata';
import { enqueue } from '@/server/jobs/outbox';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';
import { joinSlug, slugify, uniqueSlug } from './slug';
import { stripDisambiguation } from './titles';

/** Ingest runs only while fewer artworks than this are queued, unless forced (interface.md §8). */
export const QUEUE_TARGET = 15_000;
export const PAINTERS_PER_RUN = 20;
export const MIN_PAINTINGS_WITH_IMAGE = 5;
/** A painter qualifies when they died before this year (public domain everywhere that matters). */
export const DIED_BEFORE = 1926;
export const SUBJECTS_PER_PAINTING = 8;
/** Outbox event that asks for stories after an ingest added works. */
export const STORIES_EVENT = 'catalog/stories.requested';

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
  heavyQueries: number;
  queries: QueryRecord[];
}

type Kind = 'museum' | 'movement' | 'genre' | 'subject';
/** Painters whose unlabelled paintings are looked at again per run: each costs two light queries. */
export const RELABEL_PAINTERS_PER_RUN = 10;

/**
 * Fills the publication queue from Wikidata: the next qualifying painters not yet ingested, most
 * paintings first, each painter's paintings with an image written as `queued` rows keyed on their
 * Q-ids. Existing rows (the curated works included) are never duplicated or changed. Paintings
 * skipped for want of a label are remembered and taken by a later run once they have one.
 * Every run is recorded (ingest_runs) with its query times, whatever its outcome.
 */
export async function ingestCatalog(db: Db, source: WikidataSource, settings: IngestSettings = {}): Promise<IngestResult> {
  const progress = settings.progress ?? (() => undefined);
  const wanted = settings.painters ?? PAINTERS_PER_RUN;
  const startedAt = settings.now ?? new Date();
  // A run that died (its process killed, its step cut) stays `running`: past its lease it failed.
  await db.ingestRun.updateMany({
    where: { outcome: 'running', startedAt: { lt: new Date(startedAt.getTime() - RUN_LEASE_MS) } },
    data: { outcome: 'failed', finishedAt: startedAt, errors: ['the run stopped without finishing (past its lease); the next run took over'] },
  });
  const queuedBefore = await db.artwork.count({ where: { status: 'queued' } });
  const run = await db.ingestRun.create({ data: { trigger: settings.trigger ?? 'cli', startedAt, painters: [], errors: [] } });
  const queries: QueryRecord[] = [];
  const trace = (q: QueryRecord) => {
    queries.push(q);
    progress(`query ${q.kind}${q.heavy ? ' (heavy)' : ''}: ${q.ms} ms, ${q.rows} rows${q.error ? `, failed: ${q.error}` : ''}`);
  };
  const result: IngestResult = { runId: run.id, skipped: null, queuedBefore, painters: [], artworksAdded: 0, taxaAdded: 0, left: {}, heavyQueries: 0, queries };
  /** Painters that failed this run, for its record; the run goes on without them. */
  const failures: string[] = [];
  let timeoutsInARow = 0;
  const count = (reason: SkipReason, n = 1) => n && (result.left[reason] = (result.left[reason] ?? 0) + n);
  const finish = (outcome: string, errors: string[] = []) =>
    db.ingestRun.update({
      where: { id: run.id },
      data: {
        outcome,
        errors,
        finishedAt: new Date(),
        painters: result.painters.map((p) => `${p.qid} ${p.slug}`),
        worksQueued: result.artworksAdded,
        skipped: result.left,
        heavyQueries: queries.filter((q) => q.heavy).length,
        queries: queries as unknown as Prisma.InputJsonValue,
        queryMs: queries.reduce((n, q) => n + q.ms, 0),
      },
    });

  try {
    if (queuedBefore >= QUEUE_TARGET && !settings.force) {
      progress(`queue holds ${queuedBefore} artworks (target ${QUEUE_TARGET}): nothing to ingest (force to run anyway)`);
      await finish('queue_full');
      return { ...result, skipped: 'queue_full' };
    }

    // Paintings an earlier run skipped for want of a label: one labels query tells which have one now.
    const skips = await db.ingestSkip.findMany({ where: { reason: 'no_label' }, orderBy: { seenAt: 'asc' }, take: 2_000 });
    const relabelled = skips.length
      ? await source.labels(
          skips.map((s) => s.wikidataId),
          trace,
        )
      : new Map();
    const retry = [...new Set(skips.filter((s) => relabelled.has(s.wikidataId)).map((s) => s.painterQid))].slice(0, RELABEL_PAINTERS_PER_RUN);
    const retryPainters = await db.artist.findMany({ where: { wikidataId: { in: retry } }, select: { wikidataId: true, birthYear: true, deathYear: true } });

    // The run's one heavy query: every qualifying painter, most paintings first. Painters already
    // ingested are left out here, from our own table, never by paging past them at Wikidata.
    const candidates = wanted > 0 ? await source.painters({ diedBefore: DIED_BEFORE, minPaintings: MIN_PAINTINGS_WITH_IMAGE }, trace) : [];
    const qualifying = candidates.filter((p) => p.deathYear !== null && p.deathYear < DIED_BEFORE && p.paintings >= MIN_PAINTINGS_WITH_IMAGE);
    const done = new Set(
      (await db.artist.findMany({ where: { wikidataId: { in: qualifying.map((p) => p.qid) }, ingestedAt: { not: null } }, select: { wikidataId: true } })).map(
        (a) => a.wikidataId,
      ),
    );
    const setAside = new Set(
      (await db.painterFailure.findMany({ where: { painterQid: { in: qualifying.map((p) => p.qid) }, setAsideAt: { not: null } }, select: { painterQid: true } })).map(
        (f) => f.painterQid,
      ),
    );
    const chosen = qualifying.filter((p) => !done.has(p.qid) && !setAside.has(p.qid)).slice(0, wanted);
    progress(
      `${chosen.length} painters to ingest of ${qualifying.length} qualifying (${done.size} done before), ${retryPainters.length} to look at again (queue holds ${queuedBefore})`,
    );

    const work = [
      ...retryPainters.map((a) => ({ qid: a.wikidataId!, birthYear: a.birthYear, deathYear: a.deathYear, retry: true })),
      ...chosen.map((p) => ({ ...p, retry: false })),
    ];
    for (const [index, painter] of work.entries()) {
      let all: PaintingFacts[];
      let labels: Labels;
      try {
        all = await source.paintings(painter.qid, { diedBefore: DIED_BEFORE }, trace);
        const withImage = all.filter((p) => p.imageFile);
        const taxonQids = withImage.flatMap((p) => [...p.collections, ...p.movements, ...p.genres, ...p.depicts.slice(0, SUBJECTS_PER_PAINTING)]);
        labels = await source.labels([painter.qid, ...withImage.map((p) => p.qid), ...taxonQids], trace);
      } catch (error) {
        // Only a query that ran out of time, even at the smallest page, is this painter's (a heavy
        // one): recorded, skipped, tried again next night. Anything else is the service's: a 429
        // asking us to wait, a 5xx after every retry, the network. The run stops rather than send
        // the next painters' queries into it; the painters are tried again by the next run, and
        // an outage never sets one aside. Three painters in a row out of time: the service is
        // struggling, not they.
        if (!(error instanceof SparqlTimeoutError) || ++timeoutsInARow >= PAINTERS_OUT_OF_TIME) throw error;
        const message = error instanceof Error ? error.message.slice(0, 500) : String(error);
        const setAside = await recordPainterFailure(db, painter.qid, message, startedAt);
        count('painter_failed');
        failures.push(`${painter.qid}: ${message}`);
        progress(
          `painter ${index + 1}/${work.length} ${painter.qid} failed (${message})${setAside ? `: set aside after ${PAINTER_FAILING_NIGHTS} nights` : ', tried again next run'}`,
        );
        continue;
      }
      const paintings = all.filter((p) => p.imageFile);
      const written = await db.$transaction(
        async (tx) => {
          await lockForTransaction(tx, 'ingest');
          return writePainter(tx as Tx, painter, paintings, labels);
        },
        { timeout: 120_000, maxWait: 120_000 },
      );
      if ('skipped' in written) {
        count(written.skipped);
        progress(
          `painter ${index + 1}/${work.length} ${painter.qid}: ${written.skipped === 'painter_without_name' ? 'no name in any language (mul included), left for a later run' : 'ingested meanwhile by another run, skipped'}`,
        );
        continue;
      }
      timeoutsInARow = 0;
      await db.painterFailure.deleteMany({ where: { painterQid: painter.qid } });
      // Counted for the run that wrote the painter (two runs at once fetch the same painters).
      if (!painter.retry) count('no_image', all.length - paintings.length);
      for (const [reason, n] of Object.entries(written.left)) if (!painter.retry || reason !== 'in_catalog') count(reason as SkipReason, n);
      result.painters.push({ qid: painter.qid, slug: written.slug, added: written.added, seen: paintings.length });
      result.artworksAdded += written.added;
      result.taxaAdded += written.taxaAdded;
      progress(
        `painter ${index + 1}/${work.length} ${written.slug} (${painter.qid})${painter.retry ? ' again' : ''}: ${written.added} new of ${paintings.length} paintings with an image`,
      );
    }
    result.heavyQueries = queries.filter((q) => q.heavy).length;
    progress(
      `ingest done: ${result.artworksAdded} artworks queued, ${result.taxaAdded} browse pages added, left out ${JSON.stringify(result.left)}, ${result.heavyQueries} heavy quer${result.heavyQueries === 1 ? 'y' : 'ies'}`,
    );
    await finish('done', failures);
    return result;
  } catch (error) {
    const outcome = error instanceof RateLimitedError ? 'rate_limited' : 'failed';
    await finish(outcome, [...failures, error instanceof Error ? error.message.slice(0, 500) : String(error)]).catch(() => undefined);
    throw error;
  }
}

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
  const fresh = paintings.filter((p) => !existing.has(p.qid) && firstLabel(labels.get(p.qid) ?? {}));
  const unlabelled = paintings.filter((p) => !existing.has(p.qid) && !firstLabel(labels.get(p.qid) ?? {}));
  const left: Partial<Record<SkipReason, number>> = {};
  if (existing.size) left.in_catalog = existing.size;
  if (unlabelled.length) left.no_label = unlabelled.length;
  const titled = await Promise.all(
    fresh.map(async (p) => {
      const museumNames = (await Promise.all(p.collections.map((q) => taxa.name(q)))).filter((n): n is string => Boolean(n));
      const own = labels.get(p.qid) ?? {};
      const titles = Object.fromEntries(
        catalogLocales.flatMap((l) => (own[l] ? [[l, stripDisambiguation(own[l]!, { creatorNames, museumNames }).slice(0, 500)]] : [])),
      ) as Partial<Record<CatalogLocale, string>>;
      return { painting: p, titles };
    }),
  );
  const bases = titled.map(({ titles }) => slugify(titles.en ?? '') || catalogLocales.map((l) => slugify(titles[l] ?? '')).find(Boolean) || '');
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
        INSERT INTO artworks (slug, wikidata_id, artist_id, year, height_cm, width_cm, image_file, popularity, status, updated_at)
        SELECT v.slug, v.qid, ${artist.id}, v.year, v.h, v.w, v.img, v.pop, 'queued', now()
          FROM unnest(${rows.map((r) => r.slug)}::text[], ${rows.map((r) => r.painting.qid)}::text[], ${rows.map((r) => r.painting.year)}::int[],
                      ${rows.map((r) => r.painting.heightCm)}::numeric[], ${rows.map((r) => r.painting.widthCm)}::numeric[],
                      ${rows.map((r) => r.painting.imageFile)}::text[], ${rows.map((r) => r.painting.wikipediaArticles)}::int[]) AS v(slug, qid, year, h, w, img, pop)
        ON CONFLICT (wikidata_id) DO NOTHING RETURNING id, wikidata_id`
    : [];
  const idOf = new Map(inserted.map((r) => [r.wikidata_id, r.id]));
  const texts: { artworkId: number; locale: CatalogLocale; title: string | null; titleSource: 'wikidata' | 'translation' }[] = [];
  const links: { artworkId: number; taxonId: number }[] = [];
  for (const { painting, titles } of rows) {
    const id = idOf.get(painting.qid);
    if (!id) continue;
    for (const locale of catalogLocales) texts.push({ artworkId: id, locale, title: titles[locale] ?? null, titleSource: titles[locale] ? 'wikidata' : 'translation' });
    const wanted: [Kind, string[]][] = [
      ['museum', painting.collections],
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
          links.push({ artworkId: id, taxonId });
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
