import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { planOnce, readRows, type Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import { kindOf, pluralOf, taxonKinds, type DatePrecision, type TaxonKindPlural } from '@/shared/catalog';
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
  year_precision: DatePrecision;
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
    SELECT w.slug${extra}, w.year, w.year_precision::text AS year_precision, w.width_cm::float8 AS width_cm, w.height_cm::float8 AS height_cm, w.image_file,
           COALESCE(tl.title, te.title,
             (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1),
             w.slug) AS title,
           a.slug AS artist_slug, COALESCE(al.name, a.name) AS artist_name
      FROM (${chosen}) w
      -- By primary key, one probe per card (OFFSET 0 keeps the planner from turning it into a hash
      -- join that reads every artist for a page of 48).
      CROSS JOIN LATERAL (SELECT a.id, a.slug, a.name FROM artists a WHERE a.id = w.artist_id OFFSET 0) a
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
    yearPrecision: row.year_precision,
    widthCm: row.width_cm,
    heightCm: row.height_cm,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  };
}

/** The longest title (in bytes) the covering folded-title index holds (migration 20261122160000). */
const SHORT_TITLE_BYTES = Prisma.raw('800');

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

const offsetOf = (page: number) => (page - 1) * PAGE_SIZE;
/**
 * From this many better-known works a page of the whole grid is read from its stored order
 * (grid_positions). Below that, walking the popularity index costs little (a thousand entries at
 * most, about 0.1 ms) and reads the live order.
 */
const GRID_POSITIONS_FROM = 1_000;
/**
 * A number of rows the code fixes (a page's size), written into the statement rather than sent as
 * a parameter: a plan made without the values (planOnce) takes a LIMIT from a parameter for a
 * tenth of its input (5,000 of a browse page's 50,000 works) and joins every title by hash, 60 ms;
 * with the number written in, it probes the page's 48.
 */
const literalCount = (n: number) => Prisma.raw(String(Math.trunc(n)));
const emptyPage = <T>(page: number): Page<T> => ({ items: [], total: 0, page, pageSize: PAGE_SIZE });

/** Escapes LIKE's wildcards so a shopper's `%` or `_` is matched as itself. */
const likeLiteral = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Chinese, Japanese and Korean characters, as `cjk_grams()` in the database collects them. */
const CJK = /^[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+$/;
/** A word of one or two CJK characters: it has no trigram, so the CJK character index finds it. */
const isShortCjk = (word: string) => [...word].length <= 2 && CJK.test(word);

/**
 * One search word. Three characters or more: a substring of the folded search text, served by
 * its trigram index. A one- or two-character CJK word (川, 庭園) has no trigram, so it is found
 * through the index of the text's CJK characters and character pairs, which holds it exactly.
 */
function wordFilter(word: string): Prisma.Sql {
  if (isShortCjk(word)) return Prisma.sql`cjk_grams(w.search_text) @> cjk_grams(shop_fold(${word}))`;
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
 * (any language) or artist name is closest to what was typed (pg_trgm similarity, starting from
 * the search index's word list: closestText) and searches that: when the
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

/** Words of the word list followed for each typed word (and for all of them run together): the nearest by trigram similarity. */
const CLOSEST_NEAR_WORDS = 8;
/** Works taken from each such word, best known first (index-only), into the pool that is scored. */
const CLOSEST_PER_WORD = 64;
/** How deep the nearest words of two typed words are intersected (best-known works of each, index-only). */
const CLOSEST_PAIR_DEPTH = 2_000;
/** At most this many works of the pool (the best scored, then the best known) have their titles and artists compared. */
const CLOSEST_CANDIDATES = 32;
/** Typed words followed, as the search itself (artworkPage) takes at most eight. */
const CLOSEST_TYPED_WORDS = 8;
/** A typed word is tried as two words run together ("monalisa" = "mona" + "lisa") up to this length. */
const CLOSEST_SPLIT_LENGTH = 40;
/**
 * Typed words no word of the list is near by trigrams have a word guessed one edit away, at most
 * this many of them: each guess measures the distance to every word of the list that starts with
 * its letter (about 0.5 µs a word; a real catalog's list may start ten thousand words with one
 * letter), so gibberish of eight words does not cost eight guesses. One edit, not two: two edits
 * from a word spelt right but absent from the catalog lies some other word ("kitchen" →
 * "kirche", "secret" → "seurat"), and a longer word keeps enough trigrams through two typos.
 */
const CLOSEST_GUESSED = 2;
/** Of the words one edit away, the most similar few have their works counted (up to CLOSEST_GUESS_COUNTED each). */
const CLOSEST_GUESSES_WEIGHED = 4;
const CLOSEST_GUESS_COUNTED = 5_000;

/**
 * The published title (any language) or artist name closest to `q`, else `q` mended word by word
 * (5. below), or null when nothing is close enough (CLOSE_ENOUGH) and no word is near one of the
 * list. Like the suggestions' typo branch it starts from the search index's word
 * list (migration 20261124090000_search_terms), not from the 400,000+ titles:
 *
 * 1. near words: for each typed word, and for all of them run together, the CLOSEST_NEAR_WORDS
 *    nearest words (`%` on `search_terms`, its trigram index), and the two words it is made of
 *    when it is two words of the list run together ("monalisa", "nightwatch": primary-key probes);
 *    a typed word with no near word has one guessed, one edit away ("csatle" → "castle");
 * 2. a pool of works: each near word's CLOSEST_PER_WORD best-known works (index-only on
 *    `artwork_terms`), and the works holding the nearest words of two typed words, found among
 *    the CLOSEST_PAIR_DEPTH best known of each ("Lectora en Kioto" for "letora kioto" is one of a
 *    few dozen works among thousands holding either word);
 * 3. each work of the pool scored by the near words it holds (its entries, by primary key), each
 *    typed word once by its nearest word held, then the better known; the CLOSEST_CANDIDATES best;
 * 4. their titles, their artists' names (artist names are words of the works' search texts, so a
 *    misspelt name reaches the artist's works) and any title that is a near word itself are
 *    compared with what was typed (and with the text a guess makes of it): near (`%` or `<%`),
 *    closest by word similarity, then by whole similarity (a text of about the typed length
 *    wins), then the better known;
 * 5. when no title or name is close enough, what was typed mended word by word: each word replaced
 *    by its nearest word (itself when the list holds it, never a guess), "vermer delft" →
 *    "vermeer delft".
 *
 * Bounded (at most nine typed words, eight near words each, a few thousand index entries in all)
 * where the old scan of every title grew with the catalog, and so approximate: among titles
 * equally close, those of better-known works are seen; a text none of whose words is near a typed
 * word (trigram similarity under 0.3: "tohmas" is 0.27 like "thomas") is not found.
 */
async function closestText(db: Db, q: string): Promise<string | null> {
  // Guessing (its words, the text it makes) cost the statement about 6 % of its throughput under
  // load even when nothing was guessed, so it is a statement of its own, sent only when the first
  // says a typed word has no near word: the same answer as one statement that always guessed.
  const [first] = await readRows<{ text: string | null; unmatched: boolean }>(db, planOnce(closestStatement(q, false)));
  const row = first?.unmatched ? (await readRows<{ text: string | null }>(db, planOnce(closestStatement(q, true))))[0] : first;
  const text = row?.text?.trim();
  return text && text.toLowerCase() !== q.toLowerCase() ? text : null;
}

/** closestText's statement, with the guesses (`guess`) or without; either says whether a typed word has no near word (`unmatched`). */
function closestStatement(q: string, guess: boolean): Prisma.Sql {
  // The CLOSEST_PAIR_DEPTH best-known works holding a nearest word `b` (of `best`, below), index-only.
  const bestKnownOf = Prisma.sql`
    SELECT p.artwork_id, p.popularity FROM artwork_terms p WHERE p.term = b.term
     ORDER BY p.popularity DESC, p.artwork_id LIMIT ${CLOSEST_PAIR_DEPTH}`;
  const bestKnownOfNearest = (k: number) => Prisma.sql`(SELECT e.artwork_id, e.popularity FROM best b CROSS JOIN LATERAL (${bestKnownOf}) e WHERE b.k = ${literalCount(k)})`;
  // `%` (whole similarity, threshold 0.3) or `<%` (word similarity, threshold 0.6): "monalisa" is
  // 0.58 like "Mona Lisa" as a whole, "sternenacht" 0.92 like a stretch of "die sternennacht".
  const near = (v: Prisma.Sql) => Prisma.sql`(t.f % ${v} OR t.f <% ${v})`;
  const closeness = (v: Prisma.Sql) => Prisma.sql`greatest(word_similarity(t.f, ${v}), similarity(t.f, ${v}))`;
  return Prisma.sql`
    WITH typed AS (SELECT shop_fold(${q}) AS f),
    -- Each typed word (numbered) and all of them run together; trigrams say little under three letters.
    typed_words AS (
      SELECT DISTINCT ON (v.word) v.word, v.n FROM typed t CROSS JOIN LATERAL unnest(array_append(
               (string_to_array(t.f, ' '))[1:${CLOSEST_TYPED_WORDS}], replace(t.f, ' ', ''))) WITH ORDINALITY v(word, n)
       WHERE length(v.word) >= 3 ORDER BY v.word, v.n),
    near_by_trigrams AS MATERIALIZED (
      SELECT v.n, s.term, similarity(s.term, v.word) AS sim FROM typed_words v CROSS JOIN LATERAL (
        SELECT s.term FROM search_terms s WHERE s.term % v.word ORDER BY similarity(s.term, v.word) DESC, s.term LIMIT ${CLOSEST_NEAR_WORDS}) s),
    -- Typed words (not all of them run together) that no word of the list is near by trigrams
    -- ("csatle" is 0.27 like "castle": one edit in a short word leaves few of its trigrams).
    unmatched AS (
      SELECT v.n, v.word FROM typed t, typed_words v
       WHERE v.n <= cardinality((string_to_array(t.f, ' '))[1:${CLOSEST_TYPED_WORDS}])
         AND NOT EXISTS (SELECT 1 FROM near_by_trigrams b WHERE b.n = v.n)),
    near_words AS MATERIALIZED (
      SELECT m.n, m.term, max(m.sim) AS sim, bool_and(m.guessed) AS guessed FROM (
        SELECT b.n, b.term, b.sim, false AS guessed FROM near_by_trigrams b
        UNION ALL
        ${
          guess
            ? Prisma.sql`
        -- For the first CLOSEST_GUESSED unmatched words, one word guessed among those one edit away
        -- that start with the same letter (a range of the list's primary key): a letter dropped,
        -- added or changed (Levenshtein, fuzzystrmatch) or two neighbouring letters swapped. A
        -- swapped word first ("bule" → "blue", not "ble"), then, as a spelling checker ranks, the
        -- word most works hold. A guess leads only to titles and names close to all that was typed,
        -- never into the mended text on its own (one edit from "nite" are "note" and "nuit").
        SELECT u.n, g.term, similarity(g.term, u.word), true
          FROM (SELECT u.n, u.word FROM unmatched u ORDER BY u.n LIMIT ${CLOSEST_GUESSED}) u CROSS JOIN LATERAL (
          SELECT g.term FROM (
            SELECT f.term, f.swapped FROM (
              SELECT s.term, s.term = ANY(x.swaps) AS swapped
                FROM (SELECT ARRAY(SELECT left(u.word, i - 1) || substr(u.word, i + 1, 1) || substr(u.word, i, 1) || substr(u.word, i + 2)
                                     FROM generate_series(1, length(u.word) - 1) i) AS swaps) x, search_terms s
               WHERE s.term >= left(u.word, 1) AND s.term < left(u.word, 1) || chr(1114111)
                 AND abs(length(s.term) - length(u.word)) <= 1) f
             WHERE f.swapped OR levenshtein_less_equal(f.term, u.word, 1) <= 1
             ORDER BY f.swapped DESC, similarity(f.term, u.word) DESC, f.term LIMIT ${literalCount(CLOSEST_GUESSES_WEIGHED)}) g
           CROSS JOIN LATERAL (SELECT count(*) AS works FROM (SELECT FROM artwork_terms p WHERE p.term = g.term LIMIT ${literalCount(CLOSEST_GUESS_COUNTED)}) p) c
           ORDER BY g.swapped DESC, c.works DESC, g.term LIMIT 1) g
        UNION ALL`
            : Prisma.empty
        }
        -- Two words of the list run together, each counted as a typed word of its own (n·100 + 1, + 2).
        SELECT unnest(ARRAY[v.n * 100 + 1, v.n * 100 + 2]), unnest(ARRAY[a.term, b.term]), 1, false FROM typed_words v
          CROSS JOIN LATERAL generate_series(3, least(length(v.word), ${CLOSEST_SPLIT_LENGTH}) - 3) i
          -- Probes of the word list's primary key, not a join reading all of it.
          CROSS JOIN LATERAL (SELECT a.term FROM search_terms a WHERE a.term = left(v.word, i) OFFSET 0) a
          CROSS JOIN LATERAL (SELECT b.term FROM search_terms b WHERE b.term = substr(v.word, i + 1) OFFSET 0) b
      ) m GROUP BY m.n, m.term),
    -- The nearest word of each typed word (or half of one), numbered.
    best AS MATERIALIZED (
      SELECT b.term, row_number() OVER (ORDER BY b.term) AS k FROM (
        SELECT DISTINCT b.term FROM (SELECT DISTINCT ON (n) n, term FROM near_words ORDER BY n, sim DESC, term) b) b),
    pool AS MATERIALIZED (
      SELECT e.id, max(e.known) AS known FROM (
        SELECT e.artwork_id AS id, e.popularity AS known FROM (SELECT DISTINCT term FROM near_words) n CROSS JOIN LATERAL (
          SELECT p.artwork_id, p.popularity FROM artwork_terms p WHERE p.term = n.term
           ORDER BY p.popularity DESC, p.artwork_id LIMIT ${CLOSEST_PER_WORD}) e
        UNION ALL
        -- Works holding the nearest words of two typed words: their best-known CLOSEST_PAIR_DEPTH
        -- each, intersected ("Enfant bleu" is one of ~30 works among the ~3,000 of each word).
        -- Two such words (the usual case): one list joined to the other by hash, where
        -- aggregating both lists' 4,000 entries made the statement 1 ms slower ("rivre sunset":
        -- 3.7–3.9 → 2.8 ms at 100,000 works); three or more: aggregated.
        (SELECT a.artwork_id, a.popularity FROM ${bestKnownOfNearest(1)} a
           JOIN ${bestKnownOfNearest(2)} o ON o.artwork_id = a.artwork_id
          WHERE (SELECT count(*) FROM best) = 2
          ORDER BY 2 DESC, 1 LIMIT ${CLOSEST_PER_WORD})
        UNION ALL
        (SELECT e.artwork_id, max(e.popularity) FROM best b CROSS JOIN LATERAL (${bestKnownOf}) e
          WHERE (SELECT count(*) FROM best) > 2
          GROUP BY e.artwork_id HAVING min(b.k) <> max(b.k) ORDER BY 2 DESC, 1 LIMIT ${CLOSEST_PER_WORD})
      ) e GROUP BY e.id),
    -- A work scores, for each typed word, the similarity of its nearest word the work holds, summed:
    -- holding those of two typed words ("river", "sunset"), or a whole word rather than a short
    -- common one ("vermeer" beside "del" for "vermeer delft"), counts more; then the better known.
    -- Once per typed word: summing every near word held, 40 works holding "port", "porto" and "por"
    -- (0.44 + 0.40 + 0.33, all near "portait") outscored "Portrait at Sunset" (0.55 + 0.27).
    -- Each pool work's entries for the near words only, one probe of the primary key per work
    -- (term = ANY): as flat in the catalog's size as reading all its entries, and fewer rows.
    candidates AS MATERIALIZED (
      SELECT p.id FROM pool p LEFT JOIN (
        SELECT h.id, sum(h.sim) AS score FROM (
          SELECT d.artwork_id AS id, max(n.sim) AS sim FROM pool q CROSS JOIN LATERAL (
            SELECT d.artwork_id, d.term FROM artwork_terms d WHERE d.artwork_id = q.id AND d.term = ANY(ARRAY(SELECT DISTINCT x.term FROM near_words x)) OFFSET 0) d
            JOIN near_words n ON n.term = d.term GROUP BY 1, n.n) h GROUP BY h.id) s ON s.id = p.id
       ORDER BY s.score DESC NULLS LAST, p.known DESC, p.id LIMIT ${CLOSEST_CANDIDATES}),
    works AS MATERIALIZED (
      SELECT w.id, w.artist_id, w.popularity FROM candidates c JOIN artworks w ON w.id = c.id AND w.status = 'published'),
    -- Each text with its folded form as stored (the generated *_folded columns, folded when written).
    texts AS (
      SELECT x.title AS text, x.title_folded AS v, w.popularity AS known FROM works w JOIN artwork_texts x ON x.artwork_id = w.id AND x.title IS NOT NULL
      UNION ALL
      -- A title that is a near word itself ("Garden" for "gardn") is the closest as a whole, and
      -- rarely a best-known work's: one per word, by the folded-title index (short titles only,
      -- where a one-word title is).
      SELECT x.title, x.title_folded, x.known FROM near_words n CROSS JOIN LATERAL (
        SELECT x.title, x.title_folded, w.popularity AS known
          FROM artwork_texts x JOIN artworks w ON w.id = x.artwork_id AND w.status = 'published'
         WHERE shop_fold(x.title) = n.term AND octet_length(x.title) <= ${SHORT_TITLE_BYTES} LIMIT 1) x
      UNION ALL
      -- The candidates' artists by primary key (OFFSET 0: not a hash join reading every artist).
      SELECT n.text, n.v, n.known FROM (SELECT DISTINCT artist_id FROM works) i CROSS JOIN LATERAL (
        SELECT a.name AS text, a.name_folded AS v, a.artwork_count * 1000 AS known FROM artists a
         WHERE a.id = i.artist_id AND a.status = 'published' AND a.artwork_count > 0
        UNION ALL
        SELECT n.name, n.name_folded, a.artwork_count * 1000 FROM artist_texts n JOIN artists a ON a.id = n.artist_id AND a.status = 'published' AND a.artwork_count > 0
         WHERE n.artist_id = i.artist_id OFFSET 0) n),
    -- Titles and names repeat (across languages, across works): each text compared once.
    folded AS (SELECT x.text, x.v, max(x.known) AS known FROM texts x GROUP BY x.text, x.v),
    -- What was typed, each word mended into its nearest word of the list (itself when the list
    -- holds it; as typed when nothing is near): "vermer delft" is "vermeer delft".
    mended AS (
      SELECT string_agg(coalesce((SELECT n.term FROM near_words n WHERE n.n = v.n AND NOT n.guessed ORDER BY n.sim DESC, n.term LIMIT 1), v.word), ' ' ORDER BY v.n) AS text
      ${
        guess
          ? Prisma.sql`
             -- Beside it, mended with the guessed words too ("portrait sunset" for "portait sunest").
             , string_agg(coalesce((SELECT n.term FROM near_words n WHERE n.n = v.n ORDER BY n.sim DESC, n.term LIMIT 1), v.word), ' ' ORDER BY v.n) AS guessed`
          : Prisma.empty
      }
        FROM typed t CROSS JOIN LATERAL unnest((string_to_array(t.f, ' '))[1:${CLOSEST_TYPED_WORDS}]) WITH ORDINALITY v(word, n)),
    -- Titles and names are compared with what was typed and, when a word was guessed, with the
    -- text it guesses: "portait sunest" is 0.43 like "Portrait at Sunset", "portrait sunset" 0.84.
    compared AS (SELECT t.f FROM typed t ${guess ? Prisma.sql`UNION ALL SELECT m.guessed FROM mended m WHERE m.guessed <> m.text` : Prisma.empty})
    SELECT (SELECT r.text FROM (
      SELECT c.text, 0 AS rank, c.ws, c.s, c.known FROM (
        SELECT x.text, ${closeness(Prisma.sql`x.v`)} AS ws, similarity(t.f, x.v) AS s, x.known
          FROM compared t, folded x WHERE ${near(Prisma.sql`x.v`)}
      ) c WHERE c.ws >= ${CLOSE_ENOUGH}
      UNION ALL
      -- Only when no title or name is close: a shopper who typed two words ("vermer delft") rarely
      -- meant one title, and each word may be near a word of the list when the whole is near nothing.
      SELECT m.text, 1, 0, 0, 0 FROM mended m, typed t WHERE m.text <> t.f
    ) r ORDER BY r.rank, r.ws DESC, r.s DESC, r.known DESC LIMIT 1) AS text,
    -- Whether a typed word has no near word, so would have one guessed: the second statement's cue.
    EXISTS (SELECT 1 FROM unmatched) AS unmatched`;
}

interface SuggestionRow {
  kind: 'artwork' | 'artist';
  slug: string;
  label: string;
  sublabel: string | null;
}

/**
 * A search word folded once per execution (an InitPlan). Written as `shop_fold($n)` in a filter,
 * a plan made without the word (planOnce) folds it again for every row the index returns: 203
 * times for 庭, a fifth of a one-character search's or suggestion's database time. Only where an
 * index already chose the rows: hidden from the planner, a word cannot steer a plan made for it.
 */
const foldedOnce = (word: string) => Prisma.sql`(SELECT shop_fold(${word}))`;

/** Works taken from each word that answers the typed text, best known first (a word's LATERAL top-N). */
const SUGGEST_PER_WORD = SUGGESTIONS_MAX;
/** At most this many works are ranked, the best known of those the words gave: the capped candidate set. */
const SUGGEST_CANDIDATES = 64;
/**
 * At most this many words are followed for the last typed word, those with the best-known works
 * first (search_terms.best): 32 words × SUGGEST_PER_WORD works give 256 entries for the 64
 * candidates. A one-character Japanese word (庭: 203 words at 100,000 works) measured 2.6 → 1.9 ms
 * against following the first 400, with the same suggestions.
 */
const SUGGEST_WORDS = 32;
/** Of a prefix's words, at most this many are read to find the best-known ones (a one-letter prefix of a large vocabulary). */
const SUGGEST_WORDS_READ = 2_000;
/** How many of a word's works (best known first) are looked through for the other typed words. */
const SUGGEST_WALK = 2_000;
/** Words close to a typed one (pg_trgm `%` on the word list) followed when the prefixes found too little. */
const SUGGEST_NEAR_WORDS = 8;

/**
 * Suggestions while typing: at most SUGGESTIONS_MAX artworks (title in any language) and artists
 * (name in any language), labelled in the asked language. Like a classic autocomplete it starts
 * from the search index's words (migration 20261124090000_search_terms), not from the titles: the
 * words the last typed word starts (a CJK word: the words containing it, since Japanese titles
 * have no spaces), the earlier typed words whole; of the last word's words the SUGGEST_WORDS
 * whose best-known work is best known (search_terms.best), from each its best-known works
 * (index-only, a LATERAL top-N), merged and capped at SUGGEST_CANDIDATES; only those few titles
 * (stored folded: `title_folded`) are ranked (a title starts with the typed text, a word of it
 * does, it contains it, plus similarity, then the better known), and only the shown ones are
 * labelled. Artists come from the candidates' artists and, from three characters, the trigram
 * indexes of the (small) name tables. A typo (from MIN_FORGIVEN letters, no CJK) is forgiven only
 * when the prefixes found fewer than SUGGESTIONS_MAX: then the words nearest each typed word
 * (trigram similarity on the word list, a few thousand rows, not the 600,000 titles) give
 * candidates the same way, kept when a title is near (`<%` or `<<%`). One statement; the typo
 * branch is a one-time filter on the count.
 *
 * The caps make it approximate where the old full scan was exact: a little-known work whose title
 * starts with the typed text is shown only if it is among the best known of its word, and its
 * word among the best known of the prefix's words.
 */
export async function searchSuggestions(db: Db, q: string, locale: Locale): Promise<{ items: Suggestion[] }> {
  const lang = textLocale(locale);
  const typed = q.trim();
  const words = typed.split(/\s+/);
  const last = words[words.length - 1]!;
  const before = words.slice(0, -1);
  const lastCjk = HAS_CJK.test(last);
  // The words that can answer the last typed word: the ones it starts (btree text_pattern_ops on
  // the word list), or for CJK the ones containing it (CJK-gram index for one or two characters,
  // trigrams from three). The one- or two-character test is strpos, not LIKE: planned once, a
  // LIKE also drew in the trigram index, and its recheck computed every word's grams (13-19 ms
  // against 3-4 ms at 100,000 works; tests/integration/catalog-scale.test.ts).
  const lastWords = lastCjk
    ? [...last].length <= 2
      ? Prisma.sql`cjk_grams(s.term) @> cjk_grams(${foldedOnce(last)}) AND strpos(s.term, ${foldedOnce(last)}) > 0`
      : Prisma.sql`s.term LIKE '%' || shop_fold(${likeLiteral(last)}) || '%'`
    : Prisma.sql`s.term LIKE shop_fold(${likeLiteral(last)}) || '%'`;
  // A work holds an earlier typed word: that word exactly (it is complete), or for CJK a word containing it.
  const holds = (word: string, entry: Prisma.Sql) =>
    HAS_CJK.test(word)
      ? Prisma.sql`EXISTS (SELECT 1 FROM artwork_terms d WHERE d.artwork_id = ${entry} AND d.term LIKE '%' || shop_fold(${likeLiteral(word)}) || '%')`
      : Prisma.sql`EXISTS (SELECT 1 FROM artwork_terms d WHERE d.artwork_id = ${entry} AND d.term = shop_fold(${word}))`;
  const holdsBefore = (entry: Prisma.Sql) =>
    before.length
      ? Prisma.join(
          before.map((word) => holds(word, entry)),
          ' AND ',
          ' AND ',
        )
      : Prisma.empty;
  // From each word of the last typed word, its best-known works (holding the earlier typed words);
  // with earlier words, also from the first of them walking its works for the last word, so that a
  // rare pair is found from whichever side is short.
  const fromLast = Prisma.sql`
    SELECT e.artwork_id, e.popularity FROM (
      SELECT s.term FROM (SELECT s.term, s.best FROM search_terms s WHERE ${lastWords} LIMIT ${SUGGEST_WORDS_READ}) s
       ORDER BY s.best DESC, s.term LIMIT ${SUGGEST_WORDS}) s
     CROSS JOIN LATERAL (
       SELECT p.artwork_id, p.popularity
         FROM (SELECT p.artwork_id, p.popularity FROM artwork_terms p WHERE p.term = s.term
                ORDER BY p.popularity DESC, p.artwork_id LIMIT ${before.length ? SUGGEST_WALK / 10 : SUGGEST_PER_WORD}) p
        WHERE TRUE ${holdsBefore(Prisma.sql`p.artwork_id`)}
        LIMIT ${SUGGEST_PER_WORD}) e`;
  const anchor = before.find((word) => !HAS_CJK.test(word));
  const fromAnchor = anchor
    ? Prisma.sql`
      UNION ALL
      SELECT p.artwork_id, p.popularity
        FROM (SELECT p.artwork_id, p.popularity FROM artwork_terms p WHERE p.term = shop_fold(${anchor})
               ORDER BY p.popularity DESC, p.artwork_id LIMIT ${SUGGEST_WALK}) p
       WHERE TRUE ${holdsBefore(Prisma.sql`p.artwork_id`)}
         AND EXISTS (SELECT 1 FROM artwork_terms s WHERE s.artwork_id = p.artwork_id AND ${lastWords})
       LIMIT ${SUGGEST_CANDIDATES}`
    : Prisma.empty;
  const forgive = typed.replace(/\s+/g, '').length >= MIN_FORGIVEN && !HAS_CJK.test(typed);
  // Artists: those of the candidate works (their names are words of the works' search texts, so
  // a typed prefix of a name reaches them through the same words; a typo through the near words),
  // and from three characters those with a name word starting with it (CJK: containing it), found
  // through the trigram indexes of the small name tables' folded names (the stored column: a
  // recheck reads it instead of folding each candidate name again). One trigram condition, the
  // containment; "a word starts with it" is then strpos, which no index claims: as two LIKEs it
  // made two or three index scans ("gard": 0.82 → 0.66 ms).
  const nameMatch = (v: Prisma.Sql) =>
    HAS_CJK.test(typed) ? Prisma.sql`${v} LIKE '%' || t.lf || '%'` : Prisma.sql`(${v} LIKE '%' || t.lf || '%' AND strpos(' ' || ${v}, ' ' || t.f) > 0)`;
  const namedArtists =
    [...typed].length >= 3
      ? Prisma.sql`
        UNION ALL SELECT a.id, false FROM typed t JOIN artists a ON ${nameMatch(Prisma.sql`a.name_folded`)} AND a.status = 'published'
        UNION ALL SELECT n.artist_id, false FROM typed t JOIN artist_texts n ON ${nameMatch(Prisma.sql`n.name_folded`)}`
      : Prisma.empty;
  // How well a folded text `v` answers: 3 starts with it, 2 a word starts with it, 1 contains it;
  // plus similarity. `ws`: the text's word similarity, when the caller has it already.
  const score = (v: Prisma.Sql, ws: Prisma.Sql = Prisma.sql`word_similarity(t.f, ${v})`) => Prisma.sql`
    (CASE WHEN ${v} LIKE t.lf || '%' THEN 3 WHEN ${v} LIKE '% ' || t.lf || '%' THEN 2 WHEN ${v} LIKE '%' || t.lf || '%' THEN 1 ELSE 0 END
     + greatest(${ws}, similarity(t.f, ${v})))`;
  // Close enough to forgive a typo: pg_trgm's `t.f <% v OR t.f <<% v` against the same settings
  // (`typed`), with the word similarity computed once for this and the score ("moreu", whose
  // candidates all come from the typo branch: 2.19 → 2.02 ms at 100,000 works).
  const near = (v: Prisma.Sql, ws: Prisma.Sql) => Prisma.sql`(${ws} >= t.wt OR strict_word_similarity(t.f, ${v}) >= t.swt)`;
  // Each candidate's titles as stored folded (`title_folded`, folded when written: folding them on
  // every read was a third of a CJK suggestion's time); the similarities (the costly part) only
  // for the titles that contain the typed text, or, for the typo branch, for all of them with
  // `near`: a title close enough to forgive a typo, as the old title scan had it (word similarity
  // 0.6, strict 0.5). The best of a work's titles counts; a work with no answering title scores NULL.
  const scored = (ids: Prisma.Sql, forgiving: boolean) => Prisma.sql`
    SELECT w.id, w.slug, w.artist_id, h.known, x.score, x.near FROM (${ids}) h
      JOIN artworks w ON w.id = h.id AND w.status = 'published'
      CROSS JOIN LATERAL (
        SELECT ${
          forgiving
            ? Prisma.sql`max(${score(Prisma.sql`f.v`, Prisma.sql`f.ws`)}) AS score, bool_or(${near(Prisma.sql`f.v`, Prisma.sql`f.ws`)})`
            : Prisma.sql`max(${score(Prisma.sql`f.v`)}) AS score, false`
        } AS near
          FROM typed t, artwork_texts x
         -- OFFSET 0 keeps the title a subquery's output: comparing the column directly measured
         -- slower for a typo ("moreu": 5.2 against 3.5 ms, named, 100,000 works).
         CROSS JOIN LATERAL (SELECT x.title_folded AS v ${forgiving ? Prisma.sql`, word_similarity(t.f, x.title_folded) AS ws` : Prisma.empty} OFFSET 0) f
         WHERE x.artwork_id = w.id ${forgiving ? Prisma.empty : Prisma.sql`AND f.v LIKE '%' || t.lf || '%'`}) x`;
  // The typo branch: for each typed word (and all of them run together, "monalisa"), the nearest
  // words of the word list, and their best-known works; evaluated only when the prefixes found too little.
  const nearWorks = forgive
    ? Prisma.sql`,
    near AS (
      SELECT e.artwork_id AS id, max(e.popularity) AS known
        FROM unnest(array_append(string_to_array((SELECT f FROM typed), ' '), replace((SELECT f FROM typed), ' ', ''))) v(word)
        CROSS JOIN LATERAL (
          -- Words containing it ("nacht" in "sternennacht"; LIKE's wildcards escaped), and words near it.
          (SELECT s.term FROM search_terms s
            WHERE length(v.word) >= 3 AND s.term LIKE '%' || replace(replace(replace(v.word, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
            LIMIT ${SUGGEST_NEAR_WORDS})
          UNION
          (SELECT s.term FROM search_terms s WHERE length(v.word) >= 3 AND s.term % v.word
            ORDER BY similarity(s.term, v.word) DESC, s.term LIMIT ${SUGGEST_NEAR_WORDS})) s
        CROSS JOIN LATERAL (SELECT p.artwork_id, p.popularity FROM artwork_terms p WHERE p.term = s.term
                             ORDER BY p.popularity DESC, p.artwork_id LIMIT ${SUGGEST_PER_WORD}) e
       WHERE (SELECT count(*) FROM found) < ${SUGGESTIONS_MAX}
       GROUP BY e.artwork_id ORDER BY known DESC, id LIMIT ${SUGGEST_CANDIDATES}),
    near_scored AS MATERIALIZED (${scored(Prisma.sql`SELECT id, known FROM near`, true)})`
    : Prisma.empty;
  // One word (the common case while typing): planned once per connection, which measured 3–5×
  // less database time for a Latin word and 30–57 % less for a Japanese one; several words plan
  // better for their values (planOnce).
  const statement = Prisma.sql`
    WITH typed AS (SELECT shop_fold(${typed}) AS f, shop_fold(${likeLiteral(typed)}) AS lf,
                      current_setting('pg_trgm.word_similarity_threshold')::real AS wt,
                      current_setting('pg_trgm.strict_word_similarity_threshold')::real AS swt),
    hits AS (
      SELECT h.artwork_id AS id, max(h.popularity) AS known FROM (${fromLast} ${fromAnchor}) h
       GROUP BY h.artwork_id ORDER BY known DESC, id LIMIT ${SUGGEST_CANDIDATES}),
    candidates AS MATERIALIZED (${scored(Prisma.sql`SELECT id, known FROM hits`, false)}),
    -- A work is suggested when one of its titles contains the typed text (its word may have come from the artist's name).
    found AS (SELECT c.id, c.slug, c.artist_id, c.known, c.score FROM candidates c WHERE c.score IS NOT NULL)
    ${nearWorks},
    works AS (
      SELECT * FROM found
      ${forgive ? Prisma.sql`UNION ALL SELECT n.id, n.slug, n.artist_id, n.known, n.score FROM near_scored n WHERE (n.near OR n.score >= 1) AND n.id NOT IN (SELECT id FROM found)` : Prisma.empty}),
    artist_ids AS MATERIALIZED (
      SELECT i.id, bool_or(i.near) AS near FROM (
        SELECT c.artist_id AS id, false AS near FROM candidates c
        ${forgive ? Prisma.sql`UNION ALL SELECT n.artist_id, true FROM near_scored n` : Prisma.empty}
        ${namedArtists}) i GROUP BY i.id),
    -- An artist is suggested when a name contains the typed text or, for an artist reached by the
    -- typo branch, is near it; each name as stored folded (name_folded), the similarities only for those.
    artist_hits AS (
      SELECT h.id, max(${score(Prisma.sql`h.v`)}) AS score FROM typed t, (
        -- By primary key, a few probes per artist (OFFSET 0: not a hash join reading every name).
        SELECT i.id, i.near, n.v FROM artist_ids i CROSS JOIN LATERAL (
          SELECT a.name_folded AS v FROM artists a WHERE a.id = i.id AND a.status = 'published' AND a.artwork_count > 0
          UNION ALL
          SELECT n.name_folded FROM artist_texts n WHERE n.artist_id = i.id OFFSET 0) n
      ) h
      WHERE h.v LIKE '%' || t.lf || '%' ${forgive ? Prisma.sql`OR (h.near AND (t.f <% h.v OR t.f <<% h.v))` : Prisma.empty}
      GROUP BY h.id)
    SELECT s.kind, s.slug, s.label, s.sublabel FROM (
      (SELECT 'artwork' AS kind, w.slug, w.score, w.known,
              COALESCE(tl.title, te.title,
                (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1), w.slug) AS label,
              COALESCE(al.name, a.name) AS sublabel
         -- The best few first, then their labels.
         FROM (SELECT * FROM works ORDER BY score DESC, known DESC, id LIMIT ${SUGGESTIONS_MAX}) w
         JOIN artists a ON a.id = w.artist_id
         LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
         LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
         LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang})
      UNION ALL
      (SELECT 'artist', a.slug, h.score, a.artwork_count * 1000, COALESCE(al.name, a.name),
              CASE WHEN a.birth_year IS NULL AND a.death_year IS NULL THEN NULL
                   ELSE concat_ws('–', a.birth_year::text, a.death_year::text) END
         FROM artist_hits h
         JOIN artists a ON a.id = h.id AND a.status = 'published' AND a.artwork_count > 0
         LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
        ORDER BY h.score DESC, a.artwork_count DESC, a.id LIMIT 3)
    ) s ORDER BY s.score DESC, s.known DESC, s.kind DESC, s.slug LIMIT ${SUGGESTIONS_MAX}`;
  const rows = await readRows<SuggestionRow>(db, before.length ? statement : planOnce(statement));
  return { items: rows.map((r) => ({ kind: r.kind, slug: r.slug, label: r.label, sublabel: r.sublabel })) };
}

/** A page's card rows as listArtworks reads them: the page's cards, each row also carrying the list's total. */
type PageRow = { [K in keyof CardRow]: CardRow[K] | null } & { total: number | bigint };

/** Vulgar fractions fold to text with a space (unaccent: ½ → " 1/2"); a word holding one cannot be a term's substring. */
const FOLDS_TO_SPACE = /[\u00bc-\u00be\u2150-\u215f\u2189]/;

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
  const words = (query.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
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

/**
 * Cards as one JSON array in their order, for a detail read that carries a list of works in its
 * own statement; `chosen` is what `cards` takes. Card values keep their types in JSON (float8
 * sizes print as the driver would read them), so toCard maps them as it maps rows.
 */
function cardsJson(chosen: Prisma.Sql, locale: Locale): Prisma.Sql {
  return Prisma.sql`(SELECT COALESCE(json_agg(json_build_object(
      'slug', c.slug, 'title', c.title, 'year', c.year, 'year_precision', c.year_precision, 'width_cm', c.width_cm, 'height_cm', c.height_cm,
      'image_file', c.image_file, 'artist_slug', c.artist_slug, 'artist_name', c.artist_name) ORDER BY c.ord), '[]')
    FROM (${cards(chosen, locale, Prisma.sql`, w.ord`)}) c)`;
}

/** A page of the best-known works `where` admits (which may name the outer statement's row): what `cards` takes. */
function worksByPopularity(where: Prisma.Sql, page: number): Prisma.Sql {
  return Prisma.sql`
    SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id,
           row_number() OVER (ORDER BY w.popularity DESC, w.id) AS ord
      FROM artworks w
     WHERE w.id IN (SELECT w.id FROM artworks w WHERE ${where} ORDER BY w.popularity DESC, w.id LIMIT ${literalCount(PAGE_SIZE)} OFFSET ${offsetOf(page)})`;
}

interface DetailRow extends CardRow {
  story: string | null;
  wikidata_id: string | null;
  featured: boolean;
  published_at: Date | null;
  taxa: { kind: keyof typeof pluralOf; slug: string; name: string; works: number; via_painter: boolean }[];
  related: CardRow[];
}

const RELATED = 8;

/** Past this many published works a movement's best known works are found by walking the popularity index. */
const LARGE_MOVEMENT = 1_000;

/**
 * An artwork with its story, browse pages and related works, in one statement. Related: up to 8
 * other works, the artist's best known first, then the best known of the same movements.
 */
export async function artworkDetail(db: Db, slug: string, locale: Locale) {
  const lang = textLocale(locale);
  // (The walk's EXISTS keeps OFFSET 0: a probe per work, as the planner would choose anyway; as a
  // semi-join the planner weighs merge and hash joins over all links first, 5 ms of planning.)
  // Related works of the same movements, two ways, of which the statement runs one: each branch's
  // condition on the movements' stored size (mv.works) names only the outer row, so PostgreSQL
  // evaluates it once (a One-Time Filter) and skips the other branch unread. A large movement
  // (thousands of works): walk the best-known published works and probe each one's links by
  // primary key until eight turn up (a few hundred probes, ~2 ms), instead of collecting and
  // sorting the movement's works (50 ms). A small one: collect its few works from its links,
  // since walking the whole catalog for them would find nothing for 100,000 probes.
  const related = Prisma.sql`
    SELECT r.id, r.slug, r.year, r.year_precision, r.width_cm, r.height_cm, r.image_file, r.artist_id,
           row_number() OVER (ORDER BY r.grp, r.popularity DESC, r.id) AS ord FROM (
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 0 AS grp FROM artworks w
        WHERE w.artist_id = aw.artist_id AND w.status = 'published' AND w.id <> aw.id
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 1 AS grp FROM artworks w
        WHERE mv.works >= ${LARGE_MOVEMENT} AND w.status = 'published' AND w.artist_id <> aw.artist_id
          AND EXISTS (SELECT 1 FROM artwork_taxa l WHERE l.artwork_id = w.id AND l.taxon_id = ANY(mv.ids) OFFSET 0)
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 1 AS grp
         FROM (SELECT DISTINCT l.artwork_id FROM artwork_taxa l WHERE mv.works < ${LARGE_MOVEMENT} AND l.taxon_id = ANY(mv.ids)) l
         -- Each linked work by primary key (OFFSET 0: not knowing which movements, the planner would
         -- rather scan artworks or walk the whole popularity index).
         CROSS JOIN LATERAL (SELECT w.* FROM artworks w WHERE w.id = l.artwork_id AND w.status = 'published' AND w.artist_id <> aw.artist_id OFFSET 0) w
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
    ) r ORDER BY r.grp, r.popularity DESC, r.id LIMIT ${RELATED}`;
  // The card's own statement (OFFSET 0: planned on its own) brings the story from the texts it
  // joins anyway; one pass over the work's browse pages gives both their list and its movements.
  // Planned once (planOnce): planning it took 1.5 ms against 1 ms of execution, and the generic
  // plan measured as fast or faster for every work tried (the Mona Lisa: 12 → 4 ms).
  const [row] = isSlug(slug)
    ? await readRows<DetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT aw.*, mv.taxa, ${cardsJson(related, locale)} AS related
          FROM (${cards(
            Prisma.sql`SELECT w.*, 1 AS ord FROM artworks w WHERE w.slug = ${slug} AND w.status = 'published'`,
            locale,
            Prisma.sql`, w.id, w.artist_id, w.wikidata_id, w.featured, w.published_at, COALESCE(tl.story, te.story) AS story`,
          )} OFFSET 0) aw
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('kind', t.kind, 'slug', t.slug, 'name', COALESCE(xl.name, xe.name, t.slug), 'works', t.artwork_count, 'via_painter', l.via_painter)), '[]') AS taxa,
                   COALESCE(array_agg(t.id) FILTER (WHERE t.kind = 'movement'), '{}') AS ids,
                   COALESCE(sum(t.artwork_count) FILTER (WHERE t.kind = 'movement'), 0) AS works
              FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id
              LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
              LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
             WHERE l.artwork_id = aw.id) mv`),
      )
    : [];
  if (!row) throw notFound(`No artwork in the catalog has the slug "${slug}".`);
  const taxa: (TaxonRef & { viaPainter: boolean })[] = row.taxa
    .map((taxon) => ({
      kind: pluralOf[taxon.kind],
      slug: taxon.slug,
      name: taxon.name,
      hasPage: taxon.works >= BROWSE_PAGE_MIN_WORKS,
      viaPainter: taxon.via_painter,
    }))
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
    related: row.related.map(toCard),
  };
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

/** Artists with their cover image (kept by recountCatalog), in one statement; `ord` is their place. */
function artistCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT a.id, a.slug, COALESCE(al.name, a.name) AS name, a.birth_year, a.death_year, a.artwork_count,
           a.cover_image AS image_file, row_number() OVER (ORDER BY a.artwork_count DESC, a.name, a.id) AS ord
      FROM (SELECT * FROM artists a WHERE ${where} ORDER BY a.artwork_count DESC, a.name, a.id LIMIT ${literalCount(limit)} OFFSET ${offset}) a
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

const MAIN_MOVEMENTS = 3;

interface ArtistDetailRow extends ArtistRow {
  bio: string | null;
  wikidata_id: string | null;
  movements: { slug: string; name: string; n: number; works: number }[];
  works: CardRow[];
}

/** An artist with their main movements and a page of their works (total: their stored count), in one statement. */
export async function artistDetail(db: Db, slug: string, page: number, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await readRows<ArtistDetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT c.*, ar.wikidata_id, COALESCE(tl.bio, te.bio) AS bio, mv.movements,
               ${cardsJson(worksByPopularity(Prisma.sql`w.status = 'published' AND w.artist_id = ar.id`, page), locale)} AS works
          FROM (${artistCards(Prisma.sql`a.slug = ${slug} AND a.status = 'published'`, locale, 1, 0)}) c
          JOIN artists ar ON ar.id = c.id
          LEFT JOIN artist_texts tl ON tl.artist_id = ar.id AND tl.locale = ${lang}
          -- A join, not a second subquery in the select list (see taxonDetail: planning time).
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('slug', m.slug, 'name', m.name, 'n', m.n, 'works', m.works) ORDER BY m.n DESC, m.slug), '[]') AS movements
              FROM (SELECT t.slug, COALESCE(xl.name, xe.name, t.slug) AS name, count(*) AS n, t.artwork_count AS works
                      FROM artworks w JOIN artwork_taxa l ON l.artwork_id = w.id JOIN taxa t ON t.id = l.taxon_id AND t.kind = 'movement'
                      LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
                      LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
                     WHERE w.artist_id = ar.id AND w.status = 'published'
                     GROUP BY t.id, t.slug, t.artwork_count, xl.name, xe.name ORDER BY n DESC, t.slug LIMIT ${MAIN_MOVEMENTS}) m) mv
          LEFT JOIN artist_texts te ON te.artist_id = ar.id AND te.locale = 'en'`),
      )
    : [];
  if (!row) throw notFound(`No artist in the catalog has the slug "${slug}".`);
  return {
    artist: { ...toArtistCard(row), bio: row.bio, wikidataId: row.wikidata_id },
    movements: row.movements.map((m) => ({
      kind: 'movements' as const,
      slug: m.slug,
      name: m.name,
      artworkCount: m.n,
      hasPage: m.works >= BROWSE_PAGE_MIN_WORKS,
    })),
    works: { items: row.works.map(toCard), total: row.artwork_count, page, pageSize: PAGE_SIZE },
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

/**
 * Browse pages with their cover image (kept by recountCatalog), in one statement. (Their LIMIT
 * stays a parameter: a few hundred pages in all, and the list's generic plan measured slower
 * with the number written in, 0.35 → 0.57 ms for the movements.)
 */
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

interface TaxonDetailRow extends TaxonRow {
  description: string | null;
  top_artists: { slug: string; name: string; n: number }[];
  works: CardRow[];
}

/**
 * A browse page with its top artists and a page of its works (total: its stored count), in one
 * statement. Its works are a range of its stored order (taxon_positions, kept by recountCatalog
 * like the grid's): 48 places by primary key, each work by its own. Before, a small page (a
 * museum's few hundred works) collected and sorted all its links, and a page of thousands walked
 * the best-known works probing each one's links until a page was full.
 */
export async function taxonDetail(db: Db, kind: string, slug: string, page: number, locale: Locale) {
  const single = kindFor(kind);
  const lang = textLocale(locale);
  const works = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, p.position AS ord
      FROM (SELECT p.position, p.artwork_id FROM taxon_positions p
             WHERE p.taxon_id = tx.id AND p.position > ${offsetOf(page)} ORDER BY p.position LIMIT ${literalCount(PAGE_SIZE)}) p
      JOIN artworks w ON w.id = p.artwork_id AND w.status = 'published'`;
  const [row] = isSlug(slug)
    ? await readRows<TaxonDetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT c.*, COALESCE(tl.description, te.description) AS description, top.top_artists, ${cardsJson(works, locale)} AS works
          FROM (${taxonCards(Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.slug = ${slug} AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`, locale, 1, 0)}) c
          JOIN taxa tx ON tx.id = c.id
          LEFT JOIN taxon_texts tl ON tl.taxon_id = c.id AND tl.locale = ${lang}
          -- A join, not a second subquery in the select list: two correlated subqueries there took
          -- the planner longer (7 ms) than running the whole statement (2.6 ms).
          -- Top artists: kept by recountCatalog with the page's count, so a large page costs no aggregation here.
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('slug', a.slug, 'name', COALESCE(al.name, a.name), 'n', (e.entry->>'n')::int) ORDER BY e.place), '[]') AS top_artists
              FROM jsonb_array_elements(tx.top_artists) WITH ORDINALITY AS e(entry, place)
              CROSS JOIN LATERAL (SELECT a.id, a.slug, a.name FROM artists a WHERE a.id = (e.entry->>'id')::int AND a.status = 'published' OFFSET 0) a
              LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}) top
          LEFT JOIN taxon_texts te ON te.taxon_id = c.id AND te.locale = 'en'`),
      )
    : [];
  if (!row) throw notFound(`No ${single} page in the catalog has the slug "${slug}".`);
  return {
    taxon: { ...toTaxonCard(kind as TaxonKindPlural)(row), description: row.description },
    topArtists: row.top_artists.map((a) => ({ slug: a.slug, name: a.name, artworkCount: a.n })),
    works: { items: row.works.map(toCard), total: row.artwork_count, page, pageSize: PAGE_SIZE },
  };
}
