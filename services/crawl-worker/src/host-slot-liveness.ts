import type { RedisClient } from '@wcs/queues';
import { BEAT } from './host-slots.scripts';

/**
 * How long a process that holds host slots counts as alive after its last beat. A killed worker's
 * slots go to the living once this has passed (when they ask a full semaphore: host-slots.scripts.ts),
 * instead of after their requests' whole hold (the page budget + 5 s). Long enough that a busy event
 * loop or a Redis failover of a few seconds does not let other replicas take slots of a process
 * still fetching (that would exceed the host's limit for a moment).
 */
export const DEFAULT_ALIVE_MS = 10_000;

/**
 * A process's liveness in Redis while it holds host slots: a beat every quarter of `aliveMs`,
 * started by `holding` when the process takes a slot and stopped once it holds none (a beat finds
 * that out) or by `stop`. The ask that grants a slot renews it too (ACQUIRE).
 */
export class HostSlotLiveness {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly token: string,
    readonly aliveMs: number,
    /** Whether the process still holds a slot of any host (asked at each beat). */
    private readonly holdsAny: () => boolean,
  ) {}

  /** The process took a slot: beat until it holds none. */
  holding(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        if (!this.holdsAny()) return this.stop();
        // A beat that fails (Redis away) is retried by the next; the slots' own expiry still bounds them.
        this.redis.eval(BEAT, 1, this.key, this.token, this.aliveMs).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.aliveMs / 4)),
    );
    this.timer.unref();
  }

  /** No more beats (the process holds no slot, or stops taking pages). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
