-- CreateTable
CREATE TABLE "artwork_terms" (
    "artwork_id" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "popularity" INTEGER NOT NULL,

    CONSTRAINT "artwork_terms_pkey" PRIMARY KEY ("artwork_id","term")
);

-- CreateTable
CREATE TABLE "search_terms" (
    "term" TEXT NOT NULL,

    CONSTRAINT "search_terms_pkey" PRIMARY KEY ("term")
);

-- CreateIndex
CREATE INDEX "artwork_terms_term_popularity_artwork_id_idx" ON "artwork_terms"("term", "popularity" DESC, "artwork_id");

-- AddForeignKey
ALTER TABLE "artwork_terms" ADD CONSTRAINT "artwork_terms_artwork_id_fkey" FOREIGN KEY ("artwork_id") REFERENCES "artworks"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- Hand-written below: the search index (issue #20, item 3; docs/database.md "Search").
--
-- A search word must appear in a work's folded search text (`artworks.search_text`: every title
-- and artist name, shop_fold'ed). Read through the trigram index of that column, a common word
-- ("river", 3,000 of 100,000 works) cost 10-30 ms: the index only names candidates, so every one
-- was fetched from the table and rechecked, and the total and the ranking need all of them.
-- Search words never hold a space, so a word found in the text is found inside one of its
-- space-separated pieces ("terms"). Hence two tables:
--   search_terms   every term once (a few thousand to a few hundred thousand rows): the typed word
--                  is matched against these (trigram or CJK index, then the exact LIKE);
--   artwork_terms  each published work under each of its terms, with its popularity: the works of
--                  the matching terms, their count and their order come from an index-only scan of
--                  (term, popularity DESC, artwork_id), without reading a single artwork row.
-- The same LIKE on the same folded text decides a match, so searches find exactly what they did.

-- A search text's terms: its distinct non-empty space-separated pieces.
CREATE FUNCTION search_terms_of(value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT COALESCE(array_agg(DISTINCT t), '{}') FROM unnest(string_to_array(value, ' ')) t WHERE t <> '' $$;

-- Kept by triggers on artworks: the search text (itself kept by the catalog_search triggers), the
-- status (only published works are searched) and the popularity (the order) decide the entries.
-- Deleting a work deletes its entries (foreign key, ON DELETE CASCADE). search_terms only grows:
-- a term no work holds any more leads to no entry, so it costs nothing but its row.
CREATE FUNCTION artwork_terms_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM artwork_terms WHERE artwork_id = OLD.id;
  END IF;
  IF NEW.status = 'published' AND NEW.search_text IS NOT NULL THEN
    INSERT INTO search_terms (term) SELECT unnest(search_terms_of(NEW.search_text)) ON CONFLICT DO NOTHING;
    INSERT INTO artwork_terms (artwork_id, term, popularity)
      SELECT NEW.id, t, NEW.popularity FROM unnest(search_terms_of(NEW.search_text)) t;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER artworks_terms_insert AFTER INSERT ON artworks
  FOR EACH ROW EXECUTE FUNCTION artwork_terms_after_write();
CREATE TRIGGER artworks_terms_update AFTER UPDATE ON artworks
  FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.status IS DISTINCT FROM NEW.status
                     OR OLD.popularity IS DISTINCT FROM NEW.popularity OR OLD.id <> NEW.id)
  EXECUTE FUNCTION artwork_terms_after_write();

-- The typed word against the terms: trigrams from three characters on; one or two CJK characters
-- through the terms' CJK characters and pairs (cjk_grams, as artworks_search_cjk_grams did).
CREATE INDEX search_terms_trgm ON search_terms USING gin (term gin_trgm_ops);
CREATE INDEX search_terms_cjk_grams ON search_terms USING gin (cjk_grams(term));

-- The works already published.
INSERT INTO search_terms (term)
  SELECT DISTINCT unnest(search_terms_of(search_text)) FROM artworks WHERE status = 'published' AND search_text IS NOT NULL
  ON CONFLICT DO NOTHING;
INSERT INTO artwork_terms (artwork_id, term, popularity)
  SELECT w.id, t, w.popularity FROM artworks w CROSS JOIN LATERAL unnest(search_terms_of(w.search_text)) t
   WHERE w.status = 'published' AND w.search_text IS NOT NULL;
