-- CreateTable
CREATE TABLE "grid_positions" (
    "position" INTEGER NOT NULL,
    "artwork_id" INTEGER NOT NULL,

    CONSTRAINT "grid_positions_pkey" PRIMARY KEY ("position")
);


-- Hand-written: the places of the works already published (recountCatalog keeps them from now on).
INSERT INTO grid_positions (position, artwork_id)
SELECT row_number() OVER (ORDER BY popularity DESC, id), id FROM artworks WHERE status = 'published';
