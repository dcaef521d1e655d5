/**
 * The shapes of the crawl's host slots (host-slots.ts): what a page asks, the options, and the
 * bookkeeping of one process's share of a host's semaphore.
 */

export interface SlotRequest {
  host: string;
  crawlId: string;
  pageId: string;
  /** Minimum gap between request starts of this crawl to this host (0 = none). */
  delayMs: number;
  /**
   * How long the slot is held at most (a dead holder's slot frees itself after this, or once its
   * process's liveness lapses: host-slot-liveness.ts). Must exceed
   * the request's own time limit by more than `leaseReuseMs`: a slot handed to the next page of
   * this process keeps the expiry it was taken with.
   */
  holdMs: number;
}

export interface HostSlotsOptions {
  /** How long a page may wait here for a slot this process holds (the first `hostConcurrency` waiters). */
  localWaitMs?: number;
  /** The same for the waiters after those. */
  overflowWaitMs?: number;
  /** How long after its ask to Redis a slot may pass from page to page here without asking again. */
  leaseReuseMs?: number;
  /**
   * How long a released slot with no page waiting for it stays this process's, for the host's next
   * page here to take without asking Redis (0, the default: it goes back at once). Call `close`
   * when the process stops taking pages.
   */
  idleKeepMs?: number;
  /** How long this process counts as alive after its last beat while it holds slots (host-slot-liveness.ts). */
  aliveMs?: number;
  /** How often (plus up to as much jitter) a page refused while this process holds slots asks Redis again. */
  watchMs?: number;
}

/** A slot taken in Redis: its member name there, when it was asked for and until when it holds. */
export interface Lease {
  id: string;
  takenAt: number;
  expiresAt: number;
}

/** A page waiting here: woken with a lease (the slot is its now) or without (it asks Redis). */
export interface Waiter {
  wake: (lease?: Lease) => void;
  /** Its crawl spaces requests (delayMs > 0): only Redis keeps that spacing, so no lease. */
  spaced: boolean;
  holdMs: number;
}

/**
 * This process's share of one host's semaphore: slots it holds, pages asking Redis for one now,
 * pages waiting for one of them.
 */
export interface LocalGate {
  /** Slots this process holds in Redis, idle ones included. */
  held: number;
  asking: number;
  /** Pages between two asks while other replicas hold every slot of the host. */
  polling: number;
  waiters: Waiter[];
  /** Released slots kept for the host's next page here (`idleKeepMs`), oldest first. */
  idle: IdleLease[];
  /** When the first waiting page asks Redis again (refused while this process holds fewer than the limit). */
  watch?: NodeJS.Timeout | undefined;
}

/** A slot no page holds, kept a moment for the next one; the timer gives it back to Redis. */
export interface IdleLease {
  lease: Lease;
  timer: NodeJS.Timeout;
}
