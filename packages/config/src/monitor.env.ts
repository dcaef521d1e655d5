import { z } from 'zod';
import { envInt as int } from './schemas';

/** Monitors: the monitor-scheduler's own settings. Composed in services/monitor-scheduler. */
export const monitorEnv = z.object({
  /**
   * Multiplies every monitor interval (hourly = 3,600,000 ms × scale). 1 in production; tests use a
   * tiny value (0.0005 makes `hourly` fire every ~1.8 s). An interval never drops below 1 s; cron
   * schedules keep their real times.
   */
  MONITOR_INTERVAL_SCALE: z.coerce
    .number()
    .positive()
    .max(1)
    .default(1)
    .describe(
      'multiplies monitor intervals, for tests (0.0005 → hourly ≈ 1.8 s; floor 1 s; cron schedules unscaled)',
    ),
  /** How often the scheduler resumes paused monitors whose account has credits again. */
  MONITOR_RESUME_SWEEP_MS: int(5_000, 100).describe(
    'how often paused monitors whose account has credits again are resumed',
  ),
  /**
   * A change with a webhook URL but no delivery attempt this long after it was detected lost its
   * webhook job (Redis was down or restarted empty): the sweep enqueues it again. Changes older
   * than a day are not sent late.
   */
  MONITOR_WEBHOOK_RECOVERY_MS: int(60_000, 0).describe(
    'a change without a delivery attempt this long gets its webhook re-enqueued',
  ),
  /**
   * How often the scheduler compares PostgreSQL's active monitors with the job schedulers in Redis
   * and repairs the difference (lost after a Redis data loss, or left behind by a paused, cancelled
   * or deleted monitor). One pass per interval across all replicas (a Redis lease).
   */
  MONITOR_RECONCILE_MS: int(60_000, 100).describe(
    'job schedulers are reconciled with PostgreSQL this often (survives Redis data loss)',
  ),
  /** Budget of one check (fetch + conversion). */
  MONITOR_CHECK_TIMEOUT_MS: int(30_000, 1_000).describe('budget of one monitor check'),
});

/** Webhooks of monitor changes: the webhook-dispatcher's own settings. */
export const webhookEnv = z.object({
  /** Webhook POST budget (connect + response); there is no retry. */
  WEBHOOK_TIMEOUT_MS: int(5_000, 100).describe('one webhook POST (never retried)'),
});
