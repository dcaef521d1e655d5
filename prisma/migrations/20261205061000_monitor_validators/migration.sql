-- The validators (ETag, Last-Modified) of a monitor's last successful check: the next check sends
-- them (If-None-Match / If-Modified-Since) and a 304 is a check without change, nothing downloaded.
ALTER TABLE "monitors" ADD COLUMN "last_validators" JSONB;
