import type { Redis } from 'ioredis';
import { z } from 'zod';
import { finalTimeout } from './job-budget';

/**
 * Cross-process job cancellation. BullMQ's `worker.cancelJob` only reaches the process that holds
 * the job, and the gateway is another process (and there may be several worker replicas), so a
 * cancel is published on a Redis channel under the queue's prefix, which every worker of that
 * queue subscribes to. Pub/sub is fire-and-forget: a job picked up just after the publish would
 * miss it, so the cancel also leaves a marker key that a worker checks when a job starts (after it
 * has registered the job for messages, so one of the two always reaches it). Only the queues the
 * gateway waits for (catalog.ts `jobResults`) are cancelled this way; their workers alone subscribe.
 */

/** Why the gateway stopped waiting. */
export const cancelReason = z.enum(['timeout', 'disconnect', 'shutdown']);
export type CancelReason = z.infer<typeof cancelReason>;

const cancelMessage = z.object({ jobId: z.string().min(1), reason: cancelReason });
export type CancelMessage = z.infer<typeof cancelMessage>;

/** Longer than any interactive job can wait in a queue before its own deadline fails it. */
export const CANCEL_MARKER_TTL_MS = 15 * 60_000;

export const cancelChannel = (prefix: string, queue: string) => `${prefix}:${queue}:cancel`;
export const cancelMarkerKey = (prefix: string, queue: string, jobId: string) =>
  `${prefix}:${queue}:cancelled:${jobId}`;

/** The error a cancelled job fails with (not retried: the worker makes it unrecoverable). */
export function cancelledError(reason: string): Error {
  const why =
    reason === 'timeout'
      ? 'the caller stopped waiting (timeout)'
      : reason === 'disconnect'
        ? 'the client disconnected'
        : reason === 'shutdown'
          ? 'the gateway shut down'
          : reason;
  return finalTimeout(`Job cancelled: ${why}`);
}

/** Marker first, then the message: a worker that misses the message finds the marker. */
export async function publishCancel(
  redis: Redis,
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
  /** Resolves once subscribed; the worker starts taking jobs only then. */
  readonly ready: Promise<void>;

  constructor(
    private readonly subscriber: Redis,
    /** A normal connection for the marker lookups. */
    private readonly commands: Redis,
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
      this.running.get(msg.data.jobId)?.abort(cancelledError(msg.data.reason));
    });
    // ioredis re-subscribes by itself after a reconnect (autoResubscribe).
    this.ready = subscriber.subscribe(channel).then(() => undefined);
  }

  /**
   * Registers a starting job, then looks for a marker left before it started. Returns the reason
   * when the job was cancelled already (the caller aborts it); unwatch when the job ends.
   */
  async watch(jobId: string, controller: AbortController): Promise<CancelReason | null> {
    this.running.set(jobId, controller);
    const marked = await this.commands.get(cancelMarkerKey(this.prefix, this.queue, jobId));
    const reason = cancelReason.safeParse(marked);
    return reason.success ? reason.data : null;
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

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
