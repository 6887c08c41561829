-- CreateEnum
CREATE TYPE "PaymentSessionState" AS ENUM ('open', 'expired', 'processing', 'paid', 'failed', 'refunded');

-- CreateEnum
CREATE TYPE "RefundMethod" AS ENUM ('stripe', 'manual');

-- CreateEnum
CREATE TYPE "RefundState" AS ENUM ('pending', 'succeeded', 'failed', 'canceled');

-- CreateEnum
CREATE TYPE "DisputeState" AS ENUM ('open', 'won', 'lost');

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "paid_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reminded_at" TIMESTAMPTZ(3);

-- An order past pending was paid (by Stripe or by staff recording a transfer): its total arrived.
UPDATE "orders" SET "paid_cents" = "total_cents" WHERE "status" NOT IN ('pending', 'cancelled');

-- AlterTable
ALTER TABLE "partner_keys" ALTER COLUMN "uploads_per_hour" SET DEFAULT 100;

-- CreateTable
CREATE TABLE "payment_sessions" (
    "id" VARCHAR(255) NOT NULL,
    "order_id" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'usd',
    "state" "PaymentSessionState" NOT NULL DEFAULT 'open',
    "payment_intent" VARCHAR(255),
    "refund_id" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL,
    "order_id" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "method" "RefundMethod" NOT NULL,
    "state" "RefundState" NOT NULL DEFAULT 'succeeded',
    "note" TEXT,
    "stripe_refund_id" VARCHAR(255),
    "idempotency_key" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "disputes" (
    "id" VARCHAR(255) NOT NULL,
    "order_id" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "state" "DisputeState" NOT NULL DEFAULT 'open',
    "reason" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_sessions_payment_intent_key" ON "payment_sessions"("payment_intent");

-- CreateIndex
CREATE INDEX "payment_sessions_order_id_created_at_idx" ON "payment_sessions"("order_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_stripe_refund_id_key" ON "refunds"("stripe_refund_id");

-- CreateIndex
CREATE INDEX "refunds_order_id_created_at_idx" ON "refunds"("order_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_order_id_idempotency_key_key" ON "refunds"("order_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "disputes_order_id_idx" ON "disputes"("order_id");

-- AddForeignKey
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every session an order opened so far is kept (hand-written): orders.checkout_id held the newest.
INSERT INTO "payment_sessions" ("id", "order_id", "amount_cents", "currency", "state", "created_at", "updated_at")
SELECT "checkout_id", "id", "total_cents", "currency",
       (CASE WHEN "status" = 'pending' THEN 'open' WHEN "status" = 'cancelled' THEN 'expired' ELSE 'paid' END)::"PaymentSessionState",
       "updated_at", "updated_at"
FROM "orders" WHERE "checkout_id" IS NOT NULL;

DROP INDEX "orders_checkout_id_key";
ALTER TABLE "orders" DROP COLUMN "checkout_id";

-- Money is positive cents (hand-written).
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_cents_check" CHECK ("paid_cents" >= 0);
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_amount_check" CHECK ("amount_cents" >= 0);
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_check" CHECK ("amount_cents" > 0);
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_amount_check" CHECK ("amount_cents" >= 0);
