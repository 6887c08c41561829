-- Hand-written (issue #42, item 3; docs/database.md "Search"): Japanese is folded as Japanese
-- shoppers type it.
--
-- "モナリザ", the usual spelling, found nothing: the catalog writes "モナ・リザ", and shop_fold kept
-- the middle dot. It now also folds to Unicode's compatibility form (NFKC: half-width katakana
-- "ﾓﾅﾘｻﾞ" and its long-vowel mark "ｰ" become "モナリザ" and "ー", full-width "ＭＯＮＡ" becomes "mona"),
-- writes the dashes an input method may give for the long-vowel mark as "ー", and drops the middle
-- dots that separate the words of a katakana name. Both sides fold alike: the catalog's texts when
-- written, and what was typed in every statement (shop_fold(${q})).
CREATE OR REPLACE FUNCTION shop_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT translate(lower(public.unaccent('public.unaccent'::regdictionary, normalize(value, NFKC))), '―—‐−・·‧', 'ーーーー') $$;

-- What was folded with the old definition, folded again. The generated columns first (a column set
-- to DEFAULT is computed again; the title and name are not written, so their triggers stay quiet).
UPDATE artwork_texts SET title_folded = DEFAULT WHERE title IS NOT NULL AND title_folded IS DISTINCT FROM shop_fold(title);
UPDATE artist_texts SET name_folded = DEFAULT WHERE name_folded IS DISTINCT FROM shop_fold(name);
UPDATE artists SET name_folded = DEFAULT WHERE name_folded IS DISTINCT FROM shop_fold(name);
-- Then the works' search texts, whose trigger writes their words (artwork_terms, search_terms) and
-- the words their titles begin with, from the folded titles above. Words of the old folding stay in
-- search_terms and lead to no work, as any word no work holds any more (20261124090000_search_terms).
UPDATE artworks SET search_text = artwork_search_text(id, artist_id) WHERE search_text IS DISTINCT FROM artwork_search_text(id, artist_id);

-- Indexes over shop_fold(...) expressions hold values of the old definition: rebuilt.
DO $$
DECLARE
  i record;
BEGIN
  FOR i IN SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexdef LIKE '%shop_fold(%' LOOP
    EXECUTE format('REINDEX INDEX %I', i.indexname);
  END LOOP;
END $$;
