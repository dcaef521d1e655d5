-- complete_crawl_page with generic plans: its frontier statement was planned again on every
-- completion (a custom plan each time, ~0.6 ms of PostgreSQL CPU a page); all its statements are
-- keyed probes and writes whose plans do not depend on the values
-- (why: packages/db/sql/functions/complete_crawl_page.sql).

CREATE OR REPLACE FUNCTION complete_crawl_page(
  p_crawl uuid, p_page uuid, p_credits int, p_result jsonb, p_status_code int, p_final_key text,
  p_urls text[], p_keys text[], p_depths int[], p_hooked_ok boolean
) RETURNS TABLE (
  o_hooked boolean, o_eligible boolean, o_paid boolean, o_duplicate boolean, o_new_status text,
  o_new_pages json, o_capped boolean, o_unpaid text
) LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $fn$
#variable_conflict use_column
DECLARE
  v_status text;
  v_hooked boolean;
  v_account uuid;
  v_room int;
  v_max int;
  v_balance int;
  v_key uuid;
  v_day_limit int;
  v_month_limit int;
  v_day_spent int := 0;
  v_month_spent int := 0;
  v_unpaid text;
  v_paid boolean;
  v_dup boolean;
  v_done int := 0;
  v_added int := 0;
  v_fresh int := 0;
  v_spares int;
  v_new_spares int := 0;
  v_capped boolean := false;
  v_new_pages json;
  v_new_status text;
BEGIN
  SELECT c.status, EXISTS (SELECT 1 FROM job_webhooks w WHERE w.job_id = c.id), c.account_id,
         GREATEST(0, (c.options->>'maxPages')::int - c.discovered
                        + LEAST(c.failed, (c.options->>'maxPages')::int)), a.balance,
         (c.options->>'maxPages')::int, c.spare_pages, k.id, k.daily_credit_limit, k.monthly_credit_limit
    INTO v_status, v_hooked, v_account, v_room, v_balance, v_max, v_spares, v_key, v_day_limit, v_month_limit
    FROM crawls c JOIN accounts a ON a.id = c.account_id
      LEFT JOIN api_keys k ON k.id = c.api_key_id AND k.account_id = c.account_id
    WHERE c.id = p_crawl FOR NO KEY UPDATE OF c, a;
  IF v_status IS DISTINCT FROM 'processing' OR (v_hooked AND NOT p_hooked_ok) THEN
    RETURN QUERY SELECT coalesce(v_hooked, false), false, false, false, NULL::text, NULL::json, false, NULL::text;
    RETURN;
  END IF;
  IF v_key IS NOT NULL AND (v_day_limit IS NOT NULL OR v_month_limit IS NOT NULL) THEN
    -- Under the account's lock (taken above): every charge of the key is counted here.
    SELECT COALESCE(MAX(s.spent) FILTER (WHERE s.period = 'day'), 0),
           COALESCE(MAX(s.spent) FILTER (WHERE s.period = 'month'), 0)
      INTO v_day_spent, v_month_spent
    FROM api_key_spend s
    WHERE s.api_key_id = v_key
      AND ((s.period = 'day' AND s.period_start = (now() AT TIME ZONE 'UTC')::date)
        OR (s.period = 'month' AND s.period_start = date_trunc('month', now() AT TIME ZONE 'UTC')::date));
  END IF;
  v_unpaid := CASE
    WHEN v_balance < p_credits THEN 'credits'
    WHEN v_day_spent + p_credits > v_day_limit OR v_month_spent + p_credits > v_month_limit THEN 'key_limit'
  END;
  v_paid := v_unpaid IS NULL;

  -- Another page of the crawl already is, or ended at, where this one ended (a redirect).
  -- Looked up by key only (OFFSET 0 keeps the status test out of the scans): filtering on
  -- status in the scan lets the planner walk every done row of the crawl instead.
  v_dup := EXISTS (
    SELECT 1 FROM (
      SELECT status FROM crawl_pages WHERE crawl_id = p_crawl AND url_key = p_final_key AND id <> p_page
      UNION ALL
      SELECT status FROM crawl_pages WHERE crawl_id = p_crawl AND final_key = p_final_key AND id <> p_page
      OFFSET 0
    ) k WHERE k.status = 'done');

  IF v_dup THEN
    UPDATE crawl_pages SET status = 'duplicate', finished_at = now(), updated_at = now()
      WHERE id = p_page AND crawl_id = p_crawl AND status IN ('queued', 'running');
    IF NOT FOUND THEN
      RETURN QUERY SELECT false, false, v_paid, false, NULL::text, NULL::json, false, NULL::text;
      RETURN;
    END IF;
    -- A duplicate leaves the count: it was never a page of its own.
    v_added := -1;
  ELSE
    IF NOT v_paid THEN
      -- Nothing is written; the caller stops the crawl (out of credits) if the page was eligible.
      RETURN QUERY SELECT false,
        EXISTS (SELECT 1 FROM crawl_pages
                WHERE id = p_page AND crawl_id = p_crawl AND status IN ('queued', 'running')),
        false, false, NULL::text, NULL::json, false, v_unpaid;
      RETURN;
    END IF;
    UPDATE crawl_pages
      SET status = 'done', result = p_result, status_code = p_status_code,
          final_key = NULLIF(p_final_key, url_key), error = NULL, error_code = NULL,
          finished_at = now(), updated_at = now()
      WHERE id = p_page AND crawl_id = p_crawl AND status IN ('queued', 'running');
    IF NOT FOUND THEN
      RETURN QUERY SELECT false, false, v_paid, false, NULL::text, NULL::json, false, NULL::text;
      RETURN;
    END IF;
    v_done := 1;
    -- The ledger's unique key decides whether this page was billed before (never twice); the
    -- balance and the key's limits were checked above under the same locks, so it applies.
    PERFORM 1 FROM change_key_balance(v_account, -p_credits, 'crawl', p_page::text, v_key, NULL);
    IF cardinality(p_keys) > 0 THEN
      WITH fresh AS (
        SELECT t.url, t.key, t.depth, t.ord, row_number() OVER (ORDER BY t.ord) AS rank
        FROM unnest(p_urls, p_keys, p_depths) WITH ORDINALITY AS t(url, key, depth, ord)
        WHERE t.key <> p_final_key
          -- One index probe per link: OFFSET 0 keeps each test a per-row subplan (see the header).
          AND NOT EXISTS (SELECT 1 FROM crawl_pages x
                          WHERE x.crawl_id = p_crawl AND x.url_key = t.key OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM crawl_pages x
                          WHERE x.crawl_id = p_crawl AND x.final_key = t.key OFFSET 0)
      ), ins AS (
        -- Past the room, up to maxPages links wait as `spare` rows: a failed page is replaced by
        -- the oldest of them (failPage), so a failure does not lose the links the cap left out.
        INSERT INTO crawl_pages (crawl_id, url, url_key, depth, status)
        SELECT p_crawl, f.url, f.key, f.depth, CASE WHEN f.rank <= v_room THEN 'queued' ELSE 'spare' END
        FROM fresh f
        WHERE f.rank <= v_room + GREATEST(0, v_max - v_spares)
        ORDER BY f.ord
        ON CONFLICT (crawl_id, url_key) DO NOTHING
        RETURNING id AS "pageId", url, depth, status
      )
      SELECT (SELECT count(*) FROM fresh)::int, (SELECT count(*) FROM ins WHERE status = 'queued')::int,
             (SELECT count(*) FROM ins WHERE status = 'spare')::int,
             (SELECT json_agg(json_build_object('pageId', "pageId", 'url', url, 'depth', depth))
                FROM ins WHERE status = 'queued')
        INTO v_fresh, v_added, v_new_spares, v_new_pages;
      v_capped := v_fresh > v_room;
    END IF;
  END IF;

  UPDATE crawls SET
    completed = completed + v_done,
    credits_used = credits_used + v_done * p_credits,
    discovered = discovered + v_added,
    spare_pages = spare_pages + v_new_spares,
    stop_reason = CASE
      WHEN completed + failed + v_done >= discovered + v_added
        THEN COALESCE(CASE WHEN v_capped THEN 'max_pages' END, stop_reason, 'completed')
      WHEN v_capped THEN 'max_pages'
      ELSE stop_reason END,
    status = CASE WHEN completed + failed + v_done >= discovered + v_added THEN 'done' ELSE 'processing' END,
    page_secrets = CASE WHEN completed + failed + v_done >= discovered + v_added THEN NULL ELSE page_secrets END,
    finished_at = CASE WHEN completed + failed + v_done >= discovered + v_added THEN now() ELSE finished_at END,
    -- Moved at most every 250 ms, so that the row's updates change no indexed column and stay HOT
    -- (one heap version reclaimed in place, no index entries) while a crawl completes pages.
    updated_at = CASE WHEN updated_at < now() - interval '250 milliseconds' THEN now() ELSE updated_at END
  WHERE id = p_crawl AND status = 'processing'
  RETURNING status INTO v_new_status;

  RETURN QUERY SELECT false, true, v_paid, v_dup, v_new_status, v_new_pages, v_capped, NULL::text;
END
$fn$;
