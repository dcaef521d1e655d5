-- complete_crawl_pages: complete_crawl_page of several pages of one crawl in one call, in order
-- (packages/db/src/crawl-frontier.ops.ts, completeEachTx). The reviewed, current definition: a
-- change is made here and copied into a new migration (packages/db/src/sql-functions.test.ts).
--
-- Why: the pages of a crawl that a worker finishes while another completion of that crawl is under
-- way would wait for the crawl row's lock one behind the other (a convoy: each its own round trip,
-- lock wait and commit). The worker hands them over together instead (a group commit: one
-- statement, one lock, one commit). Each page goes through complete_crawl_page itself, unchanged,
-- so its rules (payable, billed once, duplicates, the frontier's cap) have one definition; in this
-- VOLATILE function each of its statements takes a new snapshot and sees the pages before it.
--
-- p_pages: [{pageId, credits, result, statusCode, finalKey, urls, keys, depths}]; o_ord is the
-- page's position in it (from 1). A crawl with a webhook answers o_hooked for every page, nothing
-- written: the caller completes those one by one, each with its outbox events.
--
-- History: prisma/migrations/20261206090000_complete_crawl_pages.

CREATE OR REPLACE FUNCTION complete_crawl_pages(p_crawl uuid, p_pages jsonb)
RETURNS TABLE (
  o_ord int, o_hooked boolean, o_eligible boolean, o_paid boolean, o_duplicate boolean,
  o_new_status text, o_new_pages json, o_capped boolean, o_unpaid text
) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_page jsonb;
  v_ord bigint;
BEGIN
  FOR v_page, v_ord IN
    SELECT e.value, e.ord FROM jsonb_array_elements(p_pages) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord
  LOOP
    RETURN QUERY
      SELECT v_ord::int, c.o_hooked, c.o_eligible, c.o_paid, c.o_duplicate, c.o_new_status,
             c.o_new_pages, c.o_capped, c.o_unpaid
      FROM complete_crawl_page(
        p_crawl, (v_page->>'pageId')::uuid, (v_page->>'credits')::int, v_page->'result',
        (v_page->>'statusCode')::int, v_page->>'finalKey',
        ARRAY(SELECT u.value FROM jsonb_array_elements_text(v_page->'urls') WITH ORDINALITY AS u(value, ord)
              ORDER BY u.ord),
        ARRAY(SELECT k.value FROM jsonb_array_elements_text(v_page->'keys') WITH ORDINALITY AS k(value, ord)
              ORDER BY k.ord),
        ARRAY(SELECT d.value::int FROM jsonb_array_elements_text(v_page->'depths') WITH ORDINALITY AS d(value, ord)
              ORDER BY d.ord),
        false) c;
  END LOOP;
END
$fn$;
