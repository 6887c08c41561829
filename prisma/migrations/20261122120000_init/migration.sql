-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "PublicationStatus" AS ENUM ('queued', 'published');

-- CreateEnum
CREATE TYPE "TaxonKind" AS ENUM ('museum', 'movement', 'subject', 'genre');

-- CreateEnum
CREATE TYPE "TextSource" AS ENUM ('curated', 'wikidata', 'translation', 'template');

-- CreateEnum
CREATE TYPE "PublishTrigger" AS ENUM ('schedule', 'staff', 'cli');

-- CreateEnum
CREATE TYPE "OrderKind" AS ENUM ('reproduction', 'custom');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('pending', 'paid', 'sketching', 'painting', 'drying', 'shipped', 'delivered', 'cancelled');

-- CreateEnum
CREATE TYPE "SketchStatus" AS ENUM ('pending', 'approved', 'changes_requested');

-- CreateEnum
CREATE TYPE "EventActor" AS ENUM ('customer', 'staff', 'payment', 'system');

-- CreateTable
CREATE TABLE "artists" (
    "id" SERIAL NOT NULL,
    "slug" VARCHAR(160) NOT NULL,
    "wikidata_id" VARCHAR(20),
    "name" VARCHAR(300) NOT NULL,
    "birth_year" INTEGER,
    "death_year" INTEGER,
    "status" "PublicationStatus" NOT NULL DEFAULT 'queued',
    "published_at" TIMESTAMPTZ(3),
    "artwork_count" INTEGER NOT NULL DEFAULT 0,
    "ingested_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "artists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "artist_texts" (
    "artist_id" INTEGER NOT NULL,
    "locale" VARCHAR(5) NOT NULL,
    "name" VARCHAR(300) NOT NULL,
    "bio" TEXT,
    "source" "TextSource" NOT NULL DEFAULT 'curated',

    CONSTRAINT "artist_texts_pkey" PRIMARY KEY ("artist_id","locale")
);

-- CreateTable
CREATE TABLE "artworks" (
    "id" SERIAL NOT NULL,
    "slug" VARCHAR(120) NOT NULL,
    "wikidata_id" VARCHAR(20),
    "artist_id" INTEGER NOT NULL,
    "year" INTEGER,
    "height_cm" DECIMAL(7,1),
    "width_cm" DECIMAL(7,1),
    "image_file" VARCHAR(400),
    "popularity" INTEGER NOT NULL DEFAULT 0,
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "curated" BOOLEAN NOT NULL DEFAULT false,
    "status" "PublicationStatus" NOT NULL DEFAULT 'queued',
    "published_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "artworks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "artwork_texts" (
    "artwork_id" INTEGER NOT NULL,
    "locale" VARCHAR(5) NOT NULL,
    "title" VARCHAR(500),
    "title_source" "TextSource" NOT NULL DEFAULT 'curated',
    "story" TEXT,
    "story_source" "TextSource",

    CONSTRAINT "artwork_texts_pkey" PRIMARY KEY ("artwork_id","locale")
);

-- CreateTable
CREATE TABLE "taxa" (
    "id" SERIAL NOT NULL,
    "kind" "TaxonKind" NOT NULL,
    "slug" VARCHAR(160) NOT NULL,
    "wikidata_id" VARCHAR(20),
    "artwork_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "taxa_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "taxon_texts" (
    "taxon_id" INTEGER NOT NULL,
    "locale" VARCHAR(5) NOT NULL,
    "name" VARCHAR(300) NOT NULL,
    "description" TEXT,
    "source" "TextSource" NOT NULL DEFAULT 'curated',

    CONSTRAINT "taxon_texts_pkey" PRIMARY KEY ("taxon_id","locale")
);

-- CreateTable
CREATE TABLE "taxon_aliases" (
    "wikidata_id" VARCHAR(20) NOT NULL,
    "taxon_id" INTEGER NOT NULL,

    CONSTRAINT "taxon_aliases_pkey" PRIMARY KEY ("wikidata_id")
);

-- CreateTable
CREATE TABLE "artwork_taxa" (
    "artwork_id" INTEGER NOT NULL,
    "taxon_id" INTEGER NOT NULL,

    CONSTRAINT "artwork_taxa_pkey" PRIMARY KEY ("artwork_id","taxon_id")
);

-- CreateTable
CREATE TABLE "publish_log" (
    "id" SERIAL NOT NULL,
    "trigger" "PublishTrigger" NOT NULL,
    "requested" INTEGER NOT NULL,
    "published" INTEGER NOT NULL,
    "artists_introduced" TEXT[],
    "urls_notified" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT[],
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "publish_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" SERIAL NOT NULL,
    "code" VARCHAR(20) NOT NULL,
    "kind" "OrderKind" NOT NULL,
    "status" "OrderStatus" NOT NULL DEFAULT 'pending',
    "artwork_slug" VARCHAR(120),
    "artwork_id" INTEGER,
    "upload_id" UUID,
    "style" VARCHAR(20),
    "subjects" INTEGER,
    "size" VARCHAR(10) NOT NULL,
    "frame" VARCHAR(10) NOT NULL,
    "locale" VARCHAR(5) NOT NULL DEFAULT 'en',
    "notes" TEXT,
    "total_cents" INTEGER NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'usd',
    "customer_name" VARCHAR(120) NOT NULL,
    "customer_email" VARCHAR(200) NOT NULL,
    "customer_phone" VARCHAR(40),
    "address" VARCHAR(300) NOT NULL,
    "city" VARCHAR(120) NOT NULL,
    "postal_code" VARCHAR(20) NOT NULL,
    "country" CHAR(2) NOT NULL,
    "tracking_number" VARCHAR(100),
    "sketch_status" "SketchStatus",
    "checkout_id" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_events" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "note" TEXT,
    "actor" "EventActor" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uploads" (
    "id" UUID NOT NULL,
    "content_type" VARCHAR(50) NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_events" (
    "id" VARCHAR(255) NOT NULL,
    "provider" VARCHAR(20) NOT NULL,
    "type" VARCHAR(100) NOT NULL,
    "order_code" VARCHAR(20),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "email_verified" TIMESTAMPTZ(3),
    "image" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "session_token" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL
);

-- CreateTable
CREATE TABLE "favorites" (
    "user_id" TEXT NOT NULL,
    "artwork_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "favorites_pkey" PRIMARY KEY ("user_id","artwork_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "artists_slug_key" ON "artists"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "artists_wikidata_id_key" ON "artists"("wikidata_id");

-- CreateIndex
CREATE INDEX "artists_status_artwork_count_idx" ON "artists"("status", "artwork_count" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "artworks_slug_key" ON "artworks"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "artworks_wikidata_id_key" ON "artworks"("wikidata_id");

-- CreateIndex
CREATE INDEX "artworks_artist_id_status_popularity_idx" ON "artworks"("artist_id", "status", "popularity" DESC);

-- CreateIndex
CREATE INDEX "artworks_status_popularity_idx" ON "artworks"("status", "popularity" DESC);

-- CreateIndex
CREATE INDEX "artworks_status_published_at_idx" ON "artworks"("status", "published_at");

-- CreateIndex
CREATE INDEX "taxa_kind_artwork_count_idx" ON "taxa"("kind", "artwork_count" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "taxa_kind_slug_key" ON "taxa"("kind", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "taxa_kind_wikidata_id_key" ON "taxa"("kind", "wikidata_id");

-- CreateIndex
CREATE INDEX "taxon_aliases_taxon_id_idx" ON "taxon_aliases"("taxon_id");

-- CreateIndex
CREATE INDEX "artwork_taxa_taxon_id_artwork_id_idx" ON "artwork_taxa"("taxon_id", "artwork_id");

-- CreateIndex
CREATE INDEX "publish_log_finished_at_idx" ON "publish_log"("finished_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "orders_code_key" ON "orders"("code");

-- CreateIndex
CREATE UNIQUE INDEX "orders_upload_id_key" ON "orders"("upload_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_checkout_id_key" ON "orders"("checkout_id");

-- CreateIndex
CREATE INDEX "orders_created_at_idx" ON "orders"("created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_status_created_at_idx" ON "orders"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_customer_email_idx" ON "orders"("customer_email");

-- CreateIndex
CREATE INDEX "order_events_order_id_id_idx" ON "order_events"("order_id", "id");

-- CreateIndex
CREATE INDEX "outbox_events_sent_at_available_at_idx" ON "outbox_events"("sent_at", "available_at");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_session_token_key" ON "sessions"("session_token");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_token_key" ON "verification_tokens"("token");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_identifier_token_key" ON "verification_tokens"("identifier", "token");

-- CreateIndex
CREATE INDEX "favorites_artwork_id_idx" ON "favorites"("artwork_id");

-- AddForeignKey
ALTER TABLE "artist_texts" ADD CONSTRAINT "artist_texts_artist_id_fkey" FOREIGN KEY ("artist_id") REFERENCES "artists"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artworks" ADD CONSTRAINT "artworks_artist_id_fkey" FOREIGN KEY ("artist_id") REFERENCES "artists"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artwork_texts" ADD CONSTRAINT "artwork_texts_artwork_id_fkey" FOREIGN KEY ("artwork_id") REFERENCES "artworks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "taxon_texts" ADD CONSTRAINT "taxon_texts_taxon_id_fkey" FOREIGN KEY ("taxon_id") REFERENCES "taxa"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "taxon_aliases" ADD CONSTRAINT "taxon_aliases_taxon_id_fkey" FOREIGN KEY ("taxon_id") REFERENCES "taxa"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artwork_taxa" ADD CONSTRAINT "artwork_taxa_artwork_id_fkey" FOREIGN KEY ("artwork_id") REFERENCES "artworks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artwork_taxa" ADD CONSTRAINT "artwork_taxa_taxon_id_fkey" FOREIGN KEY ("taxon_id") REFERENCES "taxa"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_artwork_id_fkey" FOREIGN KEY ("artwork_id") REFERENCES "artworks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_artwork_id_fkey" FOREIGN KEY ("artwork_id") REFERENCES "artworks"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written below: what Prisma's schema language cannot express. The database refuses what the
-- domain would never write, so a bug elsewhere cannot store an order nobody could have made.
ALTER TABLE "orders" ADD CONSTRAINT "orders_size_check" CHECK ("size" IN ('30x40', '50x70', '60x90', '90x120'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_frame_check" CHECK ("frame" IN ('rolled', 'stretched', 'framed'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_locale_check" CHECK ("locale" IN ('en', 'es', 'fr', 'de', 'it', 'ja', 'vi'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_check" CHECK ("total_cents" > 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_fields_check" CHECK (
  ("kind" = 'reproduction' AND "artwork_slug" IS NOT NULL AND "upload_id" IS NULL AND "style" IS NULL AND "subjects" IS NULL)
  OR ("kind" = 'custom' AND "artwork_slug" IS NULL AND "upload_id" IS NOT NULL
      AND "style" IN ('classic', 'impressionist', 'modern', 'vangogh') AND "subjects" BETWEEN 1 AND 8)
);
-- The outbox relay reads only what is still to send.
CREATE INDEX "outbox_events_pending_idx" ON "outbox_events" ("available_at") WHERE "sent_at" IS NULL;
