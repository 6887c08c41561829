-- AlterTable
ALTER TABLE "taxa" ADD COLUMN     "top_artists" JSONB NOT NULL DEFAULT '[]';

