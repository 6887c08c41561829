-- CreateTable
CREATE TABLE "painter_failures" (
    "painter_qid" VARCHAR(20) NOT NULL,
    "nights" INTEGER NOT NULL DEFAULT 1,
    "last_error" VARCHAR(500) NOT NULL,
    "last_failed_at" TIMESTAMPTZ(3) NOT NULL,
    "set_aside_at" TIMESTAMPTZ(3),

    CONSTRAINT "painter_failures_pkey" PRIMARY KEY ("painter_qid")
);

