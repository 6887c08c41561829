import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/outbox';
import { catalogLocales, type CatalogLocale } from '@/server/shared/locales';
import type { Labels, PaintingFacts, WikidataSource } from '@/server/integrations/wikidata';
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
/** Serialises ingest writes of concurrent runs (the Inngest function also runs one at a time). */
const INGEST_LOCK = 73_050_001;

export interface IngestSettings {
  painters?: number;
  force?: boolean;
  progress?: (line: string) => void;
}

export interface IngestResult {
  skipped: 'queue_full' | null;
  queuedBefore: number;
  painters: { qid: string; slug: string; added: number; seen: number }[];
  artworksAdded: number;
  taxaAdded: number;
}

type Kind = 'museum' | 'movement' | 'genre' | 'subject';

/**
 * Fills the publication queue from Wikidata: the next qualifying painters not yet ingested, most
 * paintings first, each painter's paintings with an image written as `queued` rows keyed on their
 * Q-ids. Existing rows (the curated works included) are never duplicated or changed.
 */
export async function ingestCatalog(db: Db, source: WikidataSource, settings: IngestSettings = {}): Promise<IngestResult> {
  const progress = settings.progress ?? (() => undefined);
  const wanted = settings.painters ?? PAINTERS_PER_RUN;
  const queuedBefore = await db.artwork.count({ where: { status: 'queued' } });
  const result: IngestResult = { skipped: null, queuedBefore, painters: [], artworksAdded: 0, taxaAdded: 0 };
  if (queuedBefore >= QUEUE_TARGET && !settings.force) {
    progress(`queue holds ${queuedBefore} artworks (target ${QUEUE_TARGET}): nothing to ingest (force to run anyway)`);
    return { ...result, skipped: 'queue_full' };
  }

  const chosen: { qid: string; birthYear: number | null; deathYear: number | null }[] = [];
  const pageSize = 100;
  for (let offset = 0; chosen.length < wanted; offset += pageSize) {
    const page = await source.painters(pageSize, offset);
    const qualifying = page.filter((p) => p.deathYear !== null && p.deathYear < DIED_BEFORE && p.paintings >= MIN_PAINTINGS_WITH_IMAGE);
    const done = new Set(
      (await db.artist.findMany({ where: { wikidataId: { in: qualifying.map((p) => p.qid) }, ingestedAt: { not: null } }, select: { wikidataId: true } })).map((a) => a.wikidataId),
    );
    for (const painter of qualifying) if (!done.has(painter.qid) && chosen.length < wanted && !chosen.some((c) => c.qid === painter.qid)) chosen.push(painter);
    if (page.length < pageSize) break;
  }
  progress(`${chosen.length} painters to ingest (queue holds ${queuedBefore})`);

  for (const [index, painter] of chosen.entries()) {
    const paintings = (await source.paintings(painter.qid)).filter((p) => p.imageFile);
    const taxonQids = paintings.flatMap((p) => [...p.collections, ...p.movements, ...p.genres, ...p.depicts.slice(0, SUBJECTS_PER_PAINTING)]);
    const labels = await source.labels([painter.qid, ...paintings.map((p) => p.qid), ...taxonQids]);
    const written = await db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INGEST_LOCK})`;
        return writePainter(tx as Tx, painter, paintings, labels);
      },
      { timeout: 120_000, maxWait: 120_000 },
    );
    if (written) {
      result.painters.push({ qid: painter.qid, slug: written.slug, added: written.added, seen: paintings.length });
      result.artworksAdded += written.added;
      result.taxaAdded += written.taxaAdded;
      progress(`painter ${index + 1}/${chosen.length} ${written.slug} (${painter.qid}): ${written.added} new of ${paintings.length} paintings with an image`);
    } else {
      progress(`painter ${index + 1}/${chosen.length} ${painter.qid}: ingested meanwhile by another run, skipped`);
    }
  }
  progress(`ingest done: ${result.artworksAdded} artworks queued, ${result.taxaAdded} browse pages added`);
  return result;
}

const firstLabel = (l: Labels extends Map<string, infer V> ? V : never) => catalogLocales.map((lang) => l[lang]).find((v) => v) ?? null;

async function writePainter(
  tx: Tx,
  painter: { qid: string; birthYear: number | null; deathYear: number | null },
  paintings: PaintingFacts[],
  labels: Labels,
): Promise<{ slug: string; added: number; taxaAdded: number } | null> {
  const now = new Date();
  let artist = await tx.artist.findUnique({ where: { wikidataId: painter.qid } });
  if (artist?.ingestedAt) return null;
  const painterLabels = labels.get(painter.qid) ?? {};
  if (!artist) {
    const name = (painterLabels.en ?? firstLabel(painterLabels) ?? painter.qid).slice(0, 300);
    const base = slugify(painterLabels.en ?? '') || catalogLocales.map((l) => slugify(painterLabels[l] ?? '')).find(Boolean) || `painter-${painter.qid.toLowerCase()}`;
    const taken = await takenSlugs(tx, 'artists', [base]);
    const slug = uniqueSlug([base, painter.deathYear ? `${base}-${painter.deathYear}` : ''], taken);
    artist = await tx.artist.create({ data: { wikidataId: painter.qid, slug, name, birthYear: painter.birthYear, deathYear: painter.deathYear } });
    const texts = catalogLocales.flatMap((locale) => (painterLabels[locale] ? [{ artistId: artist!.id, locale, name: painterLabels[locale]!.slice(0, 300), source: 'wikidata' as const }] : []));
    if (!texts.some((t) => t.locale === 'en')) texts.push({ artistId: artist.id, locale: 'en', name, source: 'wikidata' });
    await tx.artistText.createMany({ data: texts, skipDuplicates: true });
  }
  const creatorNames = [artist.name, ...Object.values(painterLabels)];

  const taxa = new TaxonResolver(tx, labels);
  const existing = new Set(
    (await tx.artwork.findMany({ where: { wikidataId: { in: paintings.map((p) => p.qid) } }, select: { wikidataId: true } })).map((a) => a.wikidataId),
  );
  const fresh = paintings.filter((p) => !existing.has(p.qid) && firstLabel(labels.get(p.qid) ?? {}));
  const titled = await Promise.all(
    fresh.map(async (p) => {
      const museumNames = (await Promise.all(p.collections.map((q) => taxa.name(q)))).filter((n): n is string => Boolean(n));
      const own = labels.get(p.qid) ?? {};
      const titles = Object.fromEntries(catalogLocales.flatMap((l) => (own[l] ? [[l, stripDisambiguation(own[l]!, { creatorNames, museumNames }).slice(0, 500)]] : []))) as Partial<Record<CatalogLocale, string>>;
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
                      ${rows.map((r) => r.painting.imageFile)}::text[], ${rows.map((r) => r.painting.sitelinks)}::int[]) AS v(slug, qid, year, h, w, img, pop)
        ON CONFLICT (wikidata_id) DO NOTHING RETURNING id, wikidata_id`
    : [];
  const idOf = new Map(inserted.map((r) => [r.wikidata_id, r.id]));
  const texts: { artworkId: number; locale: CatalogLocale; title: string | null; titleSource: 'wikidata' | 'translation' }[] = [];
  const links: { artworkId: number; taxonId: number }[] = [];
  for (const { painting, titles } of rows) {
    const id = idOf.get(painting.qid);
    if (!id) continue;
    for (const locale of catalogLocales) texts.push({ artworkId: id, locale, title: titles[locale] ?? null, titleSource: titles[locale] ? 'wikidata' : 'translation' });
    const wanted: [Kind, string[]][] = [['museum', painting.collections], ['movement', painting.movements], ['genre', painting.genres], ['subject', painting.depicts.slice(0, SUBJECTS_PER_PAINTING)]];
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
  await tx.artist.update({ where: { id: artist.id }, data: { ingestedAt: now } });
  if (added) await enqueue(tx, STORIES_EVENT, { painter: painter.qid, artworks: added });
  return { slug: artist.slug, added, taxaAdded: taxa.created };
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
