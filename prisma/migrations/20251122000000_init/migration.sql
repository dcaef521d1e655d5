-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "plans" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "price_usd" INTEGER,
    "monthly_credits" INTEGER NOT NULL,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "plan_id" TEXT NOT NULL,
    "balance" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "balance_after" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "reference" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "format" TEXT NOT NULL,
    "only_main_content" BOOLEAN NOT NULL,
    "total" INTEGER NOT NULL,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "credits_charged" INTEGER NOT NULL DEFAULT 0,
    "credits_refunded" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "batch_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "client_id" TEXT,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "result" JSONB,
    "error" TEXT,
    "error_code" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "batch_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE INDEX "credit_ledger_account_id_created_at_idx" ON "credit_ledger"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_account_id_reason_reference_key" ON "credit_ledger"("account_id", "reason", "reference");

-- CreateIndex
CREATE INDEX "batches_account_id_created_at_idx" ON "batches"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "batch_items_status_updated_at_idx" ON "batch_items"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "batch_items_batch_id_position_key" ON "batch_items"("batch_id", "position");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Constraints Prisma's schema language cannot express ---------------------------------------------

-- A balance can never go negative, whatever code path writes it (the last line of defence for charge()).
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_nonnegative" CHECK ("balance" >= 0);

-- Known vocabularies, so a typo in code fails loudly instead of writing an unreadable row.
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_reason_check" CHECK ("reason" IN (
  'grant', 'topup', 'monthly', 'scrape', 'scrape_refund', 'batch', 'batch_refund', 'crawl', 'crawl_refund',
  'extract', 'extract_refund', 'map', 'search', 'monitor_check', 'adjustment'
));
ALTER TABLE "batches" ADD CONSTRAINT "batches_status_check" CHECK ("status" IN ('pending', 'processing', 'done'));
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed'));

-- Plans (spec section 8). Enterprise is priced and sized per contract: NULL price, 0 monthly credits.
INSERT INTO "plans" ("id", "name", "price_usd", "monthly_credits") VALUES
  ('free', 'Free', 0, 500),
  ('hobby', 'Hobby', 19, 5000),
  ('pro', 'Pro', 79, 50000),
  ('scale', 'Scale', 299, 250000),
  ('enterprise', 'Enterprise', NULL, 0);
