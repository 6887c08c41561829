import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import { kindOf, pluralOf, taxonKinds, type TaxonKindPlural } from '@/shared/catalog';
import { textLocale, type Locale } from '@/shared/locales';
import { BROWSE_PAGE_MIN_WORKS } from './counts';
import {
  PAGE_SIZE,
  type ArtistCard,
  type ArtworkCard,
  type ArtworksQuery,
  type ArtworkSearchPage,
  type Page,
  SUGGESTIONS_MAX,
  type Suggestion,
  type TaxonCard,
  type TaxonRef,
} from './schema';
import { commonsUrl, isSlug } from './text';

/**
 * Reading the public catalog. Only published rows are ever read; every list is one round trip
 * for its page (plus one for its total where no stored count answers it), whatever its length.
 */

interface CardRow {
  slug: string;
  title: string;
  year: number | null;
  width_cm: number | null;
  height_cm: number | null;
  image_file: string | null;
  artist_slug: string;
  artist_name: string;
}

/** The text-joining half of an artwork card, over a subquery `w` of artworks already chosen and ordered by `ord`. */
function cards(chosen: Prisma.Sql, locale: Locale, extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT w.slug${extra}, w.year, w.width_cm::float8 AS width_cm, w.height_cm::float8 AS height_cm, w.image_file,
           COALESCE(tl.title, te.title,
             (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1),
             w.slug) AS title,
           a.slug AS artist_slug, COALESCE(al.name, a.name) AS artist_name
      FROM (${chosen}) w
      JOIN artists a ON a.id = w.artist_id
      LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
      LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
     ORDER BY w.ord`;
}

function toCard(row: CardRow): ArtworkCard {
  return {
    slug: row.slug,
    title: row.title,
    artist: { slug: row.artist_slug, name: row.artist_name },
    year: row.year,
    widthCm: row.width_cm,
    heightCm: row.height_cm,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  };
}

/** The longest title (in bytes) the covering folded-title index holds (migration 20261122160000). */
const SHORT_TITLE_BYTES = Prisma.raw('800');

/** From this many published works a browse-page filter walks the popularity index (see listArtworks). */
const LARGE_BROWSE_PAGE = 2_500;

const offsetOf = (page: number) => (page - 1) * PAGE_SIZE;
const emptyPage = <T>(page: number): Page<T> => ({ items: [], total: 0, page, pageSize: PAGE_SIZE });

/** Escapes LIKE's wildcards so a shopper's `%` or `_` is matched as itself. */
const likeLiteral = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Chinese, Japanese and Korean characters, as `cjk_grams()` in the database collects them. */
const CJK = /^[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+$/;

/**
 * One search word. Three characters or more: a substring of the folded search text, served by
 * its trigram index. A one- or two-character CJK word (川, 庭園) has no trigram, so it is found
 * through the index of the text's CJK characters and character pairs, which holds it exactly.
 */
function wordFilter(word: string): Prisma.Sql {
  if ([...word].length <= 2 && CJK.test(word)) return Prisma.sql`cjk_grams(w.search_text) @> cjk_grams(shop_fold(${word}))`;
  return Prisma.sql`w.search_text LIKE '%' || shop_fold(${likeLiteral(word)}) || '%'`;
}

/** A search that finds fewer works than this on its first page looks for a close title or name. */
export const FEW_RESULTS = 3;
/** What was typed must have this many letters (spaces aside) before a misspelling is guessed at. */
const MIN_FORGIVEN = 4;
/** How close (pg_trgm similarity or word similarity, 0 to 1) a title or name must be to be suggested. */
const CLOSE_ENOUGH = 0.5;
/** Any CJK character: trigrams of one- and two-character words say nothing, so those are never guessed at. */
const HAS_CJK = /[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/**
 * The artworks list. A search that finds fewer than FEW_RESULTS works on page 1 asks which title
 * (any language) or artist name is closest to what was typed (pg_trgm word similarity, on the
 * trigram indexes of migration 20261124040000_search_forgives) and searches that: when the
 * search found nothing, the answer is that search's results with `suggestion.shown`; when it found
 * one or two, they stay and the suggestion is only offered. A suggestion is offered only when it
 * finds more than what was typed did.
 */
export async function listArtworks(db: Db, query: ArtworksQuery): Promise<ArtworkSearchPage> {
  const found = await artworkPage(db, query);
  const q = (query.q ?? '').trim();
  if (query.page !== 1 || found.total >= FEW_RESULTS || q.replace(/\s+/g, '').length < MIN_FORGIVEN || HAS_CJK.test(q)) {
    return { ...found, suggestion: null };
  }
  const closest = await closestText(db, q);
  if (!closest) return { ...found, suggestion: null };
  const instead = await artworkPage(db, { ...query, q: closest });
  if (instead.total <= found.total) return { ...found, suggestion: null };
  return found.total === 0 ? { ...instead, suggestion: { q: closest, shown: true } } : { ...found, suggestion: { q: closest, shown: false } };
}

/**
 * The published title (any language) or artist name closest to `q`, or null when none is close
 * (word similarity under pg_trgm's default threshold, 0.6). Each candidate set is read through a
 * trigram index (`<%`); the closest by word similarity, then by whole similarity (a name of about
 * the typed length wins), then the better known.
 */
async function closestText(db: Db, q: string): Promise<string | null> {
  // `%` (whole similarity, threshold 0.3) or `<%` (word similarity, threshold 0.6): "monalisa" is
  // 0.58 like "Mona Lisa" as a whole, "sternenacht" 0.92 like a stretch of "die sternennacht".
  const near = (v: Prisma.Sql) => Prisma.sql`(t.f % ${v} OR t.f <% ${v})`;
  const closeness = (v: Prisma.Sql) => Prisma.sql`greatest(word_similarity(t.f, ${v}), similarity(t.f, ${v}))`;
  const [row] = await db.$queryRaw<{ text: string }[]>(Prisma.sql`
    WITH typed AS (SELECT shop_fold(${q}) AS f)
    SELECT c.text FROM (
      (SELECT x.title AS text, ${closeness(Prisma.sql`shop_fold(x.title)`)} AS ws, similarity(t.f, shop_fold(x.title)) AS s, w.popularity AS known
         FROM typed t JOIN artwork_texts x ON ${near(Prisma.sql`shop_fold(x.title)`)}
         JOIN artworks w ON w.id = x.artwork_id AND w.status = 'published'
        ORDER BY ws DESC, s DESC, known DESC LIMIT 5)
      UNION ALL
      (SELECT a.name, ${closeness(Prisma.sql`shop_fold(a.name)`)}, similarity(t.f, shop_fold(a.name)), a.artwork_count * 1000
         FROM typed t JOIN artists a ON ${near(Prisma.sql`shop_fold(a.name)`)} AND a.status = 'published' AND a.artwork_count > 0
        ORDER BY 2 DESC, 3 DESC LIMIT 5)
      UNION ALL
      (SELECT n.name, ${closeness(Prisma.sql`shop_fold(n.name)`)}, similarity(t.f, shop_fold(n.name)), a.artwork_count * 1000
         FROM typed t JOIN artist_texts n ON ${near(Prisma.sql`shop_fold(n.name)`)}
         JOIN artists a ON a.id = n.artist_id AND a.status = 'published' AND a.artwork_count > 0
        ORDER BY 2 DESC, 3 DESC LIMIT 5)
    ) c WHERE c.ws >= ${CLOSE_ENOUGH} ORDER BY c.ws DESC, c.s DESC, c.known DESC LIMIT 1`);
  return row && row.text.trim().toLowerCase() !== q.toLowerCase() ? row.text.trim() : null;
}

interface SuggestionRow {
  kind: 'artwork' | 'artist';
  slug: string;
  label: string;
  sublabel: string | null;
}

/**
 * Suggestions while typing: at most SUGGESTIONS_MAX artworks and artists whose title (in any
 * language) or name starts with, contains or nearly matches what was typed, in the asked
 * language. Ranked: a title or name that starts with it, then one with a word starting with it,
 * then by word similarity, then the better known. One- and two-character CJK input is found
 * through the CJK character index of the search text, like the search itself.
 */
export async function searchSuggestions(db: Db, q: string, locale: Locale): Promise<{ items: Suggestion[] }> {
  const lang = textLocale(locale);
  const typed = q.trim();
  const shortCjk = [...typed].length <= 2 && CJK.test(typed);
  const like = likeLiteral(typed);
  // How well a folded text `v` answers: 3 starts with it, 2 a word starts with it, 1 contains it; plus similarity.
  const score = (v: Prisma.Sql) => Prisma.sql`
    (CASE WHEN ${v} LIKE t.lf || '%' THEN 3 WHEN ${v} LIKE '% ' || t.lf || '%' THEN 2 WHEN ${v} LIKE '%' || t.lf || '%' THEN 1 ELSE 0 END
     + greatest(word_similarity(t.f, ${v}), similarity(t.f, ${v})))`;
  // Strict word similarity (`<<%`, threshold 0.5: a whole stretch of words) catches a
  // run-together or split name ("monalisa"); from 5 characters on, since a short prefix would
  // match a good share of all titles.
  const whole = [...typed].length >= 5;
  const matches = (v: Prisma.Sql) =>
    whole ? Prisma.sql`(${v} LIKE '%' || t.lf || '%' OR t.f <% ${v} OR t.f <<% ${v})` : Prisma.sql`(${v} LIKE '%' || t.lf || '%' OR t.f <% ${v})`;
  // Each matching title is folded once (unaccent is the costly part), then scored.
  const artworkHits = shortCjk
    ? Prisma.sql`
      SELECT w.id, max(${score(Prisma.sql`f.v`)}) AS score
        FROM typed t JOIN artworks w ON cjk_grams(w.search_text) @> cjk_grams(t.f) AND w.status = 'published'
        JOIN artwork_texts x ON x.artwork_id = w.id
        CROSS JOIN LATERAL (SELECT shop_fold(x.title) AS v OFFSET 0) f
       WHERE f.v LIKE '%' || t.lf || '%'
       GROUP BY w.id`
    : Prisma.sql`
      SELECT x.artwork_id AS id, max(${score(Prisma.sql`f.v`)}) AS score
        FROM typed t JOIN artwork_texts x ON ${matches(Prisma.sql`shop_fold(x.title)`)}
        CROSS JOIN LATERAL (SELECT shop_fold(x.title) AS v OFFSET 0) f
       GROUP BY x.artwork_id`;
  const artistHits = Prisma.sql`
      SELECT h.id, max(h.score) AS score FROM (
        SELECT a.id, ${score(Prisma.sql`shop_fold(a.name)`)} AS score
          FROM typed t JOIN artists a ON ${matches(Prisma.sql`shop_fold(a.name)`)} AND a.status = 'published'
        UNION ALL
        SELECT n.artist_id, ${score(Prisma.sql`shop_fold(n.name)`)}
          FROM typed t JOIN artist_texts n ON ${matches(Prisma.sql`shop_fold(n.name)`)}
      ) h GROUP BY h.id`;
  const rows = await db.$queryRaw<SuggestionRow[]>(Prisma.sql`
    WITH typed AS (SELECT shop_fold(${typed}) AS f, shop_fold(${like}) AS lf)
    SELECT s.kind, s.slug, s.label, s.sublabel FROM (
      (SELECT 'artwork' AS kind, w.slug, w.score, w.popularity AS known,
              COALESCE(tl.title, te.title,
                (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1), w.slug) AS label,
              COALESCE(al.name, a.name) AS sublabel
         -- The best few first, then their labels: a common prefix matches thousands of titles.
         FROM (SELECT w.id, w.slug, w.popularity, w.artist_id, h.score
                 FROM (${artworkHits}) h
                 JOIN artworks w ON w.id = h.id AND w.status = 'published'
                ORDER BY h.score DESC, w.popularity DESC, w.id LIMIT ${SUGGESTIONS_MAX}) w
         JOIN artists a ON a.id = w.artist_id
         LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
         LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
         LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang})
      UNION ALL
      (SELECT 'artist', a.slug, h.score, a.artwork_count * 1000, COALESCE(al.name, a.name),
              CASE WHEN a.birth_year IS NULL AND a.death_year IS NULL THEN NULL
                   ELSE concat_ws('–', a.birth_year::text, a.death_year::text) END
         FROM (${artistHits}) h
         JOIN artists a ON a.id = h.id AND a.status = 'published' AND a.artwork_count > 0
         LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
        ORDER BY h.score DESC, a.artwork_count DESC, a.id LIMIT 3)
    ) s ORDER BY s.score DESC, s.known DESC, s.kind DESC, s.slug LIMIT ${SUGGESTIONS_MAX}`);
  return { items: rows.map((r) => ({ kind: r.kind, slug: r.slug, label: r.label, sublabel: r.sublabel })) };
}

/** What an artist or browse page read already knows of its filter: its id and stored count. */
interface KnownFilter {
  artist?: { id: number; artworkCount: number };
  taxon?: { kind: (typeof kindOf)[TaxonKindPlural]; id: number; artworkCount: number };
}

/**
 * A page of artwork cards. `known` spares the artist and browse pages the statements that would
 * look up again what their own main statement just read (the filter's id and its stored count).
 */
async function artworkPage(db: Db, query: ArtworksQuery, known: KnownFilter = {}): Promise<Page<ArtworkCard>> {
  const filters: Prisma.Sql[] = [Prisma.sql`w.status = 'published'`];
  let storedTotal: Prisma.Sql | number | null = Prisma.sql`SELECT COALESCE(sum(artwork_count), 0)::int AS n FROM artists WHERE status = 'published'`;

  if (query.artist) {
    if (!isSlug(query.artist)) return emptyPage(query.page);
    if (known.artist) {
      filters.push(Prisma.sql`w.artist_id = ${known.artist.id}`);
      storedTotal = known.artist.artworkCount;
    } else {
      filters.push(Prisma.sql`w.artist_id = (SELECT id FROM artists WHERE slug = ${query.artist} AND status = 'published')`);
      storedTotal = Prisma.sql`SELECT COALESCE((SELECT artwork_count FROM artists WHERE slug = ${query.artist} AND status = 'published'), 0) AS n`;
    }
  }
  const taxonFilters = (['museum', 'movement', 'genre', 'subject'] as const).filter((kind) => query[kind]);
  if (taxonFilters.some((kind) => !isSlug(query[kind]!))) return emptyPage(query.page);
  const taxa = await Promise.all(
    taxonFilters.map((kind) =>
      known.taxon?.kind === kind ? known.taxon : db.taxon.findUnique({ where: { kind_slug: { kind, slug: query[kind]! } }, select: { id: true, artworkCount: true } }),
    ),
  );
  if (taxa.some((taxon) => !taxon)) return emptyPage(query.page);
  // Browse-page filters by known id. A small page's works (a museum's few hundred) are collected
  // from its links first; a page with thousands of works is served by walking the best-known
  // works and probing each one's links by primary key until a page is full (3–5 ms instead of
  // 15–30 ms for collecting and sorting 5,000 works). Between the two the planner misjudges the
  // walk, so the stored count decides.
  const smallest = Math.min(...taxa.map((taxon) => taxon!.artworkCount));
  const walk = taxa.length > 0 && smallest >= LARGE_BROWSE_PAGE;
  const linked =
    taxa.length && !walk
      ? Prisma.sql`WITH linked AS MATERIALIZED (${Prisma.join(
          taxa.map((taxon) => Prisma.sql`SELECT artwork_id FROM artwork_taxa WHERE taxon_id = ${taxon!.id}`),
          ' INTERSECT ',
        )}) `
      : Prisma.empty;
  if (taxa.length && !walk) filters.push(Prisma.sql`w.id IN (SELECT artwork_id FROM linked)`);
  if (walk) {
    for (const taxon of taxa) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM artwork_taxa l WHERE l.artwork_id = w.id AND l.taxon_id = ${taxon!.id})`);
  }
  if (taxa.length === 1) storedTotal = taxa[0]!.artworkCount;
  if (query.featured) filters.push(Prisma.sql`w.featured`);
  const words = (query.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  for (const word of words) filters.push(wordFilter(word));
  // A stored count answers the total only when one filter (or none) is in play.
  const filterCount = (query.artist ? 1 : 0) + taxonFilters.length + (query.featured ? 1 : 0) + words.length;
  if (filterCount > 1 || query.featured || words.length) storedTotal = null;

  const where = Prisma.join(filters, ' AND ');
  const q = words.join(' ');
  const window = Prisma.sql`LIMIT ${PAGE_SIZE} OFFSET ${offsetOf(query.page)}`;
  // Search ranks an exact title (in any language) first, then titles starting with the words,
  // then the best known. Both title sets come from the folded-title index, not from each match.
  // Titles of up to 800 bytes are read from a covering index (no table row, no folding per row),
  // longer ones from a small index of their own; each half names its index's condition.
  const titles = (match: Prisma.Sql) => Prisma.sql`
    SELECT x.artwork_id FROM artwork_texts x WHERE octet_length(x.title) <= ${SHORT_TITLE_BYTES} AND ${match}
    UNION ALL
    SELECT x.artwork_id FROM artwork_texts x WHERE octet_length(x.title) > ${SHORT_TITLE_BYTES} AND ${match}`;
  const exact = titles(Prisma.sql`shop_fold(x.title) = shop_fold(${q})`);
  const prefix = titles(Prisma.sql`shop_fold(x.title) LIKE shop_fold(${likeLiteral(q)}) || '%'`);
  const chosen = words.length
    ? Prisma.sql`${linked}
        SELECT p.*, row_number() OVER (ORDER BY p.exact DESC, p.prefix DESC, p.popularity DESC, p.id) AS ord FROM (
          SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity,
                 w.id IN (${exact}) AS exact, w.id IN (${prefix}) AS prefix, count(*) OVER () AS matches
            FROM artworks w
           WHERE ${where}
           ORDER BY exact DESC, prefix DESC, w.popularity DESC, w.id ${window}) p`
    : // The page's ids first (an index-only walk of the popularity index when unfiltered), then
      // their rows: a deep page (OFFSET 96,000) skips index entries, not table rows (165 ms → 17 ms).
      Prisma.sql`${linked}
        SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity,
               row_number() OVER (ORDER BY w.popularity DESC, w.id) AS ord
          FROM artworks w
         WHERE w.id IN (SELECT w.id FROM artworks w WHERE ${where} ORDER BY w.popularity DESC, w.id ${window})`;
  const countAll = Prisma.sql`${linked}SELECT count(*) AS n FROM artworks w WHERE ${where}`;
  if (words.length) {
    // A search ranks every match anyway, so the page's rows carry the number of matches.
    const rows = await db.$queryRaw<(CardRow & { matches: bigint })[]>(cards(chosen, query.locale, Prisma.sql`, w.matches`));
    const total = rows.length ? Number(rows[0]!.matches) : query.page === 1 ? 0 : await count(db, countAll);
    return { items: rows.map(toCard), total, page: query.page, pageSize: PAGE_SIZE };
  }
  const [rows, total] = await Promise.all([
    db.$queryRaw<CardRow[]>(cards(chosen, query.locale)),
    typeof storedTotal === 'number' ? storedTotal : count(db, storedTotal ?? countAll),
  ]);
  return { items: rows.map(toCard), total, page: query.page, pageSize: PAGE_SIZE };
}

async function count(db: Db, sql: Prisma.Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>(sql);
  return Number(row?.n ?? 0);
}

/** Cards for the given slugs in the order given; unknown and unpublished slugs are left out. */
export async function artworksBySlugs(db: Db, slugs: string[], locale: Locale): Promise<ArtworkCard[]> {
  const wanted = [...new Set(slugs.filter(isSlug))];
  if (!wanted.length) return [];
  const chosen = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, array_position(${wanted}::text[], w.slug) AS ord
      FROM artworks w WHERE w.slug = ANY(${wanted}::text[]) AND w.status = 'published'`;
  return (await db.$queryRaw<CardRow[]>(cards(chosen, locale))).map(toCard);
}

interface DetailRow extends CardRow {
  id: number;
  artist_id: number;
  story: string | null;
  wikidata_id: string | null;
  featured: boolean;
  published_at: Date | null;
  taxa: { id: number; kind: keyof typeof pluralOf; slug: string; name: string; works: number }[];
}

/** An artwork with its story and browse pages in one statement, then its related works in a second. */
export async function artworkDetail(db: Db, slug: string, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<DetailRow[]>(Prisma.sql`
        SELECT c.*, w.wikidata_id, w.featured, w.published_at, COALESCE(tl.story, te.story) AS story,
               COALESCE((SELECT json_agg(json_build_object('id', t.id, 'kind', t.kind, 'slug', t.slug, 'name', COALESCE(xl.name, xe.name, t.slug), 'works', t.artwork_count))
                           FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id
                           LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
                           LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
                          WHERE l.artwork_id = w.id), '[]') AS taxa
          FROM (${cards(Prisma.sql`SELECT w.*, 1 AS ord FROM artworks w WHERE w.slug = ${slug} AND w.status = 'published'`, locale, Prisma.sql`, w.id, w.artist_id`)}) c
          JOIN artworks w ON w.id = c.id
          LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
          LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No artwork in the catalog has the slug "${slug}".`);
  const taxa: TaxonRef[] = row.taxa
    .map((taxon) => ({ kind: pluralOf[taxon.kind], slug: taxon.slug, name: taxon.name, hasPage: taxon.works >= BROWSE_PAGE_MIN_WORKS }))
    .sort((a, b) => taxonKinds.indexOf(a.kind) - taxonKinds.indexOf(b.kind) || a.name.localeCompare(b.name));
  return {
    artwork: {
      ...toCard(row),
      story: row.story,
      wikidataId: row.wikidata_id,
      featured: row.featured,
      publishedAt: row.published_at?.toISOString() ?? null,
      taxa,
    },
    related: await relatedWorks(
      db,
      row.id,
      row.artist_id,
      row.taxa.filter((t) => t.kind === 'movement'),
      locale,
    ),
  };
}

const RELATED = 8;

/** Past this many published works a movement's best known works are found by walking the popularity index. */
const LARGE_MOVEMENT = 1_000;

/** Up to 8 other works: the artist's best known first, then the best known of the same movements. */
async function relatedWorks(db: Db, artworkId: number, artistId: number, movements: { id: number; works: number }[], locale: Locale): Promise<ArtworkCard[]> {
  const movementIds = movements.map((m) => m.id);
  // A large movement (thousands of works): walk the best-known published works and probe each
  // one's links by primary key until eight turn up (a few hundred probes, ~2 ms), instead of
  // collecting and sorting the movement's works (50 ms). A small one: collect its few works from
  // its links, since walking the whole catalog for them would find nothing for 100,000 probes.
  const sameMovement =
    movements.reduce((n, m) => n + m.works, 0) >= LARGE_MOVEMENT
      ? Prisma.sql`
      (SELECT w.*, 1 AS grp FROM artworks w
        WHERE w.status = 'published' AND w.artist_id <> ${artistId}
          AND EXISTS (SELECT 1 FROM artwork_taxa l WHERE l.artwork_id = w.id AND l.taxon_id = ANY(${movementIds}::int[]))
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})`
      : Prisma.sql`
      (SELECT w.*, 1 AS grp FROM artworks w
        WHERE w.id IN (SELECT l.artwork_id FROM artwork_taxa l WHERE l.taxon_id = ANY(${movementIds}::int[]) OFFSET 0)
          AND w.status = 'published' AND w.artist_id <> ${artistId}
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})`;
  const chosen = Prisma.sql`
    SELECT r.*, row_number() OVER (ORDER BY r.grp, r.popularity DESC, r.id) AS ord FROM (
      (SELECT w.*, 0 AS grp FROM artworks w
        WHERE w.artist_id = ${artistId} AND w.status = 'published' AND w.id <> ${artworkId}
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      ${sameMovement}
    ) r ORDER BY r.grp, r.popularity DESC, r.id LIMIT ${RELATED}`;
  return (await db.$queryRaw<CardRow[]>(cards(chosen, locale))).map(toCard);
}

interface ArtistRow {
  id: number;
  slug: string;
  name: string;
  birth_year: number | null;
  death_year: number | null;
  artwork_count: number;
  image_file: string | null;
}

/** Artists with their cover image (kept by recountCatalog), in one statement. */
function artistCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT a.id, a.slug, COALESCE(al.name, a.name) AS name, a.birth_year, a.death_year, a.artwork_count,
           a.cover_image AS image_file
      FROM (SELECT * FROM artists a WHERE ${where} ORDER BY a.artwork_count DESC, a.name, a.id LIMIT ${limit} OFFSET ${offset}) a
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${textLocale(locale)}
     ORDER BY a.artwork_count DESC, a.name, a.id`;
}

const toArtistCard = (row: ArtistRow): ArtistCard => ({
  slug: row.slug,
  name: row.name,
  birthYear: row.birth_year,
  deathYear: row.death_year,
  artworkCount: row.artwork_count,
  imageFile: row.image_file,
  imageUrl: commonsUrl(row.image_file),
});

export async function listArtists(db: Db, page: number, locale: Locale): Promise<Page<ArtistCard>> {
  const published = Prisma.sql`a.status = 'published' AND a.artwork_count > 0`;
  const [rows, total] = await Promise.all([
    db.$queryRaw<ArtistRow[]>(artistCards(published, locale, PAGE_SIZE, offsetOf(page))),
    db.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM artists a WHERE ${published}`),
  ]);
  return { items: rows.map(toArtistCard), total: Number(total[0]?.n ?? 0), page, pageSize: PAGE_SIZE };
}

const MAIN_MOVEMENTS = 3;

export async function artistDetail(db: Db, slug: string, page: number, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<(ArtistRow & { bio: string | null; wikidata_id: string | null })[]>(Prisma.sql`
        SELECT c.*, a.wikidata_id, COALESCE(tl.bio, te.bio) AS bio
          FROM (${artistCards(Prisma.sql`a.slug = ${slug} AND a.status = 'published'`, locale, 1, 0)}) c
          JOIN artists a ON a.id = c.id
          LEFT JOIN artist_texts tl ON tl.artist_id = a.id AND tl.locale = ${lang}
          LEFT JOIN artist_texts te ON te.artist_id = a.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No artist in the catalog has the slug "${slug}".`);
  const [movements, works] = await Promise.all([
    db.$queryRaw<{ slug: string; name: string; n: bigint; works: number }[]>(Prisma.sql`
      SELECT t.slug, COALESCE(tl.name, te.name, t.slug) AS name, count(*) AS n, t.artwork_count AS works
        FROM artworks w JOIN artwork_taxa l ON l.artwork_id = w.id JOIN taxa t ON t.id = l.taxon_id AND t.kind = 'movement'
        LEFT JOIN taxon_texts tl ON tl.taxon_id = t.id AND tl.locale = ${lang}
        LEFT JOIN taxon_texts te ON te.taxon_id = t.id AND te.locale = 'en'
       WHERE w.artist_id = ${row.id} AND w.status = 'published'
       GROUP BY t.id, t.slug, t.artwork_count, tl.name, te.name ORDER BY n DESC, t.slug LIMIT ${MAIN_MOVEMENTS}`),
    artworkPage(db, { artist: slug, page, locale }, { artist: { id: row.id, artworkCount: row.artwork_count } }),
  ]);
  return {
    artist: { ...toArtistCard(row), bio: row.bio, wikidataId: row.wikidata_id },
    movements: movements.map((m) => ({
      kind: 'movements' as const,
      slug: m.slug,
      name: m.name,
      artworkCount: Number(m.n),
      hasPage: m.works >= BROWSE_PAGE_MIN_WORKS,
    })),
    works,
  };
}

function kindFor(kind: string): (typeof kindOf)[TaxonKindPlural] {
  if (!(taxonKinds as readonly string[]).includes(kind)) {
    throw notFound(`There are no browse pages of the kind "${kind}"; the kinds are ${taxonKinds.join(', ')}.`);
  }
  return kindOf[kind as TaxonKindPlural];
}

interface TaxonRow {
  id: number;
  slug: string;
  name: string;
  artwork_count: number;
  image_file: string | null;
}

/** Browse pages with their cover image (kept by recountCatalog), in one statement. */
function taxonCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT t.id, t.slug, COALESCE(tl.name, te.name, t.slug) AS name, t.artwork_count, t.cover_image AS image_file
      FROM (SELECT * FROM taxa t WHERE ${where} ORDER BY t.artwork_count DESC, t.slug LIMIT ${limit} OFFSET ${offset}) t
      LEFT JOIN taxon_texts tl ON tl.taxon_id = t.id AND tl.locale = ${lang}
      LEFT JOIN taxon_texts te ON te.taxon_id = t.id AND te.locale = 'en'
     ORDER BY t.artwork_count DESC, t.slug`;
}

const toTaxonCard =
  (kind: TaxonKindPlural) =>
  (row: TaxonRow): TaxonCard => ({
    kind,
    slug: row.slug,
    name: row.name,
    artworkCount: row.artwork_count,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  });

/** The browse pages of one kind: those with at least 3 published works. */
export async function listTaxa(db: Db, kind: string, page: number, locale: Locale): Promise<Page<TaxonCard>> {
  const single = kindFor(kind);
  const exists = Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`;
  const [rows, total] = await Promise.all([
    db.$queryRaw<TaxonRow[]>(taxonCards(exists, locale, PAGE_SIZE, offsetOf(page))),
    db.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM taxa t WHERE ${exists}`),
  ]);
  return { items: rows.map(toTaxonCard(kind as TaxonKindPlural)), total: Number(total[0]?.n ?? 0), page, pageSize: PAGE_SIZE };
}

export async function taxonDetail(db: Db, kind: string, slug: string, page: number, locale: Locale) {
  const single = kindFor(kind);
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<(TaxonRow & { description: string | null })[]>(Prisma.sql`
        SELECT c.*, COALESCE(tl.description, te.description) AS description
          FROM (${taxonCards(Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.slug = ${slug} AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`, locale, 1, 0)}) c
          LEFT JOIN taxon_texts tl ON tl.taxon_id = c.id AND tl.locale = ${lang}
          LEFT JOIN taxon_texts te ON te.taxon_id = c.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No ${single} page in the catalog has the slug "${slug}".`);
  const [topArtists, works] = await Promise.all([
    // Kept by recountCatalog with the page's count, so a large page costs no aggregation here.
    db.$queryRaw<{ slug: string; name: string; n: number }[]>(Prisma.sql`
      SELECT a.slug, COALESCE(al.name, a.name) AS name, (top.entry->>'n')::int AS n
        FROM taxa t CROSS JOIN LATERAL jsonb_array_elements(t.top_artists) WITH ORDINALITY AS top(entry, place)
        JOIN artists a ON a.id = (top.entry->>'id')::int AND a.status = 'published'
        LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
       WHERE t.id = ${row.id}
       ORDER BY top.place`),
    artworkPage(db, { [single]: slug, page, locale }, { taxon: { kind: single, id: row.id, artworkCount: row.artwork_count } }),
  ]);
  return {
    taxon: { ...toTaxonCard(kind as TaxonKindPlural)(row), description: row.description },
    topArtists: topArtists.map((a) => ({ slug: a.slug, name: a.name, artworkCount: Number(a.n) })),
    works,
  };
}
