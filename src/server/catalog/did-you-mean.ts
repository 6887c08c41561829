import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { planOnce, readRows, type Db } from '@/server/db/client';
import { textLocale, type Locale } from '@/shared/locales';
import { literalCount, SHORT_TITLE_BYTES } from './cards';

/**
 * "Did you mean": for a search that found (almost) nothing, the published title or artist name
 * closest to what was typed (closestText), which listArtworks (lists.ts) then searches instead.
 * Its statement is one template, with the numbers that bound its work beside it.
 */

/** A search that finds fewer works than this on its first page looks for a close title or name. */
export const FEW_RESULTS = 3;

/** What was typed must have this many letters (spaces aside) before a misspelling is guessed at. */
export const MIN_FORGIVEN = 4;

/** How close (pg_trgm similarity or word similarity, 0 to 1) a title or name must be to be suggested. */
const CLOSE_ENOUGH = 0.5;

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
export async function closestText(db: Db, q: string): Promise<string | null> {
  // Guessing (its words, the text it makes) cost the statement about 6 % of its throughput under
  // load even when nothing was guessed, so it is a statement of its own, sent only when the first
  // says a typed word has no near word: the same answer as one statement that always guessed.
  const [first] = await readRows<{ text: string | null; unmatched: boolean }>(db, planOnce(closestStatement(q, false)));
  const row = first?.unmatched ? (await readRows<{ text: string | null }>(db, planOnce(closestStatement(q, true))))[0] : first;
  const text = row?.text?.trim();
  return text && text.toLowerCase() !== q.toLowerCase() ? text : null;
}

/**
 * The closest text as the page names it: a title or artist name found in another language
 * ("Jan Vermeer", "Die Sternennacht" on an English page) becomes the same painter's or work's name
 * in the page's language (English where it has none), so the correction reads as the shopper's
 * own; a text mended word by word is neither and stays as it is. The best-known painter, then
 * work, wins when several share the text.
 */
export async function inPageLanguage(db: Db, text: string, locale: Locale): Promise<string> {
  const lang = textLocale(locale);
  const [row] = await readRows<{ text: string | null }>(
    db,
    Prisma.sql`
      WITH typed AS (SELECT shop_fold(${text}) AS f)
      SELECT COALESCE(
        -- The painters bearing the text in any language (the folded names' trigram indexes answer equality).
        (SELECT COALESCE(al.name, a.name) FROM (
           SELECT a.id FROM typed t, artists a WHERE a.name_folded = t.f
           UNION SELECT n.artist_id FROM typed t, artist_texts n WHERE n.name_folded = t.f) m
           JOIN artists a ON a.id = m.id AND a.status = 'published' AND a.artwork_count > 0
           LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
          ORDER BY a.artwork_count DESC, a.id LIMIT 1),
        (SELECT COALESCE(tl.title, te.title, x.title) FROM typed t, artwork_texts x
           JOIN artworks w ON w.id = x.artwork_id AND w.status = 'published'
           LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
           LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
          WHERE shop_fold(x.title) = t.f
          ORDER BY w.popularity DESC, w.id LIMIT 1)) AS text`,
  );
  return row?.text ?? text;
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
