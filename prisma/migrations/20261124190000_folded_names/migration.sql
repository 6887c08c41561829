-- Titles and names folded (shop_fold: lower case, unaccent) once, when they are written, instead of
-- on every read: suggestions while typing rank their candidates' titles and artists' names, and
-- folding them per request was about a third of the statement's time (issue #17, CJK prefixes).
-- Generated columns, which Prisma cannot express: PostgreSQL keeps them with the text and refuses
-- a value written to them. They are not declared in prisma/schema.prisma, so Prisma never reads or
-- writes them (docs/database.md "Search").
ALTER TABLE "artwork_texts" ADD COLUMN "title_folded" TEXT GENERATED ALWAYS AS (shop_fold("title")) STORED;
ALTER TABLE "artist_texts" ADD COLUMN "name_folded" TEXT GENERATED ALWAYS AS (shop_fold("name")) STORED;
ALTER TABLE "artists" ADD COLUMN "name_folded" TEXT GENERATED ALWAYS AS (shop_fold("name")) STORED;
