import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@wcs/queues';
import { DEFAULT_ALIVE_MS, HostSlotLiveness } from './host-slot-liveness';
import { ACQUIRE, STAMP } from './host-slots.scripts';
import type { HostSlotsOptions, IdleLease, Lease, LocalGate, SlotRequest, Waiter } from './host-slots.types';

export type { HostSlotsOptions, SlotRequest } from './host-slots.types';

/** Host busy: retry soon, with jitter so waiting pages don't all come back at once. */
function busyRetryMs(): number {
  return 50 + Math.floor(Math.random() * 200);
}

/**
 * How long a page waits in this process for a slot that this process itself holds, before it goes
 * back to the delayed set. A slot is held for one fetch: on a responsive site it frees within
 * milliseconds, far sooner than the 50–250 ms a round through the delayed set takes.
 */
const DEFAULT_LOCAL_WAIT_MS = 1_000;
/**
 * Pages beyond the first `hostConcurrency` waiters of a host wait this long at most. On a responsive
 * site the slots turn over every few milliseconds, and a page that waits here costs nothing, where a
 * bounce costs its start and undo in PostgreSQL and two moves in BullMQ, and the worker slot it frees
 * takes the next page — on a one-site crawl, of the same host, to bounce it too (a worker running
 * more pages than its share of the host's slots can serve bounced pages continuously that way). On a
 * slow site they give up soon, so its pages hold the worker's other slots for no longer than this.
 */
const DEFAULT_OVERFLOW_WAIT_MS = 100;
/**
 * A released slot passes straight to the next page waiting in this process (no Redis round trip:
 * on a busy host that is every page) while it is younger than this; then it goes back to Redis and
 * the waiting page asks again, which renews its expiry and gives other replicas their turn.
 */
const DEFAULT_LEASE_REUSE_MS = 1_000;
/** A page of a process holding none of a busy host's slots asks Redis again after 25–50 ms. */
const POLL_MS = 25;
/**
 * A process holding some of a busy host's slots asks for another every 250–500 ms while pages wait
 * here: seldom, because its own releases serve its pages meanwhile.
 */
const DEFAULT_WATCH_MS = 250;

/**
 * This process's side of the politeness the crawl-worker replicas share in Redis
 * (host-slots.scripts.ts): the slots it holds per host, the pages waiting here for one, and the
 * spacing of a crawl's requests.
 */
export class HostSlots {
  private readonly local = new Map<string, LocalGate>();
  /** The lease each page holds (by page id) while its request runs. */
  private readonly leases = new Map<string, Lease>();
  /** Names this process's leases in Redis. */
  private readonly token = randomUUID();
  private leaseSeq = 0;
  private asked = 0;
  private readonly localWaitMs: number;
  private readonly overflowWaitMs: number;
  private readonly leaseReuseMs: number;
  private readonly idleKeepMs: number;
  private readonly watchMs: number;
  private readonly liveness: HostSlotLiveness;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly hostConcurrency: number,
    opts: HostSlotsOptions = {},
  ) {
    this.localWaitMs = opts.localWaitMs ?? DEFAULT_LOCAL_WAIT_MS;
    this.overflowWaitMs = opts.overflowWaitMs ?? DEFAULT_OVERFLOW_WAIT_MS;
    this.leaseReuseMs = opts.leaseReuseMs ?? DEFAULT_LEASE_REUSE_MS;
    this.idleKeepMs = opts.idleKeepMs ?? 0;
    this.watchMs = opts.watchMs ?? DEFAULT_WATCH_MS;
    this.liveness = new HostSlotLiveness(
      redis,
      `${prefix}:crawl-politeness:alive`,
      this.token,
      opts.aliveMs ?? DEFAULT_ALIVE_MS,
      () => [...this.local.values()].some((g) => g.held > 0),
    );
  }

  /**
   * 0 = acquired (call release); > 0 = come back in that many ms. When this process already holds
   * (or is asking Redis for) every slot of the host, Redis could only answer "busy": the page waits
   * here for one of them instead, queued behind the pages already waiting — the first
   * `hostConcurrency` pages per host for at most `localWaitMs`, the others for at most
   * `overflowWaitMs`, so a slow host cannot tie up the worker's other slots for long. A release hands
   * its slot to the first of them (as a lease, without asking Redis, while the lease is young); a
   * page whose wait runs out goes back to the delayed set. When Redis says busy because another
   * replica holds the host's other slots, a page of a process that holds one waits for its release
   * the same way, while the first page waiting asks Redis again every `watchMs` (a slot another
   * replica gave back, or lost with its liveness when it was killed, makes room for more); a page
   * of a process holding none asks Redis again every 25–50 ms within `localWaitMs`, and Redis gives
   * the next free slot to the process it refused first.
   */
  async acquire(r: SlotRequest): Promise<number> {
    const gate = this.gate(r.host);
    // One bound for all of this page's waits here, set by its place in the queue when it first waits.
    let deadline: number | undefined;
    const waitHere = async (): Promise<Lease | boolean> => {
      const waitMs = deadline === undefined ? this.waitTier(gate.waiters.length) : deadline - Date.now();
      deadline ??= Date.now() + waitMs;
      return waitMs > 0 && (await this.waitLocally(gate, waitMs, r));
    };
    const bounce = (): number => {
      this.dropIfUnused(r.host, gate);
      return busyRetryMs();
    };
    const take = (lease: Lease): number => {
      this.leases.set(r.pageId, lease);
      return 0;
    };
    // A slot a page of this host released a moment ago is still this process's: taken without Redis.
    const kept = gate.waiters.length === 0 ? this.takeIdle(gate, r) : undefined;
    if (kept) return take(kept);
    // A hand-over without a lease was counted as asking by `release`, so no newcomer takes the
    // slot meanwhile; one with a lease is the slot itself (still counted as held).
    let handedOver = false;
    if (gate.held + gate.asking >= this.hostConcurrency || gate.waiters.length > 0) {
      const woken = await waitHere();
      if (!woken) return bounce();
      if (woken !== true) return take(woken);
      handedOver = true;
    }
    for (;;) {
      if (!handedOver) gate.asking++;
      this.asked++;
      const takenAt = Date.now();
      const lease = { id: `${this.token}:${++this.leaseSeq}`, takenAt, expiresAt: takenAt + r.holdMs };
      let wait: number;
      try {
        wait = (await this.redis.eval(
          ACQUIRE,
          5,
          this.semaphoreKey(r.host),
          `${this.prefix}:crawl-politeness:next:${r.crawlId}:${r.host}`,
          `${this.prefix}:crawl-politeness:slot:${r.pageId}`,
          `${this.prefix}:crawl-politeness:wanted:${r.host}`,
          `${this.prefix}:crawl-politeness:alive`,
          this.hostConcurrency,
          r.delayMs,
          lease.id,
          r.holdMs,
          this.token,
          this.liveness.aliveMs,
          gate.held === 0 ? 1 : 0,
        )) as number;
      } finally {
        gate.asking--;
      }
      if (wait === 0) {
        gate.held++;
        this.liveness.holding();
        // Room for more (a watched slot came free): the next page waiting here asks too.
        this.handOver(gate);
        return take(lease);
      }
      if (wait > 0) {
        // This crawl's delay: the reservation stands; come back when it is due. The local room it
        // was counted in passes to the next page waiting here.
        this.handOver(gate);
        this.dropIfUnused(r.host, gate);
        return wait;
      }
      // Another replica holds the rest of the host's slots: the next page waiting here would get
      // the same answer, so it is not woken (they would wake each other round Redis in a loop).
      // While this process holds one of the slots, its release is an event to wait for (within
      // the same bound) instead of a round through the delayed set. Holding none, there is no such
      // event: the page asks again shortly, within the long bound, and Redis gives this process
      // the next free slot (`wanted`). A bounce would cost a start and its undo in PostgreSQL,
      // and the freed worker slot would take the next page of the same host to bounce it too.
      if (gate.held === 0) {
        deadline ??= Date.now() + this.localWaitMs;
        const left = deadline - Date.now();
        if (left <= 0) return bounce();
        // Counted as polling until the next ask counts it as asking (no moment counted as neither,
        // when the host's gate could be dropped under it).
        gate.polling++;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(left, POLL_MS + Math.random() * POLL_MS)),
        );
        gate.polling--;
        handedOver = false; // the next ask counts itself
        continue;
      }
      // Holding fewer than the limit, this process asks again now and then (`watch`): another
      // replica's slot may come free, or lapse with its liveness (a killed worker's).
      this.watch(r.host, gate);
      const woken = await waitHere();
      if (!woken) return bounce();
      if (woken !== true) return take(woken);
      handedOver = true;
    }
  }

  /** Slot asks this process has sent to Redis (tests watch the watch with it). */
  get asks(): number {
    return this.asked;
  }

  /** Hosts with a slot held, a page asking or a page waiting here (0 once all is released). */
  get trackedHosts(): number {
    return this.local.size;
  }

  /** Call right before the request (after acquire): waits out any remaining gap, then stamps. */
  async beforeRequest(crawlId: string, host: string, delayMs: number): Promise<void> {
    if (delayMs <= 0) return;
    for (let i = 0; i < 50; i++) {
      const wait = (await this.redis.eval(
        STAMP,
        1,
        `${this.prefix}:crawl-politeness:last:${crawlId}:${host}`,
        delayMs,
      )) as number;
      if (wait <= 0) return;
      // Only the jitter between grant and request is left to wait (a few ms to a few hundred).
      await new Promise((r) => setTimeout(r, Math.min(wait, delayMs)));
    }
  }

  /** Call once for every acquire that returned 0. */
  async release(host: string, pageId: string): Promise<void> {
    const lease = this.leases.get(pageId);
    this.leases.delete(pageId);
    const gate = this.gate(host);
    const next = gate.waiters[0];
    if (lease && next && this.reusable(lease, next)) {
      // The slot stays this process's: the next page takes it over without a Redis round trip.
      gate.waiters.shift();
      next.wake(lease);
      return;
    }
    if (lease && !next && this.idleKeepMs > 0 && this.young(lease)) {
      // No page waits for it yet: kept a moment for the host's next page here (a crawl's pages of
      // one host follow each other), then given back.
      const idle: IdleLease = {
        lease,
        timer: setTimeout(() => {
          const i = gate.idle.indexOf(idle);
          if (i < 0) return;
          gate.idle.splice(i, 1);
          void this.giveBack(host, gate, lease.id).catch(() => undefined);
        }, this.idleKeepMs),
      };
      idle.timer.unref();
      gate.idle.push(idle);
      return;
    }
    await this.giveBack(host, gate, lease?.id ?? pageId);
  }

  /**
   * Give every kept idle slot back to Redis (the process stops taking pages: another replica
   * should not wait for their timers).
   */
  async close(): Promise<void> {
    this.liveness.stop();
    const back: Array<Promise<void>> = [];
    for (const [host, gate] of this.local) {
      clearTimeout(gate.watch);
      for (const idle of gate.idle.splice(0)) {
        clearTimeout(idle.timer);
        back.push(this.giveBack(host, gate, idle.lease.id));
      }
    }
    await Promise.allSettled(back);
  }

  /** A held slot goes back to Redis; a page waiting here for room asks for it. */
  private async giveBack(host: string, gate: LocalGate, member: string): Promise<void> {
    // The ZREM is sent first; a page woken here asks Redis on the same connection after it, so it
    // finds the slot free without waiting for this reply (the hand-over costs no round trip).
    const removed = this.redis.zrem(this.semaphoreKey(host), member);
    gate.held = Math.max(0, gate.held - 1);
    this.handOver(gate);
    this.dropIfUnused(host, gate);
    await removed;
  }

  /** The newest kept slot this page may take (its crawl keeps no spacing, the slot young enough). */
  private takeIdle(gate: LocalGate, r: SlotRequest): Lease | undefined {
    if (r.delayMs > 0) return undefined;
    for (let i = gate.idle.length - 1; i >= 0; i--) {
      const idle = gate.idle[i] as IdleLease;
      if (!this.fits(idle.lease, r.holdMs)) continue;
      gate.idle.splice(i, 1);
      clearTimeout(idle.timer);
      return idle.lease;
    }
    return undefined;
  }

  /** Asked of Redis recently enough to pass on without asking again. */
  private young(lease: Lease): boolean {
    return Date.now() - lease.takenAt < this.leaseReuseMs;
  }

  /** Young, and its expiry leaves a page that holds it for `holdMs` enough time. */
  private fits(lease: Lease, holdMs: number): boolean {
    return this.young(lease) && lease.expiresAt - Date.now() >= holdMs - this.leaseReuseMs;
  }

  /** A lease passes on while young, and only to a page whose crawl needs no spacing kept in Redis. */
  private reusable(lease: Lease, next: Waiter): boolean {
    return !next.spaced && this.fits(lease, next.holdMs);
  }

  /**
   * A page refused while this process holds fewer of the host's slots than the limit waits for
   * their release; meanwhile, after `watchMs`, the first page waiting asks Redis again (handOver)
   * and, refused again, sets the next watch.
   */
  private watch(host: string, gate: LocalGate): void {
    if (gate.watch) return;
    gate.watch = setTimeout(
      () => {
        gate.watch = undefined;
        if (this.local.get(host) === gate) this.handOver(gate);
      },
      this.watchMs + Math.random() * this.watchMs,
    );
    gate.watch.unref();
  }

  /** Wake the first waiting page when there is room, counting it as asking from now on. */
  private handOver(gate: LocalGate): void {
    if (gate.held + gate.asking >= this.hostConcurrency) return;
    const next = gate.waiters.shift();
    if (!next) return;
    gate.asking++;
    next.wake();
  }

  /** How long the next waiting page may wait: long for the first few, briefly for the others. */
  private waitTier(queued: number): number {
    return queued < this.hostConcurrency ? this.localWaitMs : this.overflowWaitMs;
  }

  /**
   * A lease = this process's slot passed on to this page; true = a slot was released meanwhile (the
   * page asks Redis again); false = the wait ran out.
   */
  private waitLocally(gate: LocalGate, waitMs: number, r: SlotRequest): Promise<Lease | boolean> {
    return new Promise<Lease | boolean>((resolve) => {
      const waiter: Waiter = {
        wake: (lease) => {
          clearTimeout(timer);
          resolve(lease ?? true);
        },
        spaced: r.delayMs > 0,
        holdMs: r.holdMs,
      };
      const timer = setTimeout(() => {
        const i = gate.waiters.indexOf(waiter);
        if (i >= 0) gate.waiters.splice(i, 1);
        resolve(false);
      }, waitMs);
      gate.waiters.push(waiter);
    });
  }

  private gate(host: string): LocalGate {
    let g = this.local.get(host);
    if (!g) {
      g = { held: 0, asking: 0, polling: 0, waiters: [], idle: [] };
      this.local.set(host, g);
    }
    return g;
  }

  /** Hosts come and go over a worker's life: keep only the ones with a slot held or a page waiting. */
  private dropIfUnused(host: string, gate: LocalGate): void {
    if (gate.held === 0 && gate.asking === 0 && gate.polling === 0 && gate.waiters.length === 0) {
      clearTimeout(gate.watch);
      this.local.delete(host);
    }
  }

  private semaphoreKey(host: string): string {
    return `${this.prefix}:crawl-politeness:host:${host}`;
  }
}
