-- CreateTable
CREATE TABLE "catalog_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 1,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_version_pkey" PRIMARY KEY ("id")
);


-- Hand-written below.

-- 1. The catalog version: the one row, and the triggers that bump it whenever something a shopper
-- can see changes (a published work, artist or browse page, their texts and links). The triggers
-- are deferred constraint triggers, so the bump runs at COMMIT, inside the changing transaction:
-- a reader that sees the new version also sees the change, and the version row is locked only for
-- the moment before the commit (last lock taken, so no deadlock with the change's own row locks).
-- A transaction bumps at most once (transaction-local flag). Changes to queued rows only do not bump.
INSERT INTO catalog_version (id, version) VALUES (1, 1);

CREATE FUNCTION catalog_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  visible boolean := true; -- taxa and taxon_texts: browse pages have no status of their own
BEGIN
  IF current_setting('atelier.catalog_bumped', true) = 'yes' THEN
    RETURN NULL;
  END IF;
  -- PL/pgSQL compiles a trigger function once per table, so each branch only names its table's columns.
  IF TG_TABLE_NAME IN ('artworks', 'artists') THEN
    visible := (TG_OP <> 'DELETE' AND NEW.status = 'published') OR (TG_OP <> 'INSERT' AND OLD.status = 'published');
  ELSIF TG_TABLE_NAME IN ('artwork_texts', 'artwork_taxa') THEN
    visible := EXISTS (SELECT 1 FROM artworks w WHERE w.status = 'published'
                          AND w.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.artwork_id ELSE NEW.artwork_id END);
  ELSIF TG_TABLE_NAME = 'artist_texts' THEN
    visible := EXISTS (SELECT 1 FROM artists a WHERE a.status = 'published'
                          AND a.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.artist_id ELSE NEW.artist_id END);
  END IF;
  IF visible THEN
    UPDATE catalog_version SET version = version + 1, changed_at = now() WHERE id = 1;
    PERFORM set_config('atelier.catalog_bumped', 'yes', true);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER artworks_catalog_version AFTER INSERT OR UPDATE OR DELETE ON artworks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER artists_catalog_version AFTER INSERT OR UPDATE OR DELETE ON artists
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER taxa_catalog_version AFTER INSERT OR UPDATE OR DELETE ON taxa
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER artwork_texts_catalog_version AFTER INSERT OR UPDATE OR DELETE ON artwork_texts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER artist_texts_catalog_version AFTER INSERT OR UPDATE OR DELETE ON artist_texts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER taxon_texts_catalog_version AFTER INSERT OR UPDATE OR DELETE ON taxon_texts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER artwork_taxa_catalog_version AFTER INSERT OR UPDATE OR DELETE ON artwork_taxa
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();

-- 2. Search for one- and two-character words in Chinese, Japanese and Korean (川, 庭園): a trigram
-- index cannot serve a word shorter than three characters, so those searches walked every work.
-- Each work's CJK characters and pairs of adjacent CJK characters, in a GIN index: `@>` finds a
-- one- or two-character word exactly. Latin words of three letters or more keep the trigram index.
CREATE FUNCTION cjk_grams(value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT COALESCE(array_agg(DISTINCT substr(m.run, i, n)), '{}')
      FROM regexp_matches(value, '[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g') AS r(parts)
     CROSS JOIN LATERAL (SELECT r.parts[1] AS run) m
     CROSS JOIN LATERAL generate_series(1, length(m.run)) i
     CROSS JOIN (VALUES (1), (2)) v(n)
     WHERE i + n - 1 <= length(m.run)
  $$;
CREATE INDEX artworks_search_cjk_grams ON artworks USING gin (cjk_grams(search_text)) WHERE status = 'published';
