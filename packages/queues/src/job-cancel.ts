import { z } from 'zod';
import type { RedisClient } from './connection';
import { finalTimeout } from './job-budget';

/**
 * Cross-process job cancellation. BullMQ's `worker.cancelJob` only reaches the process that holds
 * the job, and the gateway is another process (and there may be several worker replicas), so a
 * cancel is published on a Redis channel under the queue's prefix, which every worker of that
 * queue subscribes to. Pub/sub is fire-and-forget: a job picked up just after the publish would
 * miss it, so the cancel also leaves a marker key that a worker checks when a job starts (after it
 * has registered the job for messages, so one of the two always reaches it). Only the queues the
 * gateway waits for (catalog.ts `jobResults`) are cancelled this way; their workers alone subscribe.
 *
 * The marker lookup is a Redis round trip before every interactive job (the `queue` stage of a
 * scrape's Server-Timing). It is skipped when the message cannot have been missed: the channel was
 * subscribed, without a break since, before this worker took the job (the job's `processedOn`, this
 * worker's clock when it asked BullMQ for the job), and a cancel is only published once a worker
 * holds the job (the producer removes a job nobody took). A message that arrives before the job is
 * registered is remembered (`heard`); after a reconnect the markers of the running jobs are read.
 */

/** Why the gateway stopped waiting ('refused': the job started early and its charge was refused). */
export const cancelReason = z.enum(['timeout', 'disconnect', 'shutdown', 'refused']);
export type CancelReason = z.infer<typeof cancelReason>;

const cancelMessage = z.object({ jobId: z.string().min(1), reason: cancelReason });
export type CancelMessage = z.infer<typeof cancelMessage>;

/** Longer than any interactive job can wait in a queue before its own deadline fails it. */
export const CANCEL_MARKER_TTL_MS = 15 * 60_000;

export const cancelChannel = (prefix: string, queue: string) => `${prefix}:${queue}:cancel`;
export const cancelMarkerKey = (prefix: string, queue: string, jobId: string) =>
  `${prefix}:${queue}:cancelled:${jobId}`;

/**
 * How long before a job was taken the channel must have been subscribed for its marker lookup to be
 * skipped: room for a step of the wall clock between the subscription and the take (both are this
 * process's Date.now()).
 */
export const SUBSCRIBED_MARGIN_MS = 1_000;

/** Cancels heard for jobs not (yet) running here: at most this many, each for at most the marker's TTL. */
const HEARD_MAX = 10_000;

/** The error a cancelled job fails with (not retried: the worker makes it unrecoverable). */
export function cancelledError(reason: string): Error {
  const why =
    reason === 'timeout'
      ? 'the caller stopped waiting (timeout)'
      : reason === 'disconnect'
        ? 'the client disconnected'
        : reason === 'shutdown'
          ? 'the gateway shut down'
          : reason === 'refused'
            ? "the request's charge was refused"
            : reason;
  return finalTimeout(`Job cancelled: ${why}`);
}

/** Marker first, then the message: a worker that misses the message finds the marker. */
export async function publishCancel(
  redis: RedisClient,
  prefix: string,
  queue: string,
  msg: CancelMessage,
): Promise<void> {
  await redis
    .multi()
    .set(cancelMarkerKey(prefix, queue, msg.jobId), msg.reason, 'PX', CANCEL_MARKER_TTL_MS)
    .publish(cancelChannel(prefix, queue), JSON.stringify(msg))
    .exec();
}

/**
 * One worker's end of the channel: a subscriber connection of its own (a subscribed ioredis
 * connection can run no other command) and the controllers of the jobs running here.
 */
export class CancelSubscriber {
  private readonly running = new Map<string, AbortController>();
  /** Cancels whose job was not running here when they came (oldest first): job id → reason, when. */
  private readonly heard = new Map<string, { reason: CancelReason; at: number }>();
  /** Date.now() once the channel was last (re)subscribed; undefined while the connection is down. */
  private subscribedAt: number | undefined;
  /** Resolves once subscribed; the worker starts taking jobs only then. */
  readonly ready: Promise<void>;

  constructor(
    private readonly subscriber: RedisClient,
    /** A normal connection for the marker lookups. */
    private readonly commands: RedisClient,
    private readonly prefix: string,
    private readonly queue: string,
    onBadMessage: (raw: string) => void = () => {},
  ) {
    const channel = cancelChannel(prefix, queue);
    subscriber.on('message', (ch: string, raw: string) => {
      if (ch !== channel) return;
      const parsed = safeJson(raw);
      const msg = cancelMessage.safeParse(parsed);
      if (!msg.success) return onBadMessage(raw);
      const controller = this.running.get(msg.data.jobId);
      if (controller) controller.abort(cancelledError(msg.data.reason));
      else this.remember(msg.data.jobId, msg.data.reason);
    });
    // Messages published while the connection is down are lost: until it is subscribed again,
    // every starting job reads its marker.
    subscriber.on('close', () => {
      this.subscribedAt = undefined;
    });
    // ioredis re-subscribes by itself after a reconnect (autoResubscribe) without saying when it is
    // done: subscribing again (a no-op for Redis) tells when; then the running jobs' markers are
    // read, for the cancels sent while the connection was down.
    // The first connection's 'ready' races the subscription below: it is not a reconnect.
    let initial = true;
    subscriber.on('ready', () => {
      if (initial || this.subscribedAt !== undefined) return;
      void subscriber.subscribe(channel).then(
        () => {
          this.subscribedAt = Date.now();
          void this.readMarkersOfRunning();
        },
        () => undefined,
      );
    });
    this.ready = subscriber
      .subscribe(channel)
      .then(() => {
        this.subscribedAt = Date.now();
      })
      .finally(() => {
        initial = false;
      });
  }

  /**
   * Registers a starting job, then looks for a marker left before it started. Returns the reason
   * when the job was cancelled already (the caller aborts it); unwatch when the job ends.
   */
  async watch(jobId: string, controller: AbortController, takenAt?: number): Promise<CancelReason | null> {
    this.running.set(jobId, controller);
    const heard = this.heard.get(jobId);
    if (heard) {
      this.heard.delete(jobId);
      return heard.reason;
    }
    if (this.heardAll(takenAt)) return null;
    return this.readMarker(jobId);
  }

  /** A job taken at `takenAt` (its processedOn) cannot have had a cancel this subscriber missed. */
  private heardAll(takenAt: number | undefined): boolean {
    return (
      takenAt !== undefined &&
      this.subscribedAt !== undefined &&
      takenAt - this.subscribedAt >= SUBSCRIBED_MARGIN_MS
    );
  }

  private async readMarker(jobId: string): Promise<CancelReason | null> {
    const marked = await this.commands.get(cancelMarkerKey(this.prefix, this.queue, jobId));
    const reason = cancelReason.safeParse(marked);
    return reason.success ? reason.data : null;
  }

  private async readMarkersOfRunning(): Promise<void> {
    for (const [jobId, controller] of [...this.running]) {
      const reason = await this.readMarker(jobId).catch(() => null);
      if (reason && this.running.get(jobId) === controller) controller.abort(cancelledError(reason));
    }
  }

  private remember(jobId: string, reason: CancelReason): void {
    const now = Date.now();
    this.heard.delete(jobId);
    this.heard.set(jobId, { reason, at: now });
    for (const [id, h] of this.heard) {
      const expired = now - h.at > CANCEL_MARKER_TTL_MS;
      if (!expired && this.heard.size <= HEARD_MAX) break;
      this.heard.delete(id);
      // A cancel forgotten before its time: the jobs taken until now read their markers again.
      if (!expired) this.subscribedAt = this.subscribedAt === undefined ? undefined : now;
    }
  }

  unwatch(jobId: string, controller: AbortController): void {
    if (this.running.get(jobId) === controller) this.running.delete(jobId);
  }

  get size(): number {
    return this.running.size;
  }

  close(): void {
    this.subscriber.disconnect();
  }
}

/** A channel message's JSON, or undefined when it is not JSON (its schema then refuses it). */
export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
