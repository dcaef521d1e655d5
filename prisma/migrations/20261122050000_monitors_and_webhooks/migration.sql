-- CreateTable
CREATE TABLE "monitors" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "interval" TEXT NOT NULL,
    "webhook_url" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "last_hash" TEXT,
    "last_check_at" TIMESTAMPTZ(3),
    "next_check_at" TIMESTAMPTZ(3),
    "jitter_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_checks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "monitor_id" UUID NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT,
    "changed" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "error_code" TEXT,

    CONSTRAINT "monitor_checks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_changes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "monitor_id" UUID NOT NULL,
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT NOT NULL,
    "snapshot" TEXT NOT NULL,

    CONSTRAINT "monitor_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "monitor_id" UUID NOT NULL,
    "change_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "account_id" UUID NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "monitors_account_id_created_at_idx" ON "monitors"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "monitors_status_idx" ON "monitors"("status");

-- CreateIndex
CREATE INDEX "monitor_checks_monitor_id_checked_at_idx" ON "monitor_checks"("monitor_id", "checked_at");

-- CreateIndex
CREATE INDEX "monitor_changes_monitor_id_detected_at_idx" ON "monitor_changes"("monitor_id", "detected_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_change_id_key" ON "webhook_deliveries"("change_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_monitor_id_attempted_at_idx" ON "webhook_deliveries"("monitor_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_checks" ADD CONSTRAINT "monitor_checks_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_changes" ADD CONSTRAINT "monitor_changes_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_change_id_fkey" FOREIGN KEY ("change_id") REFERENCES "monitor_changes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Status and interval values (Prisma cannot express CHECK constraints)
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_status_check" CHECK ("status" IN ('active', 'paused', 'cancelled'));
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_interval_check" CHECK ("interval" IN ('hourly', 'daily', 'weekly'));
