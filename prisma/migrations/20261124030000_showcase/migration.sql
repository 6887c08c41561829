-- AlterTable
ALTER TABLE "order_photos" ADD COLUMN     "showcased_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "order_photos_showcased_at_idx" ON "order_photos"("showcased_at" DESC);



-- Hand-written below (prisma-diff writes the part above).

-- Only a studio's finished photo can be shown in the gallery (the customer's own photo never).
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_showcased_finished_check" CHECK ("showcased_at" IS NULL OR "kind" = 'finished');

-- The gallery (GET /v1/showcase) is a public read kept in the catalog's response cache, so what a
-- shopper can see there bumps the catalog version like a published work does (the deferred
-- constraint triggers of 20261122150000_catalog_version_and_cjk_search, same function): a photo
-- shown or taken down, a shown photo deleted, or an order's consent changed.
CREATE CONSTRAINT TRIGGER order_photos_showcase_catalog_version AFTER UPDATE OF "showcased_at" ON "order_photos"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."showcased_at" IS DISTINCT FROM NEW."showcased_at")
  EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER order_photos_showcase_deleted_catalog_version AFTER DELETE ON "order_photos"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."showcased_at" IS NOT NULL)
  EXECUTE FUNCTION catalog_version_bump();
CREATE CONSTRAINT TRIGGER orders_showcase_consent_catalog_version AFTER UPDATE OF "showcase_consent" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."showcase_consent" IS DISTINCT FROM NEW."showcase_consent")
  EXECUTE FUNCTION catalog_version_bump();
