-- complete_crawl_pages: a worker's group commit of several pages of one crawl, each through
-- complete_crawl_page (why: packages/db/sql/functions/complete_crawl_pages.sql).

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
