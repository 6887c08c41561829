-- CreateEnum
CREATE TYPE "DatePrecision" AS ENUM ('year', 'circa', 'decade', 'century');

-- AlterEnum
ALTER TYPE "TextSource" ADD VALUE 'fallback';

-- AlterTable
ALTER TABLE "artworks" ADD COLUMN     "original_language" VARCHAR(20),
ADD COLUMN     "original_title" VARCHAR(500),
ADD COLUMN     "year_precision" "DatePrecision" NOT NULL DEFAULT 'year';

-- AlterTable
ALTER TABLE "artwork_taxa" ADD COLUMN     "via_painter" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ingest_runs" ADD COLUMN     "kind" VARCHAR(20) NOT NULL DEFAULT 'ingest';

-- CreateTable
CREATE TABLE "painter_candidates" (
    "wikidata_id" VARCHAR(20) NOT NULL,
    "paintings" INTEGER NOT NULL,
    "birth_year" INTEGER,
    "death_year" INTEGER,
    "listed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "painter_candidates_pkey" PRIMARY KEY ("wikidata_id")
);

-- CreateIndex
CREATE INDEX "painter_candidates_paintings_wikidata_id_idx" ON "painter_candidates"("paintings" DESC, "wikidata_id");

