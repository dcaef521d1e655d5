-- Monitors that speak only when it matters (issue 44): ignore rules, a change threshold and a goal
-- judged by the extract model; the previous cleaned markdown (capped) so a change carries a diff;
-- the diff and the judgement kept with the change (and the judgement of a check judged irrelevant).

ALTER TABLE "monitors"
  ADD COLUMN "ignore_text" JSONB,
  ADD COLUMN "threshold" DOUBLE PRECISION NOT NULL DEFAULT 0,
  ADD COLUMN "goal" TEXT,
  ADD COLUMN "last_content" TEXT;

ALTER TABLE "monitors" ADD CONSTRAINT "monitors_threshold_check" CHECK ("threshold" >= 0 AND "threshold" <= 1);

ALTER TABLE "monitor_changes"
  ADD COLUMN "diff" JSONB,
  ADD COLUMN "judgement" JSONB;

ALTER TABLE "monitor_checks"
  ADD COLUMN "judgement" JSONB;

-- A judged check also pays for its judge (priced like an extract).
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_reason_check";
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_reason_check" CHECK ("reason" IN (
  'grant', 'topup', 'monthly', 'scrape', 'scrape_refund', 'batch', 'batch_refund', 'crawl', 'crawl_refund',
  'extract', 'extract_refund', 'map', 'map_refund', 'search', 'search_refund', 'monitor_check',
  'monitor_judge', 'adjustment'
));
