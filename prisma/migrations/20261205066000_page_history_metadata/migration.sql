-- A tracked page's metadata (title, description, language…) beside its markdown: a conditional
-- visit answered 304 returns the stored document without downloading or converting the page.
ALTER TABLE "page_history" ADD COLUMN "metadata" JSONB;
