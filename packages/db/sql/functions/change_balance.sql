-- change_balance: a standalone charge or credit in one call (packages/db/src/credits.repository.ts).
-- The reviewed, current definition: a change is made here and copied into a new migration
-- (packages/db/src/sql-functions.test.ts checks the latest one matches this file).
--
-- Why a function: the account row's lock, the ledger insert and the balance update run inside the
-- database, so concurrent requests of one account do not queue behind each other's round trips.
-- Every ledger write happens under the account row lock (FOR NO KEY UPDATE: it does not block
-- the FOR KEY SHARE lock of a foreign-key check), and each statement of a VOLATILE plpgsql
-- function takes a new READ COMMITTED snapshot, so the duplicate check sees every charge committed
-- before the lock was granted. The ledger row is written first with ON CONFLICT DO NOTHING on the
-- unique (account, reason, reference) key and the balance changes only when it was written.
--
-- o_status: 'applied', 'duplicate' (this reason + reference is on the ledger already: nothing
-- written), 'insufficient' (a debit beyond the balance: nothing written) or 'missing' (no account).
--
-- History: prisma/migrations/20261124210000_change_balance, 20261125090000_charge_by_unique_key.

CREATE OR REPLACE FUNCTION change_balance(
  p_account uuid, p_delta int, p_reason text, p_reference text
) RETURNS TABLE (o_status text, o_balance int) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_balance int;
BEGIN
  SELECT balance INTO v_balance FROM accounts WHERE id = p_account FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::int;
    RETURN;
  END IF;
  IF p_delta < 0 AND v_balance + p_delta < 0 THEN
    -- Rare: a retry of a charge that went through must still answer 'duplicate'.
    IF EXISTS (SELECT 1 FROM credit_ledger l
               WHERE l.account_id = p_account AND l.reason = p_reason AND l.reference = p_reference) THEN
      RETURN QUERY SELECT 'duplicate'::text, v_balance;
    ELSE
      RETURN QUERY SELECT 'insufficient'::text, v_balance;
    END IF;
    RETURN;
  END IF;
  INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference)
    VALUES (p_account, p_delta, v_balance + p_delta, p_reason, p_reference)
    ON CONFLICT (account_id, reason, reference) DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'duplicate'::text, v_balance;
    RETURN;
  END IF;
  UPDATE accounts SET balance = v_balance + p_delta, updated_at = now() WHERE id = p_account;
  RETURN QUERY SELECT 'applied'::text, v_balance + p_delta;
END
$fn$;
