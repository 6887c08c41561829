-- Hand-written: nothing in schema.prisma changed.
--
-- "Did you mean" guesses a word for a typed word that no word of the search index is near by
-- trigrams ("apels": 0.18 like "apples", under pg_trgm's 0.3): among the words of `search_terms`
-- the fewest edits away (src/server/catalog/service.ts, closestText). Edits are Levenshtein's,
-- from fuzzystrmatch, a contrib module shipped with PostgreSQL like pg_trgm and unaccent (and
-- offered by the managed services that offer those).
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
