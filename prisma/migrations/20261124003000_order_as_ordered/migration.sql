-- CreateEnum
CREATE TYPE "Orientation" AS ENUM ('portrait', 'landscape');

-- CreateEnum
CREATE TYPE "Fit" AS ENUM ('whole', 'crop');

-- CreateEnum
CREATE TYPE "PhotoKind" AS ENUM ('customer', 'sketch', 'progress', 'finished');

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "fit" "Fit",
ADD COLUMN     "orientation" "Orientation" NOT NULL DEFAULT 'portrait',
ADD COLUMN     "showcase_consent" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "order_events" ADD COLUMN     "photo_id" UUID,
ADD COLUMN     "sketch_status" "SketchStatus";

-- AlterTable
ALTER TABLE "uploads" ADD COLUMN     "height" INTEGER,
ADD COLUMN     "width" INTEGER;

-- CreateTable
CREATE TABLE "order_photos" (
    "upload_id" UUID NOT NULL,
    "order_id" INTEGER NOT NULL,
    "kind" "PhotoKind" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_photos_pkey" PRIMARY KEY ("upload_id")
);

-- CreateIndex
CREATE INDEX "order_photos_order_id_created_at_idx" ON "order_photos"("order_id", "created_at");

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_photo_id_fkey" FOREIGN KEY ("photo_id") REFERENCES "order_photos"("upload_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written below (prisma-diff writes the part above).

-- Orders taken before this migration: reproductions kept the whole composition and hang the way
-- their artwork does; custom orders stay portrait (their photos were never measured).
UPDATE "orders" o SET "fit" = 'whole',
  "orientation" = CASE WHEN a."width_cm" > a."height_cm" THEN 'landscape'::"Orientation" ELSE 'portrait'::"Orientation" END
FROM "artworks" a WHERE o."kind" = 'reproduction' AND a."id" = o."artwork_id";
UPDATE "orders" SET "fit" = 'whole' WHERE "kind" = 'reproduction' AND "fit" IS NULL;

-- The customer's own photo of every custom order is the first photo of its timeline.
INSERT INTO "order_photos" ("upload_id", "order_id", "kind", "created_at")
SELECT "upload_id", "id", 'customer', "created_at" FROM "orders" WHERE "upload_id" IS NOT NULL;

-- A reproduction always says how it meets the canvas; a custom painting never does.
ALTER TABLE "orders" ADD CONSTRAINT "orders_fit_kind_check" CHECK (("kind" = 'reproduction') = ("fit" IS NOT NULL));
