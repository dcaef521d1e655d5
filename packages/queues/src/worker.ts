import { encodeError, toServiceError } from '@wcs/errors';
import { DelayedError, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { type PayloadOf, type QueueName, queueCatalog } from './catalog';
import { createRedisConnection } from './connection';
import { RedisErrorLog } from './redis-errors';

export interface DefineWorkerOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  /** How long a job's lock lives without renewal; a dead worker's job is retried after ~this. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  logger?: {
    error(o: object, m?: string): void;
    warn(o: object, m?: string): void;
    info(o: object, m?: string): void;
  };
  /** Redis errors are logged at most once per this interval (default 15 s). */
  errorLogIntervalMs?: number;
}

export interface DefinedWorker {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * A BullMQ worker for one catalog queue. The payload is parsed again on the way out (a malformed
 * job fails once, unrecoverably). Thrown errors become wire-encoded ServiceErrors so their code and
 * HTTP status survive the queue; non-retryable ones are UnrecoverableError so BullMQ stops retrying.
 */
export function defineWorker<N extends QueueName, R>(
  name: N,
  processor: (payload: PayloadOf<N>, job: Job) => Promise<R>,
  opts: DefineWorkerOptions,
): DefinedWorker {
  const errors = new RedisErrorLog(opts.logger, { intervalMs: opts.errorLogIntervalMs });
  const role = `worker:${name}`;
  const connection: Redis = errors.watch(createRedisConnection(opts.redisUrl, 'worker'), role);
  const schema = queueCatalog[name].payload;
  const worker = new Worker(
    name,
    async (job: Job) => {
      const parsed = schema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(
          encodeError(new Error(`Invalid ${name} payload: ${parsed.error.message}`)),
        );
      }
      try {
        return await processor(parsed.data as PayloadOf<N>, job);
      } catch (err) {
        // A processor that moved its job to the delayed set (job.moveToDelayed) must throw
        // DelayedError itself, unwrapped, or BullMQ would count it as a failure.
        if (err instanceof DelayedError) throw err;
        const se = toServiceError(err);
        const encoded = encodeError(se);
        // Unknown failures (a DB hiccup, say) get the queue's bounded retries; target errors don't.
        if (!se.retryable && se.code !== 'INTERNAL') throw new UnrecoverableError(encoded);
        throw new Error(encoded);
      }
    },
    {
      connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs,
      maxStalledCount: 2,
      autorun: true,
    } satisfies WorkerOptions,
  );
  // Mostly lost connections while Redis is down: rate-limited like the connection's own errors.
  errors.watch(worker, role);
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
