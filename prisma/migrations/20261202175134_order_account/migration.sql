-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "user_id" TEXT;

-- CreateIndex
CREATE INDEX "orders_user_id_created_at_idx" ON "orders"("user_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Written by hand (Prisma cannot declare an index on an expression): "My orders" also lists the
-- orders under the account's verified e-mail, compared in any letter case (src/server/accounts/orders.ts).
CREATE INDEX "orders_customer_email_lower_idx" ON "orders"(lower("customer_email"));
