-- Embedded search reads the configurations (languages) of one account's pages on every query.
-- This index makes that an index-only scan instead of a pass over the account's rows.
-- Hand-written: `migrate diff` would also drop the GIN index the Prisma schema cannot describe.
CREATE INDEX "documents_account_id_search_config_idx" ON "documents"("account_id", "search_config");
