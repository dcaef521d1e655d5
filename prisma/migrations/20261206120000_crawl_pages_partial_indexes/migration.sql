-- A crawl page's row is written four times (queued, claimed, running, done) and none of those
-- updates can be HOT (status, enqueued and updated_at are indexed), so every index takes a new
-- entry per version. Two indexes served one state each but held every version:
--
-- - (status, updated_at) is read only for running rows (the reconciler's walk over stranded
--   pages; claimed queued rows have crawl_pages_claimed_queued_idx): now (updated_at) of running
--   rows only.
-- - (crawl_id, finished_at) is read only to list a crawl's finished pages in the order they
--   finished: now (crawl_id, status, finished_at, id) of finished rows only, which also serves
--   that listing's filter and order without a sort.
--
-- Six index entries fewer per page.

-- Every finished row has its time (complete_crawl_page, failPage and the duplicate path set it);
-- a row without one would be left out of the listing's index.
UPDATE "crawl_pages" SET "finished_at" = "updated_at"
  WHERE "finished_at" IS NULL AND "status" IN ('done', 'failed', 'duplicate');

DROP INDEX IF EXISTS "crawl_pages_status_updated_at_idx";
DROP INDEX IF EXISTS "crawl_pages_crawl_id_finished_at_idx";

CREATE INDEX "crawl_pages_running_idx" ON "crawl_pages"("updated_at") WHERE "status" = 'running';
CREATE INDEX "crawl_pages_finished_idx" ON "crawl_pages"("crawl_id", "status", "finished_at", "id")
  WHERE "finished_at" IS NOT NULL;
