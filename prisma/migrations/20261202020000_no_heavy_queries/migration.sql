-- AlterTable
ALTER TABLE "ingest_runs" DROP COLUMN "heavy_queries";

