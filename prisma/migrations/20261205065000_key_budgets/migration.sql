-- Per-key credit budgets (issue 46): a daily and a monthly limit on each API key, the spend of
-- each key per UTC day and month, and which key a ledger row, a batch and a monitor belong to.

ALTER TABLE "api_keys" ADD COLUMN "daily_credit_limit" INTEGER,
  ADD COLUMN "monthly_credit_limit" INTEGER,
  ADD CONSTRAINT "api_keys_credit_limits_check"
    CHECK (("daily_credit_limit" IS NULL OR "daily_credit_limit" >= 0)
       AND ("monthly_credit_limit" IS NULL OR "monthly_credit_limit" >= 0));

CREATE TABLE "api_key_spend" (
  "api_key_id" UUID NOT NULL,
  "period" TEXT NOT NULL,
  "period_start" DATE NOT NULL,
  "spent" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "api_key_spend_pkey" PRIMARY KEY ("api_key_id", "period", "period_start"),
  CONSTRAINT "api_key_spend_period_check" CHECK ("period" IN ('day', 'month')),
  CONSTRAINT "api_key_spend_spent_check" CHECK ("spent" >= 0)
);
ALTER TABLE "api_key_spend" ADD CONSTRAINT "api_key_spend_api_key_id_fkey"
  FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "credit_ledger" ADD COLUMN "api_key_id" UUID;
ALTER TABLE "batches" ADD COLUMN "api_key_id" UUID;
ALTER TABLE "monitors" ADD COLUMN "api_key_id" UUID;

-- change_key_balance: change_balance (change_balance.sql) that also counts a key's spend against
-- its daily and monthly credit limits (api_keys.daily_credit_limit / monthly_credit_limit), in the
-- same statement. The reviewed, current definition (sql-functions.test.ts checks the latest
-- migration holds it).
--
-- Race-free for the same reason as change_balance: the account row is locked first (FOR NO KEY
-- UPDATE) and every ledger write of the account, so every spend row change of its keys, happens
-- under that lock; each statement reads a fresh READ COMMITTED snapshot, so the spend read here
-- includes every charge committed before the lock was granted.
--
-- Periods are UTC: the day of p_at and the month of p_at (p_at defaults to the transaction's
-- now()). A debit adds to both rows of its periods; a credit (a refund) passes the charge's p_at
-- (o_at of the charge) and takes back from the rows of that charge's periods, never below 0.
-- p_key NULL, or a key not of this account: exactly change_balance.
--
-- o_status: 'applied', 'duplicate', 'insufficient', 'missing' as change_balance; 'key_limit' (a
-- debit past one of the key's limits: nothing written; o_period 'day' | 'month', o_limit, o_spent
-- and o_resets_at say which and until when).
--
-- History: prisma/migrations/20261205060000_key_budgets.

CREATE OR REPLACE FUNCTION change_key_balance(
  p_account uuid, p_delta int, p_reason text, p_reference text, p_key uuid, p_at timestamptz
) RETURNS TABLE (
  o_status text, o_balance int, o_at timestamptz, o_period text, o_limit int, o_spent int,
  o_resets_at timestamptz
) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_balance int;
  v_key uuid;
  v_at timestamptz := COALESCE(p_at, now());
  v_day date := (COALESCE(p_at, now()) AT TIME ZONE 'UTC')::date;
  v_month date := date_trunc('month', COALESCE(p_at, now()) AT TIME ZONE 'UTC')::date;
  v_day_limit int;
  v_month_limit int;
  v_day_spent int := 0;
  v_month_spent int := 0;
BEGIN
  SELECT balance INTO v_balance FROM accounts WHERE id = p_account FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::int, v_at, NULL::text, NULL::int, NULL::int, NULL::timestamptz;
    RETURN;
  END IF;
  IF p_key IS NOT NULL THEN
    SELECT k.id, k.daily_credit_limit, k.monthly_credit_limit INTO v_key, v_day_limit, v_month_limit
    FROM api_keys k WHERE k.id = p_key AND k.account_id = p_account;
  END IF;
  IF p_delta < 0 AND v_key IS NOT NULL AND (v_day_limit IS NOT NULL OR v_month_limit IS NOT NULL) THEN
    SELECT COALESCE(MAX(s.spent) FILTER (WHERE s.period = 'day'), 0),
           COALESCE(MAX(s.spent) FILTER (WHERE s.period = 'month'), 0)
      INTO v_day_spent, v_month_spent
    FROM api_key_spend s
    WHERE s.api_key_id = v_key
      AND ((s.period = 'day' AND s.period_start = v_day) OR (s.period = 'month' AND s.period_start = v_month));
  END IF;
  IF p_delta < 0 AND (v_balance + p_delta < 0
                      OR v_day_spent - p_delta > v_day_limit
                      OR v_month_spent - p_delta > v_month_limit) THEN
    -- Rare: a retry of a charge that went through must still answer 'duplicate'.
    IF EXISTS (SELECT 1 FROM credit_ledger l
               WHERE l.account_id = p_account AND l.reason = p_reason AND l.reference = p_reference) THEN
      RETURN QUERY SELECT 'duplicate'::text, v_balance, v_at, NULL::text, NULL::int, NULL::int, NULL::timestamptz;
    ELSIF v_balance + p_delta < 0 THEN
      RETURN QUERY SELECT 'insufficient'::text, v_balance, v_at, NULL::text, NULL::int, NULL::int, NULL::timestamptz;
    ELSIF v_day_spent - p_delta > v_day_limit THEN
      RETURN QUERY SELECT 'key_limit'::text, v_balance, v_at, 'day'::text, v_day_limit, v_day_spent,
        ((v_day + 1)::timestamp AT TIME ZONE 'UTC');
    ELSE
      RETURN QUERY SELECT 'key_limit'::text, v_balance, v_at, 'month'::text, v_month_limit, v_month_spent,
        ((v_month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
    END IF;
    RETURN;
  END IF;
  INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference, api_key_id)
    VALUES (p_account, p_delta, v_balance + p_delta, p_reason, p_reference, v_key)
    ON CONFLICT (account_id, reason, reference) DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'duplicate'::text, v_balance, v_at, NULL::text, NULL::int, NULL::int, NULL::timestamptz;
    RETURN;
  END IF;
  UPDATE accounts SET balance = v_balance + p_delta, updated_at = now() WHERE id = p_account;
  IF v_key IS NOT NULL THEN
    INSERT INTO api_key_spend AS s (api_key_id, period, period_start, spent)
      VALUES (v_key, 'day', v_day, GREATEST(-p_delta, 0)), (v_key, 'month', v_month, GREATEST(-p_delta, 0))
      ON CONFLICT (api_key_id, period, period_start) DO UPDATE SET spent = GREATEST(0, s.spent - p_delta);
  END IF;
  RETURN QUERY SELECT 'applied'::text, v_balance + p_delta, v_at, NULL::text, NULL::int, NULL::int, NULL::timestamptz;
END
$fn$;
