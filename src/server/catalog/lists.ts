import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { planOnce, readRows, type Db } from '@/server/db/client';
import type { TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import {
  artistCards,
  cards,
  CJK,
  emptyPage,
  HAS_CJK,
  isShortCjk,
  kindFor,
  likeLiteral,
  literalCount,
  offsetOf,
  SHORT_TITLE_BYTES,
  taxonCards,
  toArtistCard,
  toCard,
  toTaxonCard,
  foldedOnce,
  type ArtistRow,
  type CardRow,
  type TaxonRow,
} from './cards';
import { BROWSE_PAGE_MIN_WORKS } from './counts';
import { closestText, FEW_RESULTS, inPageLanguage, MIN_FORGIVEN } from './did-you-mean';
import { PAGE_SIZE, type ArtistCard, type ArtworkCard, type ArtworksQuery, type ArtworkSearchPage, type Page, type TaxonCard } from './schema';
import { isSlug } from './text';

/**
 * The catalog's lists: the artwork grid (filtered by artist, browse pages, featured, and the
 * search box's words, with "did you mean" when a search finds almost nothing), cards by slug, the
 * artists and the browse pages of a kind. Each page is one statement with its total.
 */

/**
 * The artworks list. A search that finds fewer than FEW_RESULTS works on page 1 asks which title
 * (any language) or artist name is closest to what was typed (pg_trgm similarity, starting from
 * the search index's word list: closestText), names it in the page's language (inPageLanguage)
 * and searches that: when the search found nothing, the answer is that search's results with
 * `suggestion.shown`; when it found one or two, they stay and the suggestion is only offered. A suggestion is offered only when it
 * finds more than what was typed did.
 */
export async function listArtworks(db: Db, query: ArtworksQuery): Promise<ArtworkSearchPage> {
  const found = await artworkPage(db, query);
  const q = (query.q ?? '').trim();
  if (query.page !== 1 || found.total >= FEW_RESULTS || q.replace(/\s+/g, '').length < MIN_FORGIVEN || HAS_CJK.test(q)) {
    return { ...found, suggestion: null };
  }
  const text = await closestText(db, q);
  if (!text) return { ...found, suggestion: null };
  const closest = await inPageLanguage(db, text, query.locale);
  const instead = await artworkPage(db, { ...query, q: closest });
  if (instead.total <= found.total) return { ...found, suggestion: null };
  return found.total === 0 ? { ...instead, suggestion: { q: closest, shown: true } } : { ...found, suggestion: { q: closest, shown: false } };
}

/**
 * Searches of up to this many words are planned once (artworkPage). A statement's text depends on
 * how many of its words are of each kind (Latin of three letters or more, one or two CJK
 * characters, one or two Latin letters), so up to four words make at most 34 texts, each about
 * 330 KiB of a connection's memory once prepared. Planning a statement of three or four words took
 * 1.5–2.6 ms, more than running it ("river at sunset" 3.7–3.9 → 2.1–2.3 ms, "frau mit blumen"
 * 5.2 → 3.2–3.3, at 100,000 works: docs/benchmarks/search-sql.md).
 */
const PLANNED_SEARCH_WORDS = 4;

/** From this many published works a browse-page filter walks the popularity index (see listArtworks). */
const LARGE_BROWSE_PAGE = 2_500;

/**
 * From this many better-known works a page of the whole grid is read from its stored order
 * (grid_positions). Below that, walking the popularity index costs little (a thousand entries at
 * most, about 0.1 ms) and reads the live order.
 */
const GRID_POSITIONS_FROM = 1_000;

/** A page's card rows as listArtworks reads them: the page's cards, each row also carrying the list's total. */
type PageRow = { [K in keyof CardRow]: CardRow[K] | null } & { total: number | bigint };

/**
 * Middle dots fold to nothing (shop_fold drops them after NFKC, so モナリザ finds モナ・リザ): a word
 * of them alone would lie inside every text. It is no word, and a search of such words only finds nothing.
 */
const FOLDS_TO_NOTHING = /^[・·‧]+$/u;

/** Vulgar fractions fold to text with a space (unaccent: ½ → " 1/2"); a word holding one cannot be a term's substring. */
const FOLDS_TO_SPACE = /[\u00bc-\u00be\u2150-\u215f\u2189]/;

/**
 * One search word. Three characters or more: a substring of the folded search text, served by
 * its trigram index. A one- or two-character CJK word (川, 庭園) has no trigram, so it is found
 * through the index of the text's CJK characters and character pairs, which holds it exactly.
 */
function wordFilter(word: string): Prisma.Sql {
  if (isShortCjk(word)) return Prisma.sql`cjk_grams(w.search_text) @> cjk_grams(shop_fold(${word}))`;
  return Prisma.sql`w.search_text LIKE '%' || shop_fold(${likeLiteral(word)}) || '%'`;
}

/**
 * How the titles begin with the words `q`, for a search of several words: whether a title (any
 * language) is them, or starts with them, as `matched` columns and their order. Both title sets
 * come from the folded-title index, not from each match. Titles of up to 800 bytes are read from a
 * covering index (no table row, no folding per row), longer ones from a small index of their own;
 * each half names its index's condition.
 */
function rankedByTitles(q: string): [columns: Prisma.Sql, order: Prisma.Sql] {
  const titles = (match: Prisma.Sql) => Prisma.sql`
      SELECT x.artwork_id FROM artwork_texts x WHERE octet_length(x.title) <= ${SHORT_TITLE_BYTES} AND ${match}
      UNION ALL
      SELECT x.artwork_id FROM artwork_texts x WHERE octet_length(x.title) > ${SHORT_TITLE_BYTES} AND ${match}`;
  const exact = titles(Prisma.sql`shop_fold(x.title) = shop_fold(${q})`);
  // Titles starting with the words: the range of the folded-title index between them and them
  // followed by the last code point, which a plan made without the words (planOnce) can use
  // (a LIKE pattern from a parameter cannot: its generic plan read the trigram index, 15 ms).
  const prefix = titles(Prisma.sql`shop_fold(x.title) ~>=~ shop_fold(${q}) AND shop_fold(x.title) ~<~ (shop_fold(${q}) || chr(1114111))`);
  return [Prisma.sql`m.id IN (${exact}) AS exact, m.id IN (${prefix}) AS prefix`, Prisma.sql`exact DESC, prefix DESC`];
}

/**
 * The published works holding one search word, with their popularity, from the search index
 * (migration 20261124090000_search_terms): the terms holding the word (its trigram index, or the
 * CJK character index for one or two CJK characters, then the containment itself), then those
 * terms' entries, read index-only. No artwork row is read.
 */
function worksWithWord(word: string, ranked = false): Prisma.Sql {
  const folded = foldedOnce(word);
  // One or two CJK characters have no trigram: the CJK index finds their terms, and the
  // containment is checked with strpos, which no index claims, so that a plan made without the
  // word (planOnce) cannot walk the whole trigram index for it.
  const terms = isShortCjk(word)
    ? Prisma.sql`cjk_grams(s.term) @> cjk_grams(${folded}) AND strpos(s.term, ${folded}) > 0`
    : Prisma.sql`s.term LIKE '%' || shop_fold(${likeLiteral(word)}) || '%'`;
  // Ranked: how a title of the work begins with the word, from the entry's lead (the entry's word is
  // a title's first word, or a title alone). For a word without spaces a title starts with it
  // exactly when the title's first word does, and that first word is one of the matched words.
  const rank = ranked ? Prisma.sql`, CASE WHEN p.term = ${folded} THEN p.lead WHEN p.lead > 0 AND starts_with(p.term, ${folded}) THEN 1 ELSE 0 END AS rank` : Prisma.empty;
  return Prisma.sql`SELECT p.artwork_id AS id, p.popularity ${rank} FROM artwork_terms p WHERE p.term IN (SELECT s.term FROM search_terms s WHERE ${terms})`;
}

/**
 * A page of artwork cards and the list's total, in one statement. The total comes from the stored
 * counts where one filter (or none) is in play (decisions.md "Catalog"), otherwise from counting
 * the matches in the same statement; the page's rows are LEFT JOINed to it so a page past the end
 * still carries the total.
 */
async function artworkPage(db: Db, query: ArtworksQuery): Promise<Page<ArtworkCard>> {
  const filters: Prisma.Sql[] = [Prisma.sql`w.status = 'published'`];
  let storedTotal: Prisma.Sql | number | null = Prisma.sql`SELECT COALESCE(sum(artwork_count), 0)::int FROM artists WHERE status = 'published'`;

  if (query.artist) {
    if (!isSlug(query.artist)) return emptyPage(query.page);
    filters.push(Prisma.sql`w.artist_id = (SELECT id FROM artists WHERE slug = ${query.artist} AND status = 'published')`);
    storedTotal = Prisma.sql`SELECT COALESCE((SELECT artwork_count FROM artists WHERE slug = ${query.artist} AND status = 'published'), 0)`;
  }
  const taxonFilters = (['museum', 'movement', 'genre', 'subject'] as const).filter((kind) => query[kind]);
  if (taxonFilters.some((kind) => !isSlug(query[kind]!))) return emptyPage(query.page);
  // The grid filtered by browse pages looks them up first: their stored counts choose the plan.
  const taxa = await Promise.all(
    taxonFilters.map((kind) => db.taxon.findUnique({ where: { kind_slug: { kind, slug: query[kind]! } }, select: { id: true, artworkCount: true } })),
  );
  if (taxa.some((taxon) => !taxon)) return emptyPage(query.page);
  const ctes: Prisma.Sql[] = [];
  // Browse-page filters by known id. A small page's works (a museum's few hundred) are collected
  // from its links first; a page with thousands of works is served by walking the best-known
  // works and probing each one's links by primary key until a page is full (3–5 ms instead of
  // 15–30 ms for collecting and sorting 5,000 works). Between the two the planner misjudges the
  // walk, so the stored count decides.
  const smallest = Math.min(...taxa.map((taxon) => taxon!.artworkCount));
  const walk = taxa.length > 0 && smallest >= LARGE_BROWSE_PAGE;
  if (taxa.length && !walk) {
    ctes.push(
      Prisma.sql`linked AS MATERIALIZED (${Prisma.join(
        taxa.map((taxon) => Prisma.sql`SELECT artwork_id FROM artwork_taxa WHERE taxon_id = ${taxon!.id}`),
        ' INTERSECT ',
      )})`,
    );
    filters.push(Prisma.sql`w.id IN (SELECT artwork_id FROM linked)`);
  }
  if (walk) {
    for (const taxon of taxa) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM artwork_taxa l WHERE l.artwork_id = w.id AND l.taxon_id = ${taxon!.id})`);
  }
  if (taxa.length === 1) storedTotal = taxa[0]!.artworkCount;
  if (query.featured) filters.push(Prisma.sql`w.featured`);
  const typed = (query.q ?? '').split(/\s+/).filter(Boolean);
  const words = typed.filter((word) => !FOLDS_TO_NOTHING.test(word.normalize('NFKC'))).slice(0, 8);
  if (typed.length && !words.length) return emptyPage(query.page);
  // A stored count answers the total only when one filter (or none) is in play.
  const filterCount = (query.artist ? 1 : 0) + taxonFilters.length + (query.featured ? 1 : 0) + words.length;
  if (filterCount > 1 || query.featured || words.length) storedTotal = null;

  const window = Prisma.sql`LIMIT ${literalCount(PAGE_SIZE)} OFFSET ${offsetOf(query.page)}`;
  let chosen: Prisma.Sql;
  let total: Prisma.Sql;
  // A search alone (the search box) is answered from the search index; a search inside a
  // filtered grid narrows the filter's works with the trigram index of their search text.
  const fromIndex = words.length > 0 && filterCount === words.length && !FOLDS_TO_SPACE.test(query.q ?? '');
  if (words.length) {
    // A word of one or two Latin letters ("à" in "Jardin à Paris") lies inside a large share of
    // all terms: its entries are most of the index (65 ms to read at 100,000 works). The longer
    // words are intersected first; their matches are then checked for it, each by primary key
    // (its terms, one index range) with the same LIKE. A search of short words only is unchanged.
    // Intersected in the order of their kinds (one or two CJK characters first), not as typed: the
    // statement's text then depends only on how many words of each kind there are, which bounds
    // the shapes planned once (PLANNED_SEARCH_WORDS). An intersection is the same in any order.
    const intersected = words.filter((word) => [...word].length > 2 || CJK.test(word)).sort((a, b) => Number(isShortCjk(b)) - Number(isShortCjk(a)));
    const checked = intersected.length ? words.filter((word) => !intersected.includes(word)) : [];
    const fromWords = intersected.length ? intersected : words;
    // A search of one word ranks its matches from their own entries (artwork_terms.lead), without
    // reading any title: "river" 3.3 → 2.3 ms at 100,000 works. Several words rank by the titles.
    const ranksItself = fromIndex && words.length === 1;
    const fromTerms =
      fromWords.length === 1
        ? ranksItself
          ? Prisma.sql`SELECT m.id, m.popularity, max(m.rank) AS rank FROM (${worksWithWord(fromWords[0]!, true)}) m GROUP BY m.id, m.popularity`
          : Prisma.sql`SELECT DISTINCT m.id, m.popularity FROM (${worksWithWord(fromWords[0]!)}) m`
        : Prisma.join(
            fromWords.map((word) => Prisma.sql`(${worksWithWord(word)})`),
            ' INTERSECT ',
          );
    const holding = checked.map(
      (word) => Prisma.sql`EXISTS (SELECT 1 FROM artwork_terms d WHERE d.artwork_id = m.id AND d.term LIKE '%' || shop_fold(${likeLiteral(word)}) || '%')`,
    );
    ctes.push(
      Prisma.sql`matched AS MATERIALIZED (${
        fromIndex
          ? checked.length
            ? Prisma.sql`SELECT m.id, m.popularity FROM (${fromTerms}) m WHERE ${Prisma.join(holding, ' AND ')}`
            : fromTerms
          : Prisma.sql`SELECT w.id, w.popularity FROM artworks w WHERE ${Prisma.join([...filters, ...words.map(wordFilter)], ' AND ')}`
      })`,
    );
    // Search ranks an exact title (in any language) first, then titles starting with the words,
    // then the best known: one word from its entries' rank, several from the titles.
    const [ranks, rankOrder] = ranksItself ? [Prisma.sql`m.rank`, Prisma.sql`rank DESC`] : rankedByTitles(words.join(' '));
    // The page is ranked from the matches' ids and popularity alone; only its 48 works are read.
    chosen = Prisma.sql`
      SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, r.ord
        FROM (SELECT p.id, row_number() OVER (ORDER BY ${rankOrder}, p.popularity DESC, p.id) AS ord FROM (
                SELECT m.id, m.popularity, ${ranks}
                  FROM matched m
                 ORDER BY ${rankOrder}, m.popularity DESC, m.id ${window}) p) r
        JOIN artworks w ON w.id = r.id`;
    total = Prisma.sql`SELECT count(*) FROM matched`;
  } else {
    const where = Prisma.join(filters, ' AND ');
    const offset = offsetOf(query.page);
    if (filters.length === 1 && !ctes.length && offset >= GRID_POSITIONS_FROM) {
      // A deep page of the whole grid: a range of its stored order (grid_positions, kept by
      // recountCatalog with every publish), not a walk past every better-known work (page 1,500:
      // 5.3 → 1.0 ms of database time at 100,000 works). A place whose work is no longer published
      // shows nothing (docs/database.md "The grid's order").
      chosen = Prisma.sql`
        SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, g.position AS ord
          FROM (SELECT g.position, g.artwork_id FROM grid_positions g WHERE g.position > ${offset} ORDER BY g.position LIMIT ${literalCount(PAGE_SIZE)}) g
          JOIN artworks w ON w.id = g.artwork_id AND w.status = 'published'`;
    } else {
      // The page's ids first (an index-only walk of the popularity index when unfiltered), then
      // their rows: a deep page (OFFSET 96,000) skips index entries, not table rows (165 ms → 17 ms).
      chosen = Prisma.sql`
        SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id,
               row_number() OVER (ORDER BY w.popularity DESC, w.id) AS ord
          FROM artworks w
         WHERE w.id IN (SELECT w.id FROM artworks w WHERE ${where} ORDER BY w.popularity DESC, w.id ${window})`;
    }
    total = typeof storedTotal === 'number' ? Prisma.sql`SELECT ${storedTotal}::int` : (storedTotal ?? Prisma.sql`SELECT count(*) FROM artworks w WHERE ${where}`);
  }
  const statement = Prisma.sql`
    ${ctes.length ? Prisma.sql`WITH ${Prisma.join(ctes, ', ')}` : Prisma.empty}
    SELECT (${total}) AS total, c.*
      FROM (SELECT 1) one
      LEFT JOIN (${cards(chosen, query.locale, Prisma.sql`, w.ord`)}) c ON true
     ORDER BY c.ord`;
  // The search box's and the grid's statements (by artist or featured too) are planned once:
  // their generic plans run as fast as those made for the values, without 0.7–2.6 ms of planning
  // at 100,000 works. A search of more than PLANNED_SEARCH_WORDS words is not: the number of
  // words of each kind shapes the text, and every text is prepared on every connection of the
  // pool, so longer searches could fill the process's prepared statements (and the database
  // server's memory) with rare shapes. Filtered by a browse page
  // (with or without words) it is planned for its values: the page's size chooses between
  // collecting its works and walking the best known.
  const planned = (fromIndex && words.length <= PLANNED_SEARCH_WORDS) || (!words.length && !taxa.length);
  const rows = await readRows<PageRow>(db, planned ? planOnce(statement) : statement);
  return {
    items: rows.filter((row): row is PageRow & CardRow => row.slug !== null).map(toCard),
    total: Number(rows[0]?.total ?? 0),
    page: query.page,
    pageSize: PAGE_SIZE,
  };
}

/**
 * Cards for the given slugs in the order given; unknown and unpublished slugs are left out.
 * Planned once: its generic plan probes each slug as the one made for the slugs did (0.9 → 0.35 ms
 * for six, without the planning).
 */
export async function artworksBySlugs(db: Db, slugs: string[], locale: Locale): Promise<ArtworkCard[]> {
  const wanted = [...new Set(slugs.filter(isSlug))];
  if (!wanted.length) return [];
  const chosen = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, array_position(${wanted}::text[], w.slug) AS ord
      FROM artworks w WHERE w.slug = ANY(${wanted}::text[]) AND w.status = 'published'`;
  return (await readRows<CardRow>(db, planOnce(cards(chosen, locale)))).map(toCard);
}

/** A list's rows LEFT JOINed to its total, so a page past the end still says how many there are. */
type ListRow<T> = { [K in keyof T]: T[K] | null } & { total: number | bigint };

const listItems = <T extends { slug: string }>(rows: ListRow<T>[]): T[] => rows.filter((row) => row.slug !== null) as unknown as T[];

/** Published artists with works, most works first; the page and its total in one statement. */
export async function listArtists(db: Db, page: number, locale: Locale): Promise<Page<ArtistCard>> {
  const published = Prisma.sql`a.status = 'published' AND a.artwork_count > 0`;
  const rows = await readRows<ListRow<ArtistRow>>(
    db,
    planOnce(Prisma.sql`
    SELECT (SELECT count(*) FROM artists a WHERE ${published}) AS total, c.*
      FROM (SELECT 1) one LEFT JOIN (${artistCards(published, locale, PAGE_SIZE, offsetOf(page))}) c ON true
     ORDER BY c.ord`),
  );
  return { items: listItems(rows).map(toArtistCard), total: Number(rows[0]?.total ?? 0), page, pageSize: PAGE_SIZE };
}

/** The browse pages of one kind: those with at least 3 published works; the page and its total in one statement. */
export async function listTaxa(db: Db, kind: string, page: number, locale: Locale): Promise<Page<TaxonCard>> {
  const single = kindFor(kind);
  const exists = Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`;
  // One kind, so (count, slug) is unique: the page's own order.
  const rows = await readRows<ListRow<TaxonRow>>(
    db,
    planOnce(Prisma.sql`
    SELECT (SELECT count(*) FROM taxa t WHERE ${exists}) AS total, c.*
      FROM (SELECT 1) one LEFT JOIN (${taxonCards(exists, locale, PAGE_SIZE, offsetOf(page))}) c ON true
     ORDER BY c.artwork_count DESC, c.slug`),
  );
  return { items: listItems(rows).map(toTaxonCard(kind as TaxonKindPlural)), total: Number(rows[0]?.total ?? 0), page, pageSize: PAGE_SIZE };
}
