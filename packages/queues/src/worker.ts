import { hostname } from 'node:os';
import { encodeError, ServiceError, toServiceError } from '@wcs/errors';
import { DelayedError, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import { isWaitedQueue, type PayloadOf, type QueueName, queueCatalog } from './catalog';
import { createRedisConnection, keyPrefixOn, type RedisClient, type RedisTargetInput } from './connection';
import { publishAnswer } from './job-answers';
import { deadlineError, type JobContext, jobClock, jobDeadline } from './job-budget';
import { CancelSubscriber, cancelledError } from './job-cancel';
import { isJobLockLost, lockConfirmer } from './job-lock';
import { RedisErrorLog } from './redis-errors';
import { WorkerWatchdog } from './worker-watchdog';

export interface WorkerLogger {
  error(o: object, m?: string): void;
  warn(o: object, m?: string): void;
  info(o: object, m?: string): void;
}

export interface DefineWorkerOptions {
  /** The queues' Redis (a bare URL: one server). */
  redis: RedisTargetInput;
  prefix: string;
  concurrency: number;
  /** How long a job's lock lives without renewal; a dead worker's job is retried after ~this. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  logger?: WorkerLogger;
  /** Redis errors are logged at most once per this interval (default 15 s). */
  errorLogIntervalMs?: number;
  /** Total time of a job across its attempts (see job-budget.ts); none: only a payload deadline. */
  budgetMs?: number;
  /** After an abort, how long the processor gets to wind down before the job is failed anyway. */
  abortGraceMs?: number;
  /** The clock `ctx.confirmLock` ages the lock by (tests step it; default Date.now). */
  now?: () => number;
  /** How often the worker-watchdog.ts looks whether this worker stopped taking jobs (default 10 s). */
  watchdogMs?: number;
}

export interface DefinedWorker {
  worker: Worker;
  close(): Promise<void>;
}

export type JobProcessor<N extends QueueName, R> = (
  payload: PayloadOf<N>,
  job: Job,
  ctx: JobContext,
) => Promise<R>;

export const ABORT_GRACE_MS = 5_000;
/**
 * A delayed job this long past due counts as waiting for the watchdog: a running worker promotes a
 * due job when it next looks for one (within its block timeout, seconds at most).
 */
const OVERDUE_MS = 1_000;
/** worker-watchdog.ts: a worker idle while jobs wait for two looks this far apart is restarted. */
export const WATCHDOG_MS = 10_000;

/**
 * A BullMQ worker for one catalog queue. The payload is parsed again on the way out (a malformed
 * job fails once, unrecoverably). Thrown errors become wire-encoded ServiceErrors so their code and
 * HTTP status survive the queue; non-retryable ones are UnrecoverableError so BullMQ stops retrying.
 *
 * Every job runs under an AbortSignal (`ctx.signal`) that fires at its deadline (job-budget.ts), on
 * a cancel from another process (job-cancel.ts) or on `worker.cancelJob`. A job whose signal fired
 * is never retried; a processor that does not stop within `abortGraceMs` is left behind and its job
 * failed, so the job is terminal (not re-run as stalled) and its slot free.
 */
export function defineWorker<N extends QueueName, R>(
  name: N,
  processor: JobProcessor<N, R>,
  opts: DefineWorkerOptions,
): DefinedWorker {
  const errors = new RedisErrorLog(opts.logger, { intervalMs: opts.errorLogIntervalMs });
  const role = `worker:${name}`;
  const prefix = keyPrefixOn(opts.redis, opts.prefix);
  const connection: RedisClient = errors.watch(createRedisConnection(opts.redis, 'worker'), role);
  // Only the queues the gateway waits for are ever cancelled by another process (producer.cancel
  // takes a WaitedQueue): the others get no subscriber connection and no marker lookup per job.
  const cancels = isWaitedQueue(name)
    ? new CancelSubscriber(
        errors.watch(createRedisConnection(opts.redis, 'worker'), `${role}:cancel`),
        connection,
        prefix,
        name,
        (raw) => opts.logger?.warn({ queue: name, raw: raw.slice(0, 200) }, 'malformed cancel message'),
      )
    : undefined;
  const schema = queueCatalog[name].payload;
  const graceMs = opts.abortGraceMs ?? ABORT_GRACE_MS;
  // What the watchdog reads: jobs running here, and when the last one began.
  let running = 0;
  let lastTakenAt = 0;
  // BullMQ hands the processor its own AbortSignal (worker.cancelJob) only when it declares three
  // parameters: keep `token` and `bullSignal` in the signature.
  const run = async (job: Job, token?: string, bullSignal?: AbortSignal) => {
    running++;
    lastTakenAt = Date.now();
    try {
      return await runJob(job, token, bullSignal);
    } finally {
      running--;
    }
  };
  const runJob = async (job: Job, token?: string, bullSignal?: AbortSignal) => {
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(
        encodeError(new Error(`Invalid ${name} payload: ${parsed.error.message}`)),
      );
    }
    const startedAt = Date.now();
    const clock = jobClock.safeParse(job.data);
    const deadlineAt = jobDeadline(clock.success ? clock.data : {}, startedAt, opts.budgetMs);
    const controller = new AbortController();
    const jobId = job.id ?? '';
    const timer =
      deadlineAt === null
        ? undefined
        : setTimeout(
            () => controller.abort(deadlineError(deadlineAt, startedAt)),
            Math.max(0, deadlineAt - startedAt),
          );
    const onBullAbort = () => controller.abort(cancelledError(String(bullSignal?.reason ?? 'cancelled')));
    if (bullSignal?.aborted) onBullAbort();
    else bullSignal?.addEventListener('abort', onBullAbort, { once: true });
    if (deadlineAt !== null && deadlineAt <= startedAt)
      controller.abort(deadlineError(deadlineAt, startedAt));
    try {
      const marked = cancels ? await cancels.watch(jobId, controller, job.processedOn ?? undefined) : null;
      if (marked) controller.abort(cancelledError(marked));
      // An interactive job whose caller is gone before it starts (deadline passed in the queue, a
      // stalled re-run after it, a cancel that beat it) is not run: these queues keep no state of
      // their own to record a failure in, and the gateway has refunded already.
      if (controller.signal.aborted && isWaitedQueue(name)) throw controller.signal.reason;
      const work = processor(parsed.data as PayloadOf<N>, job, {
        signal: controller.signal,
        deadlineAt,
        confirmLock: lockConfirmer(job, token, opts.lockDurationMs, opts.now),
      });
      const value = await settleWithin(work, controller.signal, graceMs, () =>
        opts.logger?.warn(
          { queue: name, jobId, graceMs },
          'processor did not stop after its abort; job failed, work left to finish in the background',
        ),
      );
      // To the waiting gateway before BullMQ records the job (job-answers.ts).
      if (isWaitedQueue(name)) publishAnswer(connection, prefix, name, jobId, value);
      return value;
    } catch (err) {
      // A processor that moved its job to the delayed set (job.moveToDelayed) must throw
      // DelayedError itself, unwrapped, or BullMQ would count it as a failure.
      if (err instanceof DelayedError) throw err;
      // Another worker runs the job now: nothing of ours may touch it (BullMQ's own move to failed
      // is refused for want of the lock, and logged as a worker error).
      if (isJobLockLost(err)) {
        opts.logger?.warn({ queue: name, jobId }, err.message);
        throw err;
      }
      const se = toServiceError(err);
      // A retried queue's processor that threw a transient error decided to retry before the abort
      // landed (the abort came between its decision and here). Failing the job now would skip the
      // outcome it records on its final attempt; the next attempt starts with the signal already
      // aborted, and the processor records the failure then.
      const processorRetry =
        err !== controller.signal.reason && !isWaitedQueue(name) && (se.retryable || se.code === 'INTERNAL');
      if (controller.signal.aborted && !processorRetry) {
        // Deadline or cancel: retrying cannot help. The processor's own error wins when it is
        // one of ours (a clearer message); otherwise the abort reason says what happened.
        const reason = err instanceof ServiceError ? err : toServiceError(controller.signal.reason);
        throw new UnrecoverableError(encodeError(reason));
      }
      const encoded = encodeError(se);
      // Unknown failures (a DB hiccup, say) get the queue's bounded retries; target errors don't.
      if (!se.retryable && se.code !== 'INTERNAL') throw new UnrecoverableError(encoded);
      await startBudgetClock(
        job,
        opts.budgetMs,
        clock.success ? clock.data.budgetStartedAt : undefined,
        startedAt,
      ).catch((e: unknown) =>
        opts.logger?.warn({ err: e, queue: name, jobId }, 'could not record the budget start'),
      );
      throw new Error(encoded);
    } finally {
      clearTimeout(timer);
      bullSignal?.removeEventListener('abort', onBullAbort);
      cancels?.unwatch(jobId, controller);
    }
  };
  const makeWorker = (): Worker => {
    const w = new Worker(name, run, {
      connection,
      prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs,
      maxStalledCount: 2,
      // BullMQ records it on each job it takes (`processedBy`): which process ran a job.
      name: `${hostname()}:${process.pid}`,
      // Started once the cancel channel is subscribed, so no job runs deaf to its cancel.
      autorun: false,
    } satisfies WorkerOptions);
    // Mostly lost connections while Redis is down: rate-limited like the connection's own errors.
    errors.watch(w, role);
    return w;
  };
  const start = (w: Worker) =>
    w.run().catch((err: unknown) => opts.logger?.error({ err, queue: name }, 'worker stopped'));
  let worker = makeWorker();
  let closed = false;
  const watchdog = new WorkerWatchdog(
    {
      running: () => running,
      lastTakenAt: () => lastTakenAt,
      waiting: async () => {
        // BullMQ scores a delayed job by its due time × 0x1000: those due OVERDUE_MS ago or more.
        const due = (Date.now() - OVERDUE_MS) * 0x1000;
        const [wait, prioritized, overdue] = await Promise.all([
          connection.llen(worker.toKey('wait')),
          connection.zcard(worker.toKey('prioritized')),
          connection.zcount(worker.toKey('delayed'), '-inf', due),
        ]);
        return wait + prioritized + overdue;
      },
      restart: async (waiting) => {
        if (closed) return;
        opts.logger?.warn({ queue: name, waiting }, 'worker took no job while jobs waited: restarted');
        const stuck = worker;
        worker = makeWorker();
        // Not awaited: a stuck worker's close may wait on the very connection that is stuck.
        void stuck.close(true).catch(() => undefined);
        void start(worker);
      },
    },
    opts.watchdogMs ?? WATCHDOG_MS,
  );
  void (cancels?.ready ?? Promise.resolve()).then(
    () => {
      if (closed) return;
      void start(worker);
      watchdog.start();
    },
    (err: unknown) => {
      if (!closed) opts.logger?.error({ err, queue: name }, 'cancel channel subscribe failed');
    },
  );
  return {
    get worker() {
      return worker;
    },
    async close() {
      closed = true;
      watchdog.stop();
      await worker.close();
      cancels?.close();
      connection.disconnect();
    },
  };
}

/**
 * The processor's outcome; once `signal` fires, at most `graceMs` more, then the abort reason. A
 * processor deaf to its signal (a CPU-bound step) must not keep the job, its lock and its slot.
 */
async function settleWithin<R>(
  work: Promise<R>,
  signal: AbortSignal,
  graceMs: number,
  onAbandon: () => void,
): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    const giveUp = () => {
      onAbandon();
      reject(signal.reason);
    };
    onAbort = () => {
      timer = setTimeout(giveUp, graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // A late rejection of abandoned work must not surface as an unhandled rejection.
  work.catch(() => undefined);
  abandoned.catch(() => undefined);
  try {
    return await Promise.race([work, abandoned]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Before a retry: the job's data remembers when its first failed attempt started (job-budget.ts). */
async function startBudgetClock(
  job: Job,
  budgetMs: number | undefined,
  known: number | undefined,
  startedAt: number,
): Promise<void> {
  if (budgetMs === undefined || known !== undefined) return;
  const data: unknown = job.data;
  if (typeof data !== 'object' || data === null) return;
  await job.updateData({ ...data, budgetStartedAt: startedAt });
}

/**
 * What every worker of a service process shares: the Redis target the wiring parsed once
 * (`redisTarget` of @wcs/config) and, as its parsed environment carries them, `baseEnv`'s prefix
 * and `workerEnv`'s lock settings.
 */
export interface WorkerSettings {
  redis: RedisTargetInput;
  QUEUE_PREFIX: string;
  WORKER_LOCK_MS: number;
  WORKER_STALLED_INTERVAL_MS: number;
}

/**
 * `defineWorker` with a process's shared options filled in; a queue may set its own concurrency
 * and its total time budget across attempts (`budgetMs`, see job-budget.ts).
 */
export type QueueWorkerDefiner = <N extends QueueName, R>(
  name: N,
  processor: JobProcessor<N, R>,
  overrides?: { concurrency?: number; budgetMs?: number },
) => DefinedWorker;

/**
 * One service's worker wiring: every worker it defines gets the same Redis target (a worker
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
      redis: env.redis,
      prefix: env.QUEUE_PREFIX,
      concurrency: overrides.concurrency ?? defaults.concurrency,
      lockDurationMs: env.WORKER_LOCK_MS,
      stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
      logger,
      ...(overrides.budgetMs !== undefined ? { budgetMs: overrides.budgetMs } : {}),
    });
}
