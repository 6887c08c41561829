-- This is an empty migration.

-- No change to schema.prisma (`prisma-diff` finds none); hand-written only.

-- Search that forgives (issue #17, item 4): "did you mean" for a search that finds little, and
-- suggestions while typing. Both compare what was typed, folded (shop_fold: lower case, no
-- accents), with titles in every language and artist names by trigrams (pg_trgm): `<%`
-- (word_similarity: the typed text against the best matching stretch of a title, so a prefix or
-- a typo in one word still scores) and LIKE '%…%'. A GIN trigram index on the folded text serves
-- both operators; without one, each keystroke would fold and compare every title.
CREATE INDEX artwork_texts_title_trgm ON artwork_texts USING gin (shop_fold(title) gin_trgm_ops);
CREATE INDEX artist_texts_name_trgm ON artist_texts USING gin (shop_fold(name) gin_trgm_ops);
CREATE INDEX artists_name_trgm ON artists USING gin (shop_fold(name) gin_trgm_ops) WHERE status = 'published';
