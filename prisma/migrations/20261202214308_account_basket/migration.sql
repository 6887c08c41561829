-- CreateTable
CREATE TABLE "baskets" (
    "user_id" TEXT NOT NULL,
    "entries" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "baskets_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "baskets" ADD CONSTRAINT "baskets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot declare a CHECK): the basket is one JSON array of entries, each
-- checked by the shared BasketEntry schema on the way in and out (src/server/accounts/basket.ts).
ALTER TABLE "baskets" ADD CONSTRAINT "baskets_entries_array" CHECK (jsonb_typeof("entries") = 'array');
