import { randomUUID } from 'node:crypto';
import type { MonitorScheduleKey, MonitorsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { QueueProducer } from '@wcs/queues';
import { PeriodicTask } from '@wcs/runtime';
import type { Queue } from 'bullmq';
import type { MonitorSchedules } from './monitor-schedules';

/** PostgreSQL page (ids in order) and Redis page (ZRANGE by rank) of one pass. */
const PG_PAGE = 1_000;
const REDIS_PAGE = 5_000;
/** Repairs (upserts, removals) in flight at once; ioredis pipelines them on one connection. */
const REPAIR_CONCURRENCY = 64;

type Scheduled = MonitorScheduleKey;

export interface ReconcileResult {
  /** Another replica holds this period's lease: nothing was compared. */
  skipped: boolean;
  active: number;
  schedulers: number;
  /** Schedulers re-created for active monitors that had none. */
  created: number;
  /** Schedulers whose due job had vanished (partial loss), re-created. */
  repaired: number;
  /** Schedulers of paused, cancelled or deleted monitors, removed. */
  removed: number;
  /** One check enqueued for a monitor whose slot passed while it had no scheduler. */
  catchUps: number;
  /** First checks enqueued for never-checked monitors. */
  baselines: number;
}

export interface MonitorReconcilerDeps {
  monitors: MonitorsRepository;
  schedules: MonitorSchedules;
  /** The `monitor-check` queue. */
  queue: Queue;
  /** Any connection to the queue's Redis (the producer's): ZRANGE, EXISTS and the lease. */
  redis: QueueProducer['connection'];
  logger: Logger;
}

async function inBatches<T>(items: T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += REPAIR_CONCURRENCY) {
    await Promise.all(items.slice(i, i + REPAIR_CONCURRENCY).map(fn));
  }
}

/**
 * Keeps the job schedulers in Redis equal to PostgreSQL's active monitors, continuously (after a
 * Redis data loss, monitors would otherwise stop until the scheduler restarted). A pass reads the
 * scheduler ids from the queue's `repeat` sorted set (ZRANGE pages) and the active monitors from
 * PostgreSQL (id pages, four columns) and compares them in memory: when nothing changed it makes no
 * per-monitor call. Differences are repaired with the idempotent BullMQ calls, so replicas racing
 * on the same monitor end in the same state; a Redis lease (SET NX PX interval) keeps it to one
 * pass per interval across replicas. A monitor whose slot passed while it had no scheduler gets one
 * catch-up check, id `catchup-<monitor>-<missed slot>` (replicas add the same job; the check's
 * charge reference derives from it, so it bills once even if run twice), then its regular rhythm.
 */
export class MonitorReconciler {
  private readonly task: PeriodicTask;

  constructor(
    private readonly deps: MonitorReconcilerDeps,
    private readonly opts: { intervalMs: number },
  ) {
    this.task = new PeriodicTask(() => this.runOnce(), {
      intervalMs: opts.intervalMs,
      firstDelayMs: opts.intervalMs,
      onError: (err) => deps.logger.warn({ err }, 'monitor reconcile failed'),
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** `force` ignores the lease (start-up: this process must see Redis match before it goes on). */
  async runOnce(opts: { force?: boolean } = {}): Promise<ReconcileResult> {
    const { queue, redis, monitors, schedules, logger } = this.deps;
    const result: ReconcileResult = {
      skipped: false,
      active: 0,
      schedulers: 0,
      created: 0,
      repaired: 0,
      removed: 0,
      catchUps: 0,
      baselines: 0,
    };
    // The producer's connection fails fast (no offline queue). At start-up wait for it, as the
    // old rebuild did; a periodic pass while Redis is away fails at once (the next one retries),
    // so shutdown never waits on a pass stuck behind a reconnect.
    if (redis.status !== 'ready') {
      if (!opts.force) throw new Error(`Redis connection is ${redis.status}; the next pass retries`);
      await queue.waitUntilReady();
    }
    const lease = await redis.set(
      queue.toKey('reconcile-lease'),
      randomUUID(),
      'PX',
      Math.max(100, this.opts.intervalMs - 50),
      'NX',
    );
    if (lease !== 'OK' && !opts.force) return { ...result, skipped: true };

    // Redis first, PostgreSQL second: a monitor created in between is "missing" (upserted, which is
    // idempotent), never "stale" (removed by mistake).
    const inRedis = await this.schedulerScores();
    result.schedulers = inRedis.size;
    const now = Date.now();
    const missing: Scheduled[] = [];
    const due: Array<{ m: Scheduled; score: number }> = [];
    let after: string | null = null;
    for (;;) {
      const page = await monitors.listScheduleKeys(after, PG_PAGE);
      if (page.length === 0) break;
      for (const m of page) {
        const score = inRedis.get(m.id);
        if (score === undefined) missing.push(m);
        else if (score < now - this.opts.intervalMs) due.push({ m, score });
        inRedis.delete(m.id);
      }
      result.active += page.length;
      after = page[page.length - 1]!.id;
    }

    // Overdue schedulers whose job is gone (lost keys, scheduler hash kept) or already finished:
    // re-create. A finished job under a stale score is a lost advance — the worker schedules the
    // next slot in a call of its own after taking the job, and a failover can lose that write
    // while the job itself runs and is kept (removeOnComplete) — so without this the monitor
    // would wait for the kept job's removal, minutes later.
    const lost: Scheduled[] = [];
    if (due.length > 0) {
      const pipeline = redis.pipeline();
      for (const { m, score } of due) {
        const jobKey = `${queue.toKey('repeat')}:${m.id}:${score}`;
        pipeline.exists(jobKey);
        pipeline.hexists(jobKey, 'finishedOn');
      }
      const answers = (await pipeline.exec()) ?? [];
      due.forEach(({ m }, i) => {
        const exists = answers[2 * i]?.[1];
        const finished = answers[2 * i + 1]?.[1];
        if (exists === 0 || finished === 1) lost.push(m);
      });
    }

    const toSchedule = [...missing, ...lost];
    await inBatches(toSchedule, (m) => schedules.upsert(m));
    result.created = missing.length;
    result.repaired = lost.length;
    const baselines = toSchedule.filter((m) => m.lastCheckAt === null);
    const catchUps = toSchedule.filter(
      (m) => m.lastCheckAt !== null && (m.nextCheckAt === null || m.nextCheckAt.getTime() <= now),
    );
    if (baselines.length + catchUps.length > 0) {
      await queue.addBulk([
        ...baselines.map((m) => ({
          name: 'monitor-check',
          data: { monitorId: m.id },
          opts: { jobId: `baseline-${m.id}` },
        })),
        ...catchUps.map((m) => ({
          name: 'monitor-check',
          data: { monitorId: m.id },
          opts: { jobId: `catchup-${m.id}-${m.nextCheckAt?.getTime() ?? 0}` },
        })),
      ]);
    }
    result.baselines = baselines.length;
    result.catchUps = catchUps.length;

    // What is left in Redis has no active monitor in this snapshot; confirm before removing (it may
    // have been created or resumed after the page that would have listed it was read).
    const leftover = [...inRedis.keys()];
    for (let i = 0; i < leftover.length; i += PG_PAGE) {
      const stale = await monitors.unscheduledAmong(leftover.slice(i, i + PG_PAGE));
      await inBatches(stale, (id) => schedules.remove(id));
      result.removed += stale.length;
    }

    if (result.created + result.repaired + result.removed > 0) {
      logger.info(result, 'monitor schedulers reconciled with PostgreSQL');
    }
    return result;
  }

  /** Scheduler id → its next fire (the `repeat` sorted set's score), read by rank in pages. */
  private async schedulerScores(): Promise<Map<string, number>> {
    const scores = new Map<string, number>();
    for (let start = 0; ; start += REDIS_PAGE) {
      const flat = await this.deps.redis.zrange(
        this.deps.queue.toKey('repeat'),
        start,
        start + REDIS_PAGE - 1,
        'WITHSCORES',
      );
      for (let i = 0; i + 1 < flat.length; i += 2) scores.set(flat[i]!, Number(flat[i + 1]));
      if (flat.length < REDIS_PAGE * 2) break;
    }
    return scores;
  }
}
