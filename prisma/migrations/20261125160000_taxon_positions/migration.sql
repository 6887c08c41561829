-- CreateTable
CREATE TABLE "taxon_positions" (
    "taxon_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "artwork_id" INTEGER NOT NULL,

    CONSTRAINT "taxon_positions_pkey" PRIMARY KEY ("taxon_id","position")
);


-- Hand-written: the places of the works already published (recountCatalog keeps them from now on).
INSERT INTO taxon_positions (taxon_id, position, artwork_id)
SELECT l.taxon_id, row_number() OVER (PARTITION BY l.taxon_id ORDER BY w.popularity DESC, w.id), w.id
  FROM artwork_taxa l JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published';
