-- Issue 13: the account dashboard.

-- Sign-in sessions of the dashboard. Only the sha256 of the cookie token is stored. A session
-- belongs to the API key it was opened with, so revoking the key ends it (checked on every request).
CREATE TABLE "dashboard_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "token_hash" TEXT NOT NULL,
    "key_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "dashboard_sessions"("token_hash");
CREATE INDEX "dashboard_sessions_key_id_idx" ON "dashboard_sessions"("key_id");
CREATE INDEX "dashboard_sessions_expires_at_idx" ON "dashboard_sessions"("expires_at");
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_key_id_fkey"
  FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Who paused a monitor: credits (the check found no credit, it resumes by itself when credits
-- arrive) or user (POST /v1/monitor/:id/pause, only the user resumes it). Existing paused rows
-- were paused for credits.
ALTER TABLE "monitors" ADD COLUMN "paused_by" TEXT;
UPDATE "monitors" SET "paused_by" = 'credits' WHERE "status" = 'paused';
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_paused_by_check"
  CHECK (("status" = 'paused') = ("paused_by" IS NOT NULL) AND ("paused_by" IS NULL OR "paused_by" IN ('credits', 'user')));

-- The ledger page reads the rows of an account newest first by id, optionally of some reasons, with
-- a keyset cursor: both are index range scans, whatever the size of the ledger.
CREATE INDEX "credit_ledger_account_id_id_idx" ON "credit_ledger"("account_id", "id");
CREATE INDEX "credit_ledger_account_id_reason_id_idx" ON "credit_ledger"("account_id", "reason", "id");

-- Usage per day reads (created_at, reason, amount) of an account over a date range: with reason and
-- amount in the index it is an index-only scan (no heap visit per row). Same key columns and name
-- as the index Prisma knows, so the schema and the database still agree.
DROP INDEX "credit_ledger_account_id_created_at_idx";
CREATE INDEX "credit_ledger_account_id_created_at_idx" ON "credit_ledger"("account_id", "created_at") INCLUDE ("reason", "amount");
