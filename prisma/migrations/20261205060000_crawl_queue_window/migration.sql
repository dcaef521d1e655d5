-- A crawl keeps at most CRAWL_QUEUE_WINDOW of its frontier rows as BullMQ jobs in Redis
-- (`enqueued`); the rest wait in PostgreSQL and are claimed, shallowest first, as pages finish.
-- Redis held one job per queued row before (~700 B each: 580 MB at 700,000 queued rows).
-- Rows that exist now have their jobs: they count as enqueued; new rows start unclaimed.

ALTER TABLE "crawl_pages" ADD COLUMN "enqueued" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "crawl_pages" ALTER COLUMN "enqueued" SET DEFAULT false;

-- The next rows to claim, in claim order.
CREATE INDEX "crawl_pages_waiting_idx" ON "crawl_pages"("crawl_id", "depth", "created_at")
  WHERE "status" = 'queued' AND NOT "enqueued";
-- The crawl's rows with a job: counted (up to the window) before a claim.
CREATE INDEX "crawl_pages_in_queue_idx" ON "crawl_pages"("crawl_id")
  WHERE "enqueued" AND "status" IN ('queued', 'running');
-- The reconciler's walk over claimed queued rows (unclaimed ones wait by design, however old).
CREATE INDEX "crawl_pages_claimed_queued_idx" ON "crawl_pages"("updated_at")
  WHERE "status" = 'queued' AND "enqueued";
