-- AlterTable
ALTER TABLE "search_terms" ADD COLUMN     "best" INTEGER NOT NULL DEFAULT 0;



-- Hand-written below: each word's best-known work (docs/database.md "Search").
--
-- A suggestion for a short prefix follows at most a few dozen of the words it starts (or, in
-- Japanese, of the words containing it). They used to be the first words in alphabetical order
-- (a one-letter prefix of a real catalog starts thousands of words) and the statement looked up
-- every one's best-known works to keep the best of them. `best` lets it take the words whose
-- best-known work is best known first, and look up only those.
--
-- Kept as an upper bound when works are written: the trigger that writes a work's terms raises
-- its words' best (a word's row is written, and locked, only when it rises: once a catalog
-- exists, rarely). A work that is unpublished, deleted or less popular than before does not lower
-- it: that would mean finding the next best work of each of its words, under the lock of every
-- word it held. recountCatalog sets every word's best exactly, as it sets the artists' and browse
-- pages' counts and covers, after every publish and data fix; in between, a word may rank a
-- little higher than it should, never lower.
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
    INSERT INTO artwork_terms (artwork_id, term, popularity) SELECT NEW.id, unnest(terms), NEW.popularity;
  END IF;
  RETURN NULL;
END $$;

UPDATE search_terms s SET best = m.best
  FROM (SELECT t.term, COALESCE((SELECT p.popularity FROM artwork_terms p WHERE p.term = t.term ORDER BY p.popularity DESC LIMIT 1), 0) AS best
          FROM search_terms t) m
 WHERE s.term = m.term AND s.best <> m.best;
