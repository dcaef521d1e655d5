-- Issue 43: the `changeTracking` format compares a page with the same account's previous scrape of
-- it (per URL key and tag). One row per (account, url_key, tag) holds the latest scrape: its
-- markdown (for the diff), the hash of its normalised markdown (for the status) and the page's
-- validators (ETag, Last-Modified), kept for conditional revalidation. The retention sweep deletes
-- rows by scraped_at.
CREATE TABLE "page_history" (
    "account_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "tag" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "etag" TEXT,
    "last_modified" TEXT,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "page_history_pkey" PRIMARY KEY ("account_id","url_key","tag")
);

CREATE INDEX "page_history_scraped_at_idx" ON "page_history"("scraped_at");

ALTER TABLE "page_history" ADD CONSTRAINT "page_history_account_id_fkey"
    FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Markdown is written once per tracked scrape: LZ4 as for crawl results (20261125130000_lz4_results).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings
             WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE page_history ALTER COLUMN markdown SET COMPRESSION lz4;
  END IF;
END $$;
