import type { MonitorsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { Queue } from 'bullmq';
import type { MonitorSchedules } from './monitor-schedules';

/** A monitor this old and never checked lost its baseline job (Redis was down at creation). */
const BASELINE_GRACE_MS = 60_000;
/** Lost webhooks older than this are not sent late. */
const WEBHOOK_MAX_AGE_MS = 24 * 3_600_000;

/**
 * paused → active once the account has credits again. Polling the accounts table covers every way
 * credits arrive (CLI top-up, admin grant, monthly refill) without hooking each writer. A paused
 * monitor has no scheduler (the reconciler removes it); a resumed one gets it back here at once,
 * and fire times are deterministic, so checks continue at the next slot of their interval (which
 * becomes its `nextCheckAt`). The same sweep re-enqueues baselines the gateway could not
 * enqueue (the job id `baseline-<id>` makes that a no-op while the first one still exists), and
 * webhooks of changes that have no delivery attempt after `webhookRecoveryMs` (the check could
 * not enqueue it, or Redis lost the job); `change-<id>` is the id the check itself uses, so a job
 * still waiting is never doubled, and a delivered change has its attempt row and is skipped.
 */
export class ResumeSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly schedules: MonitorSchedules,
    private readonly checks: Queue,
    private readonly webhooks: Queue,
    private readonly logger: Logger,
    private readonly settings: { intervalMs: number; webhookRecoveryMs: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.runOnce().finally(() => (this.running = null));
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  async runOnce(): Promise<void> {
    try {
      const resumed = await this.monitors.resumeFunded();
      if (resumed.length > 0) {
        this.logger.info({ count: resumed.length }, 'resumed paused monitors');
        await this.reschedule(resumed);
      }
      const lost = await this.monitors.listUnstarted(new Date(Date.now() - BASELINE_GRACE_MS), 500);
      if (lost.length > 0) {
        await this.checks.addBulk(
          lost.map((monitorId) => ({
            name: 'monitor-check',
            data: { monitorId },
            opts: { jobId: `baseline-${monitorId}` },
          })),
        );
      }
      const now = Date.now();
      const undelivered = await this.monitors.listUndeliveredChanges(
        new Date(now - WEBHOOK_MAX_AGE_MS),
        new Date(now - this.settings.webhookRecoveryMs),
        500,
      );
      if (undelivered.length > 0) {
        this.logger.warn({ count: undelivered.length }, 're-enqueueing webhooks whose job was lost');
        await this.webhooks.addBulk(
          undelivered.map((changeId) => ({
            name: 'webhook',
            data: { changeId },
            opts: { jobId: `change-${changeId}` },
          })),
        );
      }
    } catch (err) {
      this.logger.warn({ err }, 'resume sweep failed');
    }
  }

  /** Rare (a top-up), so one call per monitor is fine; a failure is repaired by the reconciler. */
  private async reschedule(ids: string[]): Promise<void> {
    for (const id of ids) {
      const m = await this.monitors.byId(id);
      if (m?.status !== 'active') continue;
      await this.schedules.upsert(m);
      await this.monitors.setNextCheck(m.id, this.schedules.nextFire(m));
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
