-- CreateTable
CREATE TABLE "crawls" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "options" JSONB NOT NULL,
    "stop_reason" TEXT,
    "error" TEXT,
    "discovered" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "credits_used" INTEGER NOT NULL DEFAULT 0,
    "robots_txt" TEXT,
    "crawl_delay_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_pages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "crawl_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "status_code" INTEGER,
    "result" JSONB,
    "error" TEXT,
    "error_code" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawl_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "markdown" TEXT NOT NULL,
    "language" TEXT,
    "search_config" TEXT NOT NULL DEFAULT 'simple',
    "search_vector" tsvector,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "crawls_account_id_created_at_idx" ON "crawls"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "crawls_status_updated_at_idx" ON "crawls"("status", "updated_at");

-- CreateIndex
CREATE INDEX "crawl_pages_crawl_id_status_idx" ON "crawl_pages"("crawl_id", "status");

-- CreateIndex
CREATE INDEX "crawl_pages_crawl_id_finished_at_idx" ON "crawl_pages"("crawl_id", "finished_at");

-- CreateIndex
CREATE INDEX "crawl_pages_status_updated_at_idx" ON "crawl_pages"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_pages_crawl_id_url_key" ON "crawl_pages"("crawl_id", "url");

-- CreateIndex
CREATE UNIQUE INDEX "documents_account_id_url_key" ON "documents"("account_id", "url");

-- AddForeignKey
ALTER TABLE "crawls" ADD CONSTRAINT "crawls_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_pages" ADD CONSTRAINT "crawl_pages_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Constraints Prisma's schema language cannot express ---------------------------------------------

ALTER TABLE "crawls" ADD CONSTRAINT "crawls_status_check" CHECK ("status" IN ('pending', 'processing', 'done', 'failed'));
ALTER TABLE "crawl_pages" ADD CONSTRAINT "crawl_pages_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed', 'skipped'));

-- Full-text search over the account's corpus (embedded search provider).
CREATE INDEX "documents_search_vector_idx" ON "documents" USING GIN ("search_vector");

-- Map and search can be refunded too (a job that fails is not billed).
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_reason_check";
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_reason_check" CHECK ("reason" IN (
  'grant', 'topup', 'monthly', 'scrape', 'scrape_refund', 'batch', 'batch_refund', 'crawl', 'crawl_refund',
  'extract', 'extract_refund', 'map', 'map_refund', 'search', 'search_refund', 'monitor_check', 'adjustment'
));
