-- AlterTable
ALTER TABLE "artworks" ADD COLUMN     "search_text" TEXT;


-- Hand-written below: search in any language, case- and accent-insensitive, on trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE because its dictionary could be swapped; naming the dictionary makes
-- the fold IMMUTABLE, which an index expression needs. The app folds queries the same way.
CREATE FUNCTION shop_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;

-- What an artwork is found by: its titles in every language and its artist's names.
CREATE FUNCTION artwork_search_text(p_artwork_id integer, p_artist_id integer) RETURNS text
  LANGUAGE sql STABLE
  AS $$
    SELECT shop_fold(concat_ws(' ',
      (SELECT string_agg(DISTINCT title, ' ') FROM artwork_texts WHERE artwork_id = p_artwork_id AND title IS NOT NULL),
      (SELECT name FROM artists WHERE id = p_artist_id),
      (SELECT string_agg(DISTINCT name, ' ') FROM artist_texts WHERE artist_id = p_artist_id)))
  $$;

CREATE FUNCTION artworks_search_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := artwork_search_text(NEW.id, NEW.artist_id);
  RETURN NEW;
END $$;
CREATE TRIGGER artworks_search_text BEFORE INSERT OR UPDATE OF artist_id ON artworks
  FOR EACH ROW EXECUTE FUNCTION artworks_search_before_write();

CREATE FUNCTION artwork_texts_search_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE artworks SET search_text = artwork_search_text(id, artist_id)
   WHERE id IN (NEW.artwork_id, OLD.artwork_id);
  RETURN NULL;
END $$;
CREATE TRIGGER artwork_texts_search_text AFTER INSERT OR DELETE OR UPDATE OF title ON artwork_texts
  FOR EACH ROW EXECUTE FUNCTION artwork_texts_search_after_write();

CREATE FUNCTION artist_texts_search_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE artworks SET search_text = artwork_search_text(id, artist_id)
   WHERE artist_id IN (NEW.artist_id, OLD.artist_id);
  RETURN NULL;
END $$;
CREATE TRIGGER artist_texts_search_text AFTER INSERT OR DELETE OR UPDATE OF name ON artist_texts
  FOR EACH ROW EXECUTE FUNCTION artist_texts_search_after_write();

CREATE FUNCTION artists_search_after_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE artworks SET search_text = artwork_search_text(id, artist_id) WHERE artist_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER artists_search_text AFTER UPDATE OF name ON artists
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION artists_search_after_rename();

-- Only published works are ever searched.
CREATE INDEX artworks_search_text_trgm ON artworks USING gin (search_text gin_trgm_ops) WHERE status = 'published';
-- Exact-title ranking and title lookups in any language.
CREATE INDEX artwork_texts_title_folded ON artwork_texts (shop_fold(title));

-- Existing rows (the curated seed) get their search text now.
UPDATE artworks SET search_text = artwork_search_text(id, artist_id);
