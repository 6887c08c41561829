-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "partner_key_id" UUID;

-- CreateTable
CREATE TABLE "partner_keys" (
    "id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "key_prefix" VARCHAR(20) NOT NULL,
    "orders_per_hour" INTEGER NOT NULL DEFAULT 1000,
    "uploads_per_hour" INTEGER NOT NULL DEFAULT 1000,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "requests_total" INTEGER NOT NULL DEFAULT 0,
    "request_hour" TIMESTAMPTZ(3),
    "requests_in_hour" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "partner_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "partner_keys_key_hash_key" ON "partner_keys"("key_hash");

-- CreateIndex
CREATE INDEX "orders_partner_key_id_created_at_idx" ON "orders"("partner_key_id", "created_at");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_key_id_fkey" FOREIGN KEY ("partner_key_id") REFERENCES "partner_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

