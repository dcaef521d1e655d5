-- The links a crawl read from a tracked page (URL, key, nofollow): a recrawl whose conditional
-- visit is answered 304 follows them without downloading or converting the page again. NULL when
-- no crawl read them (a scrape's row, a page at the crawl's maxDepth, too many links to keep).
ALTER TABLE "page_history" ADD COLUMN "links" JSONB;
