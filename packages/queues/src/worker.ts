import { encodeError, toServiceError } from '@wcs/errors';
import { DelayedError, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { type PayloadOf, type QueueName, queueCatalog } from './catalog';
import { createRedisConnection } from './connection';
import { RedisErrorLog } from './redis-errors';

export interface WorkerLogger {
  error(o: object, m?: string): void;
  warn(o: object, m?: string): void;
  info(o: object, m?: string): void;
}

export interface DefineWorkerOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  /** How long a job's lock lives without renewal; a dead worker's job is retried after ~this. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  logger?: WorkerLogger;
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

/**
 * What every worker of a service process shares, as its parsed environment carries it (`baseEnv`
 * and `workerEnv` of @wcs/config, described structurally so this package needs no config).
 */
export interface WorkerSettings {
  REDIS_URL: string;
  QUEUE_PREFIX: string;
  WORKER_LOCK_MS: number;
  WORKER_STALLED_INTERVAL_MS: number;
}

/** `defineWorker` with a process's shared options filled in; a queue may set its own concurrency. */
export type QueueWorkerDefiner = <N extends QueueName, R>(
  name: N,
  processor: (payload: PayloadOf<N>, job: Job) => Promise<R>,
  overrides?: { concurrency?: number },
) => DefinedWorker;

/**
 * One service's worker wiring: every worker it defines gets the same Redis URL (a worker
 * connection of its own, waiting for Redis forever), key prefix, lock and stall settings, and the
 * process logger (Redis errors rate-limited through RedisErrorLog); each runs `concurrency` jobs at
 * once unless its queue says otherwise. A `start*Worker` then states only its queues' processors.
 */
export function workerDefiner(
  env: WorkerSettings,
  logger: WorkerLogger,
  defaults: { concurrency: number },
): QueueWorkerDefiner {
  return (name, processor, overrides = {}) =>
    defineWorker(name, processor, {
      redisUrl: env.REDIS_URL,
      prefix: env.QUEUE_PREFIX,
      concurrency: overrides.concurrency ?? defaults.concurrency,
      lockDurationMs: env.WORKER_LOCK_MS,
      stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
      logger,
    });
}
