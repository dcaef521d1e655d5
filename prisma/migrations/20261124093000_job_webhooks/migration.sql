-- Issue 16: webhooks of crawls and batches in Firecrawl's convention, through an outbox.
-- job_webhooks: what the caller asked for (one row per crawl or batch with a webhook). The headers
-- are secrets, cleared once the job has ended and its last event is delivered or given up.
CREATE TABLE "job_webhooks" (
    "job_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "headers" JSONB,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "events" TEXT[] NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "job_webhooks_pkey" PRIMARY KEY ("job_id"),
    CONSTRAINT "job_webhooks_kind_check" CHECK ("kind" IN ('crawl', 'batch_scrape'))
);
CREATE INDEX "job_webhooks_account_id_created_at_idx" ON "job_webhooks"("account_id", "created_at");
ALTER TABLE "job_webhooks" ADD CONSTRAINT "job_webhooks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The outbox: one row per event, inserted in the transaction of the state change it reports.
-- A page event keeps a reference (page_id = crawl_pages.id or batch_items.id), its body is built
-- at dispatch time. sending_since is set while an attempt is in flight: found set by a later run,
-- that attempt was interrupted. enqueued_at: a dispatch job was added (null = the relay adds it).
CREATE TABLE "job_webhook_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "seq" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "page_id" UUID,
    "error" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sending_since" TIMESTAMPTZ(3),
    "enqueued_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "job_webhook_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "job_webhook_events_event_check" CHECK ("event" IN ('started', 'page', 'completed', 'failed')),
    CONSTRAINT "job_webhook_events_state_check" CHECK ("state" IN ('pending', 'delivered', 'failed')),
    CONSTRAINT "job_webhook_events_page_check" CHECK (("event" = 'page') = ("page_id" IS NOT NULL))
);
CREATE INDEX "job_webhook_events_job_id_seq_idx" ON "job_webhook_events"("job_id", "seq");
-- At most one started, one terminal and one page event per page: a repeated transition adds nothing.
CREATE UNIQUE INDEX "job_webhook_events_started_key" ON "job_webhook_events"("job_id") WHERE "event" = 'started';
CREATE UNIQUE INDEX "job_webhook_events_terminal_key" ON "job_webhook_events"("job_id") WHERE "event" IN ('completed', 'failed');
CREATE UNIQUE INDEX "job_webhook_events_page_key" ON "job_webhook_events"("job_id", "page_id") WHERE "event" = 'page';
-- The relay's scan of events still to deliver.
CREATE INDEX "job_webhook_events_pending_idx" ON "job_webhook_events"("updated_at") WHERE "state" = 'pending';
ALTER TABLE "job_webhook_events" ADD CONSTRAINT "job_webhook_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job_webhooks"("job_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The delivery log: one row per attempt (unique per event and attempt number).
CREATE TABLE "job_webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "event_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "job_webhook_deliveries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "job_webhook_deliveries_event_id_attempt_key" ON "job_webhook_deliveries"("event_id", "attempt");
CREATE INDEX "job_webhook_deliveries_job_id_attempted_at_idx" ON "job_webhook_deliveries"("job_id", "attempted_at");
ALTER TABLE "job_webhook_deliveries" ADD CONSTRAINT "job_webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "job_webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "job_webhook_deliveries" ADD CONSTRAINT "job_webhook_deliveries_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job_webhooks"("job_id") ON DELETE CASCADE ON UPDATE CASCADE;
