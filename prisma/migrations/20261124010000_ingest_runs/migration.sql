-- CreateTable
CREATE TABLE "ingest_runs" (
    "id" SERIAL NOT NULL,
    "trigger" "PublishTrigger" NOT NULL,
    "outcome" VARCHAR(20) NOT NULL DEFAULT 'running',
    "painters" TEXT[],
    "works_queued" INTEGER NOT NULL DEFAULT 0,
    "skipped" JSONB NOT NULL DEFAULT '{}',
    "heavy_queries" INTEGER NOT NULL DEFAULT 0,
    "queries" JSONB NOT NULL DEFAULT '[]',
    "query_ms" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT[],
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "ingest_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingest_skips" (
    "wikidata_id" VARCHAR(20) NOT NULL,
    "painter_qid" VARCHAR(20) NOT NULL,
    "reason" VARCHAR(40) NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ingest_skips_pkey" PRIMARY KEY ("wikidata_id")
);

-- CreateIndex
CREATE INDEX "ingest_runs_started_at_idx" ON "ingest_runs"("started_at" DESC);

-- CreateIndex
CREATE INDEX "ingest_skips_painter_qid_idx" ON "ingest_skips"("painter_qid");

