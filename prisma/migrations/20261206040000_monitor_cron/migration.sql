-- Monitors on a cron schedule: a 5-field expression read in an IANA time zone, instead of an
-- interval. Such a monitor's interval reads 'cron'; the two go together (CHECK).
ALTER TABLE "monitors" ADD COLUMN "cron" TEXT;
ALTER TABLE "monitors" ADD COLUMN "timezone" TEXT NOT NULL DEFAULT 'UTC';

ALTER TABLE "monitors" DROP CONSTRAINT "monitors_interval_check";
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_interval_check" CHECK ("interval" IN ('hourly', 'daily', 'weekly', 'cron'));
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_cron_check" CHECK (("interval" = 'cron') = ("cron" IS NOT NULL));
