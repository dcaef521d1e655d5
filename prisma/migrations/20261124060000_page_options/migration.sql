-- Issue 14: page options. Batches, crawls and monitors keep the options of their pages. The
-- secret part (headers and actions) sits in its own column, cleared when a batch or crawl ends.
ALTER TABLE "batches" ADD COLUMN "page_options" JSONB, ADD COLUMN "page_secrets" JSONB;
ALTER TABLE "crawls" ADD COLUMN "page_secrets" JSONB;
ALTER TABLE "monitors" ADD COLUMN "page_options" JSONB, ADD COLUMN "page_secrets" JSONB;

-- Screenshots: bytes in PostgreSQL or in an S3 bucket, served under the owner's key until expiry.
CREATE TABLE "screenshots" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "storage" TEXT NOT NULL,
    "png" BYTEA,
    "bytes" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "screenshots_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "screenshots_storage_check" CHECK ("storage" IN ('postgres', 's3')),
    CONSTRAINT "screenshots_png_check" CHECK (("storage" = 'postgres') = ("png" IS NOT NULL))
);
CREATE INDEX "screenshots_expires_at_idx" ON "screenshots"("expires_at");
ALTER TABLE "screenshots" ADD CONSTRAINT "screenshots_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The page cache (maxAge), shared by the accounts of the deployment.
CREATE TABLE "page_cache" (
    "key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "final_url" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "body" BYTEA NOT NULL,
    "meta" JSONB NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "page_cache_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "page_cache_fetched_at_idx" ON "page_cache"("fetched_at");
