-- AlterTable
ALTER TABLE "artwork_terms" ADD COLUMN     "lead" SMALLINT NOT NULL DEFAULT 0;

-- Hand-written below (docs/database.md "Search"): how a work's titles begin with each of its words.
--
-- A search of one word ranks the works whose title is the word first, then those whose title
-- starts with it, then the best known. It used to read both sets of titles from the folded-title
-- index and probe each match in them: for "river" at 100,000 works, 372 and 1,913 titles against
-- 3,073 matches, a third of the statement. For a word without spaces a title starts with it exactly
-- when the title's first word does, and that first word is one of the work's words: so each entry
-- says it (`lead`), and the matches rank themselves from their own entries.

-- The first word of each title (any language, folded as the search text is) of the works with ids
-- from p_first to p_last, 2 when the title is that word alone. One definition for the trigger (one
-- work), the backfill below and scripts/fill-catalog.ts (a range); inlined by the planner.
CREATE FUNCTION artwork_title_leads(p_first integer, p_last integer) RETURNS TABLE (artwork_id integer, term text, lead smallint)
  LANGUAGE sql STABLE
  AS $$
    SELECT x.artwork_id, split_part(x.title_folded, ' ', 1), max(CASE WHEN strpos(x.title_folded, ' ') = 0 THEN 2 ELSE 1 END)::smallint
      FROM artwork_texts x
     WHERE x.artwork_id BETWEEN p_first AND p_last AND x.title_folded IS NOT NULL AND split_part(x.title_folded, ' ', 1) <> ''
     GROUP BY 1, 2
  $$;

-- As 20261125070000_search_term_best wrote it, with each entry's lead. A title's change changes
-- the search text, which fires this trigger.
CREATE OR REPLACE FUNCTION artwork_terms_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  terms text[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM artwork_terms WHERE artwork_id = OLD.id;
  END IF;
  IF NEW.status = 'published' AND NEW.search_text IS NOT NULL THEN
    terms := search_terms_of(NEW.search_text);
    INSERT INTO search_terms (term, best) SELECT unnest(terms), NEW.popularity ON CONFLICT DO NOTHING;
    UPDATE search_terms SET best = NEW.popularity WHERE term = ANY (terms) AND best < NEW.popularity;
    INSERT INTO artwork_terms (artwork_id, term, popularity, lead)
      SELECT NEW.id, t, NEW.popularity, COALESCE(l.lead, 0)
        FROM unnest(terms) t LEFT JOIN artwork_title_leads(NEW.id, NEW.id) l ON l.term = t;
  END IF;
  RETURN NULL;
END $$;

-- The entries already written.
UPDATE artwork_terms p SET lead = l.lead
  FROM artwork_title_leads(0, 2147483647) l
 WHERE p.artwork_id = l.artwork_id AND p.term = l.term;

-- The search's scan stays index-only with the lead read from the index (after the backfill: one build).
DROP INDEX "artwork_terms_term_popularity_artwork_id_idx";
CREATE INDEX "artwork_terms_term_popularity_artwork_id_lead_idx" ON "artwork_terms"("term", "popularity" DESC, "artwork_id", "lead");
