-- Issue 18: results and page text are compressed with LZ4 instead of PostgreSQL's default pglz.
--
-- Every stored page (a crawl page's or batch item's result, the search index's markdown) is
-- compressed once when it is written. On the 181 article pages of the benchmark (173 KB of HTML
-- each) pglz compressed at ~77 MB/s, LZ4 at several hundred (its share of the insert no longer
-- measurable: the same insert without any compression took as long), at the same ratio (95.1 vs
-- 94.8 MB for 313 MB). It only changes how new values are compressed: existing values stay readable
-- as they are, nothing is rewritten. Servers built without LZ4 support keep pglz.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings
             WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE crawl_pages ALTER COLUMN result SET COMPRESSION lz4;
    ALTER TABLE batch_items ALTER COLUMN result SET COMPRESSION lz4;
    ALTER TABLE documents ALTER COLUMN markdown SET COMPRESSION lz4;
    ALTER TABLE monitors ALTER COLUMN last_snapshot SET COMPRESSION lz4;
    ALTER TABLE monitor_changes ALTER COLUMN snapshot SET COMPRESSION lz4;
    ALTER TABLE monitor_changes ALTER COLUMN previous_snapshot SET COMPRESSION lz4;
    ALTER TABLE crawls ALTER COLUMN robots_txt SET COMPRESSION lz4;
  END IF;
END
$$;
