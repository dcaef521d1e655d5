-- A sitemap seed's <lastmod> (the latest instant it can mean; a date-only value is the end of that
-- day UTC). A crawl with trustSitemapLastmod does not fetch a page whose lastmod is not after the
-- account's tracked copy of it. Null for pages found by links and for entries without a valid one.
ALTER TABLE "crawl_pages" ADD COLUMN "sitemap_lastmod" TIMESTAMPTZ(3);
