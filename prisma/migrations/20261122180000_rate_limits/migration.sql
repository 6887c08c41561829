-- CreateTable
CREATE TABLE "rate_limit_hits" (
    "limit_name" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_hits_pkey" PRIMARY KEY ("limit_name","client","window_start")
);

-- CreateIndex
CREATE INDEX "rate_limit_hits_expires_at_idx" ON "rate_limit_hits"("expires_at");

