import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { RedisClient } from './connection';
import { safeJson } from './job-cancel';

/**
 * Answers of the jobs a gateway waits for, pushed to it: the worker publishes a job's return value
 * on its queue's answer channel as soon as the processor returns, before BullMQ records the job as
 * completed (a Lua script, then its event read back by the gateway: ~1.5–2 ms of a `/v1/scrape` on
 * a 2-core VM), and each producer hears it on one subscriber connection of its own.
 *
 * Only a shortcut: pub/sub drops what is published while a subscriber reconnects, and a large
 * answer is not sent (a subscriber behind on large messages would be cut off by Redis's output
 * buffer limit for pub/sub clients), so every wait still listens to its queue's events, which stay
 * the record of the job; the first of the two answers wins (wait.ts).
 */

/** Answers longer than this (JSON, in characters) go by the queue's events only. */
export const ANSWER_MAX_CHARS = 64 * 1024;

export const answerChannel = (prefix: string, queue: string) => `${prefix}:${queue}:answers`;

const answerMessage = z.object({ jobId: z.string().min(1), returnvalue: z.unknown() });

/**
 * The worker's side: best effort, never throws, not awaited. False when not sent (too large, or
 * not JSON: BullMQ's own record of it will say so).
 */
export function publishAnswer(
  redis: RedisClient,
  prefix: string,
  queue: string,
  jobId: string,
  value: unknown,
): boolean {
  let raw: string | undefined;
  try {
    raw = JSON.stringify({ jobId, returnvalue: value });
  } catch {
    return false;
  }
  if (raw === undefined || raw.length > ANSWER_MAX_CHARS) return false;
  redis.publish(answerChannel(prefix, queue), raw).catch(() => undefined);
  return true;
}

/**
 * A producer's end: one subscriber connection for every queue it waits on, and per queue an
 * emitter of `completed:<jobId>` with `{ returnvalue }` (the shape of BullMQ's QueueEvents, so a
 * wait listens to both alike).
 */
export class AnswerSubscriber {
  private readonly queues = new Map<string, { emitter: EventEmitter; ready: Promise<void> }>();

  constructor(
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
    onBadMessage: (raw: string) => void = () => {},
  ) {
    subscriber.on('message', (channel: string, raw: string) => {
      const queue = this.queues.get(channel);
      if (!queue) return;
      const msg = answerMessage.safeParse(safeJson(raw));
      if (!msg.success) return onBadMessage(raw);
      queue.emitter.emit(`completed:${msg.data.jobId}`, { returnvalue: msg.data.returnvalue });
    });
  }

  /**
   * The queue's answers, subscribed on first use (answers published before the subscription is in
   * come by the queue's events). `ready` resolves once subscribed, or when that failed.
   */
  of(queue: string): { emitter: EventEmitter; ready: Promise<void> } {
    const channel = answerChannel(this.prefix, queue);
    let known = this.queues.get(channel);
    if (!known) {
      const emitter = new EventEmitter();
      // One listener per waiting job: as many at once as requests in flight.
      emitter.setMaxListeners(0);
      const ready = this.subscriber.subscribe(channel).then(
        () => undefined,
        () => undefined,
      );
      known = { emitter, ready };
      this.queues.set(channel, known);
    }
    return known;
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
