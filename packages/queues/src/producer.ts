import { ServiceUnavailableError } from '@wcs/errors';
import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { type PayloadInputOf, type PayloadOf, type QueueName, queueCatalog } from './catalog';
import { createRedisConnection } from './connection';
import { RedisErrorLog, type RedisErrorLogger } from './redis-errors';
import { QUEUE_CLOSED_MESSAGE } from './wait';

/** Typed, validated enqueue for every queue of the catalog; one shared fail-fast connection. */
export class QueueProducer {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly events = new Map<QueueName, QueueEvents>();
  private readonly eventConnections: Redis[] = [];
  readonly connection: Redis;
  private readonly errors: RedisErrorLog;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    /** Where Redis errors go (rate-limited, see RedisErrorLog); without a logger they are dropped. */
    opts: { logger?: RedisErrorLogger; errorLogIntervalMs?: number } = {},
  ) {
    this.errors = new RedisErrorLog(opts.logger, { intervalMs: opts.errorLogIntervalMs });
    this.connection = createRedisConnection(redisUrl, 'producer');
    // ioredis emits 'error' on every failed reconnect; unhandled it would crash the process.
    this.errors.watch(this.connection, 'producer');
  }

  queue<N extends QueueName>(name: N): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: this.connection,
        prefix: this.prefix,
        defaultJobOptions: queueCatalog[name].jobOptions,
      });
      this.errors.watch(q, 'producer');
      this.queues.set(name, q);
    }
    return q;
  }

  /** QueueEvents needs its own blocking connection (it uses XREAD BLOCK). */
  queueEvents(name: QueueName): QueueEvents {
    let e = this.events.get(name);
    if (!e) {
      const connection = createRedisConnection(this.redisUrl, 'worker');
      this.errors.watch(connection, 'queue-events');
      this.eventConnections.push(connection);
      e = new QueueEvents(name, {
        connection,
        // Reading from '$' misses events written between "connected" and the first XREAD, and
        // a waiter would then hang until its timeout. Starting a minute back closes that window
        // (replayed events only reach listeners of jobs that are still being waited for).
        lastEventId: `${Date.now() - 60_000}-0`,
        prefix: this.prefix,
      });
      this.errors.watch(e, 'queue-events');
      this.events.set(name, e);
    }
    return e;
  }

  async enqueue<N extends QueueName>(name: N, payload: PayloadInputOf<N>, opts: JobsOptions = {}) {
    const data: PayloadOf<N> = queueCatalog[name].payload.parse(payload) as PayloadOf<N>;
    try {
      return await this.queue(name).add(name, data, opts);
    } catch (err) {
      throw new ServiceUnavailableError('Job queue is unavailable; retry shortly', { cause: err });
    }
  }

  async enqueueBulk<N extends QueueName>(
    name: N,
    jobs: Array<{ payload: PayloadInputOf<N>; opts?: JobsOptions }>,
  ): Promise<void> {
    const q = this.queue(name);
    const entries = jobs.map((j) => ({
      name,
      data: queueCatalog[name].payload.parse(j.payload) as PayloadOf<N>,
      opts: j.opts ?? {},
    }));
    try {
      for (let i = 0; i < entries.length; i += 500) await q.addBulk(entries.slice(i, i + 500));
    } catch (err) {
      throw new ServiceUnavailableError('Job queue is unavailable; retry shortly', { cause: err });
    }
  }

  async close(): Promise<void> {
    // Release every waitUntilFinished still pending (BullMQ listens for 'closing' on the job's
    // queue but no longer emits it): each waiter fails at once instead of holding its timer —
    // up to a scrape's budget — and the gateway's handler refunds its charge.
    for (const q of this.queues.values()) {
      (q as unknown as NodeJS.EventEmitter).emit('closing', QUEUE_CLOSED_MESSAGE);
    }
    await Promise.allSettled([...this.events.values()].map((e) => e.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    for (const c of this.eventConnections) c.disconnect();
    this.connection.disconnect();
  }
}
