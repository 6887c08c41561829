-- AlterTable
ALTER TABLE "artists" ADD COLUMN     "cover_image" VARCHAR(400);

-- AlterTable
ALTER TABLE "taxa" ADD COLUMN     "cover_image" VARCHAR(400);

-- Hand-written below.
-- Pages of the published catalog, best known first, read from the index alone.
CREATE INDEX artworks_published_by_popularity ON artworks (popularity DESC, id) WHERE status = 'published';
