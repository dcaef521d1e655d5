-- Issue 18: a charge's "billed before?" check no longer depends on the planner's index choice.
--
-- Both functions looked the charge up by (account, reason, reference) before writing it. On a
-- table without statistics (a server whose autovacuum is off, or a young ledger that autovacuum
-- has not analyzed yet) the planner rated the non-unique (account_id, reason, id) index as cheap
-- as the unique key and scanned every ledger row of that account and reason: a crawl page's
-- completion read all of the account's earlier crawl charges (3.7 ms at 4,000 rows, growing with
-- the account's history). The ledger row is now written first with ON CONFLICT DO NOTHING on the
-- unique key, which the executor checks through that index whatever the statistics say, and the
-- balance changes only when the row was written. Same guarantees: one charge per (reason,
-- reference), every ledger write under the account row's lock.
--
-- The locks are FOR NO KEY UPDATE (what an UPDATE of these rows takes anyway): they still exclude
-- each other, but no longer block the FOR KEY SHARE lock that a foreign-key check takes, so a
-- search-index write or a job insert of the same account no longer waits for a charge to commit.
--
-- complete_crawl_page: a page is payable when the balance covers it. (Before, a page whose charge
-- was already on the ledger was payable at any balance; such a page is done — its charge and its
-- `done` commit in one statement — so it never reaches this point again.)

CREATE OR REPLACE FUNCTION complete_crawl_page(
  p_crawl uuid, p_page uuid, p_credits int, p_result jsonb, p_status_code int, p_final_key text,
  p_urls text[], p_keys text[], p_depths int[], p_hooked_ok boolean
) RETURNS TABLE (
  o_hooked boolean, o_eligible boolean, o_paid boolean, o_duplicate boolean, o_new_status text,
  o_new_pages json
) LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
DECLARE
  v_status text;
  v_hooked boolean;
BEGIN
  -- Lock order as everywhere: the crawl, then its account.
  SELECT c.status, EXISTS (SELECT 1 FROM job_webhooks w WHERE w.job_id = c.id)
    INTO v_status, v_hooked
    FROM crawls c JOIN accounts a ON a.id = c.account_id
    WHERE c.id = p_crawl FOR NO KEY UPDATE OF c, a;
  IF v_status IS DISTINCT FROM 'processing' OR (v_hooked AND NOT p_hooked_ok) THEN
    RETURN QUERY SELECT coalesce(v_hooked, false), false, false, false, NULL::text, NULL::json;
    RETURN;
  END IF;
  RETURN QUERY
  WITH c AS (
    SELECT account_id, status, GREATEST(0, (options->>'maxPages')::int - discovered) AS room
    FROM crawls WHERE id = p_crawl::uuid
  ), p AS (
    SELECT 1 FROM crawl_pages, c
    WHERE id = p_page::uuid AND crawl_id = p_crawl::uuid AND crawl_pages.status IN ('queued', 'running')
      AND c.status = 'processing'
  ), dup AS (
    -- Another page of the crawl already is, or ended at, where this one ended (a redirect).
    -- Looked up by key only (OFFSET 0 keeps the status test out of the scans): filtering on
    -- status in the scan lets the planner walk every done row of the crawl instead.
    SELECT 1 FROM (
      SELECT status FROM crawl_pages WHERE crawl_id = p_crawl::uuid AND url_key = p_final_key
        AND id <> p_page::uuid
      UNION ALL
      SELECT status FROM crawl_pages WHERE crawl_id = p_crawl::uuid AND final_key = p_final_key
        AND id <> p_page::uuid
      OFFSET 0
    ) k WHERE k.status = 'done'
    LIMIT 1
  ), payable AS (
    SELECT 1 FROM accounts a, c WHERE a.id = c.account_id AND a.balance >= p_credits::int
  ), done AS (
    UPDATE crawl_pages
    SET status = 'done', result = p_result::jsonb, status_code = p_status_code::int,
        final_key = NULLIF(p_final_key, url_key), error = NULL, error_code = NULL, finished_at = now(), updated_at = now()
    WHERE id = p_page::uuid AND crawl_id = p_crawl::uuid AND status IN ('queued', 'running')
      AND EXISTS (SELECT 1 FROM p) AND EXISTS (SELECT 1 FROM payable) AND NOT EXISTS (SELECT 1 FROM dup)
    RETURNING id
  ), duplicate AS (
    UPDATE crawl_pages SET status = 'duplicate', finished_at = now(), updated_at = now()
    WHERE id = p_page::uuid AND crawl_id = p_crawl::uuid AND status IN ('queued', 'running')
      AND EXISTS (SELECT 1 FROM p) AND EXISTS (SELECT 1 FROM dup)
    RETURNING id
  ), ledger AS (
    -- The ledger row first: the unique key (account, reason, reference) decides whether this
    -- page was billed before, so no planner choice is involved (see the migration's header).
    INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference)
    SELECT a.id, -p_credits::int, a.balance - p_credits::int, 'crawl', p_page::text
    FROM accounts a, c
    WHERE a.id = c.account_id AND EXISTS (SELECT 1 FROM done)
    ON CONFLICT (account_id, reason, reference) DO NOTHING
    RETURNING account_id
  ), charge AS (
    UPDATE accounts a SET balance = a.balance - p_credits::int, updated_at = now()
    FROM ledger l WHERE a.id = l.account_id
    RETURNING a.id
  ), fresh AS (
    -- Not where this page ended (the done update above is not visible to this snapshot).
    SELECT t.url, t.key, t.depth, t.ord, row_number() OVER (ORDER BY t.ord) AS rank
    FROM unnest(p_urls::text[], p_keys::text[], p_depths::int[]) WITH ORDINALITY AS t(url, key, depth, ord)
    WHERE t.key <> p_final_key
      AND NOT EXISTS (SELECT 1 FROM crawl_pages x WHERE x.crawl_id = p_crawl::uuid AND x.url_key = t.key)
      AND NOT EXISTS (SELECT 1 FROM crawl_pages x WHERE x.crawl_id = p_crawl::uuid AND x.final_key = t.key)
  ), ins AS (
    INSERT INTO crawl_pages (crawl_id, url, url_key, depth)
    SELECT p_crawl::uuid, f.url, f.key, f.depth FROM fresh f, c
    WHERE f.rank <= c.room AND EXISTS (SELECT 1 FROM done)
    ORDER BY f.ord
    ON CONFLICT (crawl_id, url_key) DO NOTHING
    RETURNING id AS "pageId", url, depth
  ), d AS (
    -- A duplicate (n = 0) leaves the count: it was never a page of its own.
    SELECT (SELECT count(*) FROM done)::int AS n,
           (SELECT count(*) FROM ins)::int - (SELECT count(*) FROM duplicate)::int AS added,
           EXISTS (SELECT 1 FROM done) AND (SELECT count(*) FROM fresh) > (SELECT room FROM c) AS capped
  ), bump AS (
    UPDATE crawls SET
      completed = completed + d.n,
      credits_used = credits_used + d.n * p_credits::int,
      discovered = discovered + d.added,
      stop_reason = CASE
        WHEN completed + failed + d.n >= discovered + d.added
          THEN COALESCE(CASE WHEN d.capped THEN 'max_pages' END, stop_reason, 'completed')
        WHEN d.capped THEN 'max_pages'
        ELSE stop_reason END,
      status = CASE WHEN completed + failed + d.n >= discovered + d.added THEN 'done' ELSE 'processing' END,
      page_secrets = CASE WHEN completed + failed + d.n >= discovered + d.added THEN NULL ELSE page_secrets END,
      finished_at = CASE WHEN completed + failed + d.n >= discovered + d.added THEN now() ELSE finished_at END,
      updated_at = now()
    FROM d
    WHERE id = p_crawl::uuid AND status = 'processing'
      AND (EXISTS (SELECT 1 FROM done) OR EXISTS (SELECT 1 FROM duplicate))
    RETURNING status
  )
  SELECT false, EXISTS (SELECT 1 FROM p), EXISTS (SELECT 1 FROM payable),
         EXISTS (SELECT 1 FROM duplicate),
         (SELECT status FROM bump),
         (SELECT json_agg(json_build_object('pageId', "pageId", 'url', url, 'depth', depth)) FROM ins);
END
$fn$;

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
