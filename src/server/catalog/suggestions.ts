import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { planOnce, readRows, type Db } from '@/server/db/client';
import { textLocale, type Locale } from '@/shared/locales';
import { foldedOnce, HAS_CJK, likeLiteral } from './cards';
import { MIN_FORGIVEN } from './did-you-mean';
import { SUGGESTIONS_MAX, type Suggestion } from './schema';

interface SuggestionRow {
  kind: 'artwork' | 'artist';
  slug: string;
  label: string;
  sublabel: string | null;
}

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
