-- DropIndex
DROP INDEX "payment_sessions_payment_intent_key";

-- DropIndex
DROP INDEX "refunds_stripe_refund_id_key";

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "checkout_id" INTEGER;

-- AlterTable
ALTER TABLE "payment_sessions" DROP CONSTRAINT "payment_sessions_pkey",
ADD CONSTRAINT "payment_sessions_pkey" PRIMARY KEY ("id", "order_id");

-- AlterTable
ALTER TABLE "disputes" DROP CONSTRAINT "disputes_pkey",
ADD CONSTRAINT "disputes_pkey" PRIMARY KEY ("id", "order_id");

-- CreateTable
CREATE TABLE "checkouts" (
    "id" SERIAL NOT NULL,
    "code" VARCHAR(20) NOT NULL,
    "customer_email" VARCHAR(200) NOT NULL,
    "locale" VARCHAR(5) NOT NULL DEFAULT 'en',
    "notes" TEXT,
    "total_cents" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_code_key" ON "checkouts"("code");

-- CreateIndex
CREATE INDEX "orders_checkout_id_idx" ON "orders"("checkout_id");

-- CreateIndex
CREATE INDEX "payment_sessions_payment_intent_idx" ON "payment_sessions"("payment_intent");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_stripe_refund_id_order_id_key" ON "refunds"("stripe_refund_id", "order_id");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
