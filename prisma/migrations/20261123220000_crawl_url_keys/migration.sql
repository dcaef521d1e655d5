-- Issue 10: a frontier row keeps the URL it fetches (`url`, as the caller, link or sitemap wrote it)
-- apart from the key that de-duplicates it (`url_key`, which never merges `/docs/` with `/docs`).
-- `final_key` is the key of the URL a redirect ended at, so a page reached both ways is fetched once.
-- `duplicate`: a row whose page turned out to be one already crawled (not counted, not billed).
ALTER TABLE "crawl_pages" ADD COLUMN "url_key" TEXT;
UPDATE "crawl_pages" SET "url_key" = "url";
ALTER TABLE "crawl_pages" ALTER COLUMN "url_key" SET NOT NULL;
ALTER TABLE "crawl_pages" ADD COLUMN "final_key" TEXT;

DROP INDEX "crawl_pages_crawl_id_url_key";
CREATE UNIQUE INDEX "crawl_pages_crawl_id_url_key_key" ON "crawl_pages"("crawl_id", "url_key");
CREATE INDEX "crawl_pages_crawl_id_final_key_idx" ON "crawl_pages"("crawl_id", "final_key");

ALTER TABLE "crawl_pages" DROP CONSTRAINT "crawl_pages_status_check";
ALTER TABLE "crawl_pages" ADD CONSTRAINT "crawl_pages_status_check"
  CHECK ("status" IN ('queued', 'running', 'done', 'failed', 'skipped', 'duplicate'));
