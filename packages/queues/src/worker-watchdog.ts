/**
 * Restarts a BullMQ worker that stopped taking jobs. After a Redis Cluster primary was killed and
 * its replica took the slots, idle workers were seen to stay stuck for good: one error, then no job
 * taken for minutes while jobs waited — both `monitor-check` workers of a deployment at once, so its
 * monitors stopped (tests/hosts, the Cluster row), while busy workers of the same processes
 * recovered; in another run they left a due delayed job unpromoted (BullMQ promotes it when a worker
 * looks for its next job), so the monitor's next check never ran. Where in BullMQ's loop they waited
 * was not found; a new worker is the remedy its
 * maintainers give for a worker that stopped after a reconnect. Every `intervalMs` the
 * watchdog asks whether jobs wait while this worker runs none and has taken none since its last
 * look; `STRIKES` looks in a row, and the worker is replaced by a new one (new connections).
 * A look that cannot read Redis says nothing (during an outage nobody takes jobs).
 */

/** Looks in a row that must find jobs waiting and this worker idle before it is restarted. */
export const STRIKES = 2;

export interface WatchedWorker {
  /** Jobs of this worker running now. */
  running(): number;
  /** Date.now() when this worker last began a job (0: never). */
  lastTakenAt(): number;
  /** Jobs waiting to be taken (wait list, prioritized set, delayed jobs past due). */
  waiting(): Promise<number>;
  /** Replace the worker by a new one (started, not awaited). */
  restart(waiting: number): Promise<void>;
}

export class WorkerWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private strikes = 0;
  private lastLook = Date.now();
  private looking = false;

  constructor(
    private readonly watched: WatchedWorker,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.lastLook = Date.now();
    this.timer ??= setInterval(() => void this.look(), this.intervalMs);
    // A process with nothing else to do may exit: the watchdog does not keep it alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look (the timer's; tests call it directly). */
  async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      const since = this.lastLook;
      this.lastLook = Date.now();
      if (this.watched.running() > 0 || this.watched.lastTakenAt() >= since) {
        this.strikes = 0;
        return;
      }
      const waiting = await this.watched.waiting().catch(() => undefined);
      if (waiting === undefined) return;
      if (waiting === 0) {
        this.strikes = 0;
        return;
      }
      if (++this.strikes < STRIKES) return;
      this.strikes = 0;
      await this.watched.restart(waiting);
      this.lastLook = Date.now();
    } finally {
      this.looking = false;
    }
  }
}
