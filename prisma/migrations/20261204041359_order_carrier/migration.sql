-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "carrier" VARCHAR(20);

-- Hand-written: the carriers of src/shared/carriers.ts, as for the other listed columns; a carrier
-- goes with a tracking number, never alone.
ALTER TABLE "orders" ADD CONSTRAINT "orders_carrier_check" CHECK ("carrier" IN ('dhl', 'ups', 'fedex', 'usps', 'dpd', 'gls', 'japan_post', 'yamato'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_carrier_tracked_check" CHECK ("carrier" IS NULL OR "tracking_number" IS NOT NULL);
