import type { MonitorsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { Queue } from 'bullmq';

/** A monitor this old and never checked lost its baseline job (Redis was down at creation). */
const BASELINE_GRACE_MS = 60_000;

/**
 * paused → active once the account has credits again. Polling the accounts table covers every way
 * credits arrive (CLI top-up, admin grant, monthly refill) without hooking each writer. Resumed
 * monitors keep their scheduler (paused ones are skipped, not unscheduled), so checks continue
 * at the next slot of their interval. The same sweep re-enqueues baselines the gateway could not
 * enqueue (the job id `baseline-<id>` makes that a no-op while the first one still exists).
 */
export class ResumeSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly checks: Queue,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.runOnce().finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async runOnce(): Promise<void> {
    try {
      const resumed = await this.monitors.resumeFunded();
      if (resumed.length > 0) this.logger.info({ count: resumed.length }, 'resumed paused monitors');
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
    } catch (err) {
      this.logger.warn({ err }, 'resume sweep failed');
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
