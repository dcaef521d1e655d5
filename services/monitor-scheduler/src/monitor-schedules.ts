import type { MonitorInterval, MonitorsRepository, MonitorView } from '@wcs/db';
import { nextCronFire, queueCatalog } from '@wcs/queues';
import type { Queue } from 'bullmq';

const HOUR_MS = 60 * 60 * 1000;
export const INTERVAL_MS: Record<Exclude<MonitorInterval, 'cron'>, number> = {
  hourly: HOUR_MS,
  daily: 24 * HOUR_MS,
  weekly: 7 * 24 * HOUR_MS,
};

/** Upserts run this many at a time (one Redis connection, pipelined by ioredis). */
const UPSERT_CONCURRENCY = 64;
const PAGE = 1_000;

/** What placing a monitor's checks needs: its interval, or its cron expression and time zone. */
type Placed = Pick<MonitorView, 'interval' | 'jitterMs' | 'cron' | 'timezone'>;

/**
 * One BullMQ job scheduler per monitor (id = monitor id), `every` = interval × scale, and a fixed
 * per-monitor `offset` inside the interval (the monitor's jitter) so that 10,000 daily monitors fire
 * spread over the day, not in the same second. Fire times are deterministic
 * (k × every + offset), so `nextFire` can tell the API when the next check is due.
 * A monitor with a `cron` expression gets a `pattern` scheduler in its time zone instead: BullMQ
 * fires it with cron-parser, and `nextFire` asks cron-parser too (the interval scale does not
 * apply to cron schedules).
 */
export class MonitorSchedules {
  constructor(
    private readonly queue: Queue,
    private readonly scale: number,
  ) {}

  /** A cron monitor's interval is never read here; 'cron' counts as hourly, its shortest spacing. */
  everyMs(interval: MonitorInterval): number {
    const base = interval === 'cron' ? INTERVAL_MS.hourly : INTERVAL_MS[interval];
    return Math.max(1_000, Math.round(base * this.scale));
  }

  /** BullMQ treats offset 0 as "none" (fire now), so the offset is at least 1 ms. */
  offsetMs(m: Pick<MonitorView, 'interval' | 'jitterMs'>): number {
    return Math.max(1, m.jitterMs % this.everyMs(m.interval));
  }

  /** Interval: the same slot arithmetic as BullMQ's getJobSchedulerEveryNextMillis; cron: cron-parser. */
  nextFire(m: Placed, now = Date.now()): Date {
    if (m.cron) return nextCronFire(m.cron, m.timezone, new Date(now));
    const every = this.everyMs(m.interval);
    let next = Math.floor(now / every) * every + this.offsetMs(m);
    if (next <= now) next += every;
    return new Date(next);
  }

  /** Idempotent: an existing scheduler with the same interval (or cron and zone) keeps its rhythm. */
  async upsert(m: Pick<MonitorView, 'id'> & Placed): Promise<void> {
    const { attempts, removeOnComplete, removeOnFail } = queueCatalog['monitor-check'].jobOptions;
    await this.queue.upsertJobScheduler(
      m.id,
      m.cron
        ? { pattern: m.cron, tz: m.timezone }
        : { every: this.everyMs(m.interval), offset: this.offsetMs(m) },
      {
        name: 'monitor-check',
        data: { monitorId: m.id },
        opts: { attempts, removeOnComplete, removeOnFail },
      },
    );
  }

  async upsertMany(monitors: Array<Pick<MonitorView, 'id'> & Placed>): Promise<void> {
    for (let i = 0; i < monitors.length; i += UPSERT_CONCURRENCY) {
      await Promise.all(monitors.slice(i, i + UPSERT_CONCURRENCY).map((m) => this.upsert(m)));
    }
  }

  async remove(monitorId: string): Promise<void> {
    await this.queue.removeJobScheduler(monitorId);
  }

  /**
   * Upsert every active monitor's scheduler, enqueue the baseline check of never-checked monitors
   * and remove the schedulers of paused, cancelled or deleted ones: one call per monitor, whatever
   * Redis holds. The service uses `MonitorReconciler` (compares first, repairs only the difference);
   * this full rebuild stays for `bench:monitor`. Safe to run any number of times.
   */
  async rebuild(
    monitors: MonitorsRepository,
  ): Promise<{ scheduled: number; removed: number; baselines: number }> {
    let scheduled = 0;
    let baselines = 0;
    let after: string | null = null;
    for (;;) {
      const page: MonitorView[] = await monitors.listScheduled(after, PAGE);
      if (page.length === 0) break;
      await this.upsertMany(page);
      const neverChecked = page.filter((m) => m.status === 'active' && m.lastCheckAt === null);
      if (neverChecked.length > 0) {
        await this.queue.addBulk(
          neverChecked.map((m) => ({
            name: 'monitor-check',
            data: { monitorId: m.id },
            opts: { jobId: `baseline-${m.id}` },
          })),
        );
      }
      scheduled += page.length;
      baselines += neverChecked.length;
      after = page[page.length - 1]!.id;
    }
    let removed = 0;
    for (let start = 0; ; start += PAGE) {
      const schedulers = await this.queue.getJobSchedulers(start, start + PAGE - 1, true);
      if (schedulers.length === 0) break;
      const ids = schedulers.map((s) => s.key);
      const stale = await monitors.unscheduledAmong(ids);
      await Promise.all(stale.map((id) => this.remove(id)));
      removed += stale.length;
      // Removing shifts the list; step back by what was removed.
      start -= stale.length;
    }
    return { scheduled, removed, baselines };
  }
}
