-- A monitor's webhook body: the spec's JSON, or a Slack / Discord incoming-webhook message.
ALTER TABLE "monitors" ADD COLUMN "webhook_format" TEXT NOT NULL DEFAULT 'json';

ALTER TABLE "monitors" ADD CONSTRAINT "monitors_webhook_format_check" CHECK ("webhook_format" IN ('json', 'slack', 'discord'));
