-- How a tracked page's stored markdown was made (conversion options, engine, device): a visit
-- answered 304 reuses the copy only when it makes its markdown the same way. Rows stored before
-- this column existed have '' (unknown) and are not reused: their next visit downloads the page.
ALTER TABLE "page_history" ADD COLUMN "variant" TEXT NOT NULL DEFAULT '';
