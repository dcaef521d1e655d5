-- Issue 18: complete_crawl_page also says whether the frontier was capped (o_capped: some new URL
-- of this page was left out for lack of room under maxPages). When it was not, every link the
-- worker sent is in the crawl's frontier after the call, so the worker remembers those keys and
-- does not send them again with the next pages (services/crawl-worker/src/frontier-memo.ts): on
-- most sites a page's links are mostly the same navigation as on every other page.
-- The body is unchanged (20261125090000_charge_by_unique_key); a new output column needs DROP first.
DROP FUNCTION complete_crawl_page(uuid, uuid, int, jsonb, int, text, text[], text[], int[], boolean);

CREATE FUNCTION complete_crawl_page(
  p_crawl uuid, p_page uuid, p_credits int, p_result jsonb, p_status_code int, p_final_key text,
  p_urls text[], p_keys text[], p_depths int[], p_hooked_ok boolean
) RETURNS TABLE (
  o_hooked boolean, o_eligible boolean, o_paid boolean, o_duplicate boolean, o_new_status text,
  o_new_pages json, o_capped boolean
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
    RETURN QUERY SELECT coalesce(v_hooked, false), false, false, false, NULL::text, NULL::json, false;
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
         (SELECT json_agg(json_build_object('pageId', "pageId", 'url', url, 'depth', depth)) FROM ins),
         (SELECT capped FROM d);
END
$fn$;
