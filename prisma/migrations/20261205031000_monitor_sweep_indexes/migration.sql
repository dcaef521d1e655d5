-- The monitor-scheduler's sweep (every MONITOR_RESUME_SWEEP_MS, 5 s by default) looks for active
-- monitors never checked (a lost baseline job) and for changes without a webhook attempt. With only
-- (status) and (monitor_id, detected_at) to go by, each sweep read every active monitor and every
-- change: the cost of a tick grew with the number of monitors. These two indexes hold only what
-- the sweep looks for (never-checked monitors: a handful) or let it read just its time window.

CREATE INDEX "monitors_unstarted_idx" ON "monitors"("created_at")
  WHERE "status" = 'active' AND "last_check_at" IS NULL;

CREATE INDEX "monitor_changes_detected_at_idx" ON "monitor_changes"("detected_at");
