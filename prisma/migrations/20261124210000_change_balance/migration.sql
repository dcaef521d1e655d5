-- Issue 18: a standalone charge or credit (packages/db/src/credits.repository.ts) in one call.
-- Before, it ran BEGIN, the account lock, the duplicate check, the update, the ledger insert and
-- COMMIT as six round trips while holding the account row's lock, so concurrent requests of one
-- account queued behind each other's round trips (the /v1/scrape gateway stage: ~30 ms at 8 at a
-- time). Here the lock and the statements run inside the database.
--
-- Same rule as credits.ops.ts: every ledger write happens under the account row lock, and in a
-- VOLATILE plpgsql function each statement takes a new READ COMMITTED snapshot, so the duplicate
-- check sees every charge committed before the lock was granted.
--
-- o_status: 'applied', 'duplicate' (this reason + reference is on the ledger already: nothing
-- written), 'insufficient' (a debit beyond the balance: nothing written) or 'missing' (no account).
CREATE OR REPLACE FUNCTION change_balance(
  p_account uuid, p_delta int, p_reason text, p_reference text
) RETURNS TABLE (o_status text, o_balance int) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_balance int;
BEGIN
  SELECT balance INTO v_balance FROM accounts WHERE id = p_account FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::int;
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM credit_ledger l
             WHERE l.account_id = p_account AND l.reason = p_reason AND l.reference = p_reference) THEN
    RETURN QUERY SELECT 'duplicate'::text, v_balance;
    RETURN;
  END IF;
  IF p_delta < 0 AND v_balance + p_delta < 0 THEN
    RETURN QUERY SELECT 'insufficient'::text, v_balance;
    RETURN;
  END IF;
  UPDATE accounts SET balance = balance + p_delta, updated_at = now()
    WHERE id = p_account RETURNING balance INTO v_balance;
  INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference)
    VALUES (p_account, p_delta, v_balance, p_reason, p_reference);
  RETURN QUERY SELECT 'applied'::text, v_balance;
END
$fn$;
