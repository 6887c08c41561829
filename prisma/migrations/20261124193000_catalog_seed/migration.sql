-- CreateTable
CREATE TABLE "catalog_seed" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "fingerprint" CHAR(64) NOT NULL,
    "seeded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_seed_pkey" PRIMARY KEY ("id")
);

-- One row: the catalog is seeded from one set of curated files.
ALTER TABLE "catalog_seed" ADD CONSTRAINT "catalog_seed_one_row" CHECK ("id" = 1);
