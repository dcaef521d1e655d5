-- Issue 13: the dashboard shows each monitor change with a diff against the content before it.
-- The snapshot of the last check (baseline or change) is kept on the monitor, and a change row
-- copies it as previous_snapshot, so every change (the first one too) can be diffed without
-- reading its neighbours.
ALTER TABLE "monitors" ADD COLUMN "last_snapshot" TEXT;
ALTER TABLE "monitor_changes" ADD COLUMN "previous_snapshot" TEXT;
