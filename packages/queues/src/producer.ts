import { ServiceUnavailableError } from '@wcs/errors';
import { Job, type JobsOptions, Queue, QueueEvents } from 'bullmq';
import {
  isWaitedQueue,
  jobResults,
  type PayloadInputOf,
  type PayloadOf,
  type QueueName,
  queueCatalog,
  type ResultOf,
  type WaitedQueue,
} from './catalog';
import { createRedisConnection, keyPrefixOn, type RedisClient, type RedisTargetInput } from './connection';
import { AnswerSubscriber } from './job-answers';
import { type CancelReason, publishCancel } from './job-cancel';
import { RedisErrorLog, type RedisErrorLogger } from './redis-errors';
import { type JobWaitSource, QUEUE_CLOSED_MESSAGE, waitForJob } from './wait';

/** What became of a cancel: removed before any worker took it, or sent to the worker running it. */
export type CancelOutcome = 'removed' | 'signalled' | 'failed';

/** Typed, validated enqueue for every queue of the catalog; one shared fail-fast connection. */
export class QueueProducer {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly events = new Map<QueueName, QueueEvents>();
  private readonly eventConnections: RedisClient[] = [];
  readonly connection: RedisClient;
  /** The key prefix in use: QUEUE_PREFIX, hash-tagged on a cluster (queueKeyPrefix). */
  readonly prefix: string;
  private readonly errors: RedisErrorLog;
  /** Jobs someone is waiting on (queue + id), cancelled at close when their wait is cut. */
  private readonly waited = new Map<string, { name: WaitedQueue; jobId: string }>();
  private readonly logger: RedisErrorLogger | undefined;
  private answerSubscriber: AnswerSubscriber | undefined;

  constructor(
    private readonly redis: RedisTargetInput,
    prefix: string,
    /** Where Redis errors go (rate-limited, see RedisErrorLog); without a logger they are dropped. */
    opts: { logger?: RedisErrorLogger; errorLogIntervalMs?: number } = {},
  ) {
    this.logger = opts.logger;
    this.prefix = keyPrefixOn(redis, prefix);
    this.errors = new RedisErrorLog(opts.logger, { intervalMs: opts.errorLogIntervalMs });
    this.connection = createRedisConnection(redis, 'producer');
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

  /** Where `waitForJob` hears and looks up the end of this queue's jobs. */
  waitSource(name: QueueName): JobWaitSource {
    const events = this.queueEvents(name);
    const queue = this.queue(name);
    return isWaitedQueue(name)
      ? { events, queue, answers: this.answers().of(name).emitter }
      : { events, queue };
  }

  /** The answers workers push for the waited queues (job-answers.ts): one connection, made once. */
  private answers(): AnswerSubscriber {
    if (!this.answerSubscriber) {
      const connection = createRedisConnection(this.redis, 'worker');
      this.errors.watch(connection, 'answers');
      this.eventConnections.push(connection);
      this.answerSubscriber = new AnswerSubscriber(connection, this.prefix, (raw) =>
        this.logger?.error({ raw: raw.slice(0, 200) }, 'malformed job answer message'),
      );
    }
    return this.answerSubscriber;
  }

  /** QueueEvents needs its own blocking connection (it uses XREAD BLOCK). */
  queueEvents(name: QueueName): QueueEvents {
    let e = this.events.get(name);
    if (!e) {
      const connection = createRedisConnection(this.redis, 'worker');
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

  /**
   * `enqueue`, held back from the workers until `release` (a BullMQ delayed job): the caller adds the
   * job while it does what the job must wait for (the gateway's charge), two round trips at once
   * instead of one after the other. A job neither released nor discarded (its caller died) surfaces
   * after `holdMs`: give it a `deadlineAt` before that, and the worker it reaches runs nothing
   * (worker.ts: an interactive job past its deadline is not run).
   */
  stage<N extends QueueName>(
    name: N,
    payload: PayloadInputOf<N>,
    opts: { jobId: string; holdMs: number },
  ): Promise<Job> {
    return this.enqueue(name, payload, { jobId: opts.jobId, delay: opts.holdMs });
  }

  /** A staged job goes to the workers (ServiceUnavailableError when Redis cannot take it). */
  async release(job: Job): Promise<void> {
    try {
      await job.promote();
    } catch (err) {
      throw new ServiceUnavailableError('Job queue is unavailable; retry shortly', { cause: err });
    }
  }

  /**
   * A staged job that must not run (its charge was refused) is removed. Best effort, never throws:
   * one that stays surfaces past its deadline and is not run.
   */
  async discard(name: QueueName, jobId: string): Promise<void> {
    await this.queue(name)
      .remove(jobId)
      .catch(() => undefined);
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

  /**
   * Stop a job someone no longer waits for: remove it if no worker took it yet, and tell every
   * worker of the queue (job-cancel.ts) so the one running it aborts. Best effort, never throws:
   * the job's deadline (job-budget.ts) stops it anyway when Redis cannot carry the cancel.
   */
  async cancel(name: WaitedQueue, jobId: string, reason: CancelReason): Promise<CancelOutcome> {
    try {
      // Removal first: once a job is finished the message is moot, and removing the record of a
      // job that a just-sent cancel made fail would hide why it failed. 0 = a worker holds it.
      if ((await this.queue(name).remove(jobId)) === 1) return 'removed';
      await publishCancel(this.connection, this.prefix, name, { jobId, reason });
      return 'signalled';
    } catch (err) {
      this.logger?.error({ err: String(err), queue: name, jobId }, 'job cancel could not be sent');
      return 'failed';
    }
  }

  /**
   * `waitForJob` for a catalog queue with its result schema, plus cancellation: when the wait gives
   * up (timeout, `signal` = the client went away, this producer closing) the job is cancelled
   * before the error reaches the caller, so no worker keeps working for nobody.
   */
  async waitFor<N extends WaitedQueue>(
    name: N,
    job: Job,
    timeoutMs: number,
    opts: { signal?: AbortSignal; refused?: AbortSignal; release?: () => Promise<void> } = {},
  ): Promise<ResultOf<N>> {
    const jobId = job.id ?? '';
    const key = `${name}:${jobId}`;
    this.waited.set(key, { name, jobId });
    let stopped: CancelReason | undefined;
    try {
      // (Indexing the catalog by a generic N loses the schema's output type; the parse gave it.)
      return (await waitForJob(job, this.waitSource(name), timeoutMs, jobResults[name], {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.refused ? { refused: opts.refused } : {}),
        ...(opts.release ? { release: opts.release } : {}),
        onStop: (why) => {
          stopped = why;
        },
      })) as ResultOf<N>;
    } finally {
      // Deleted first: a close() running meanwhile does not cancel the same job twice.
      const stillTracked = this.waited.delete(key);
      if (stopped && stillTracked) await this.cancel(name, jobId, stopped);
    }
  }

  /**
   * `enqueue` and `waitFor` in one, listening for the job's end before it is added: a job that ends
   * at once (a cached page) needs no look-up of an end the wait might have missed. `onAdded` is
   * told when the job went to the workers.
   */
  addAndWait<N extends WaitedQueue>(
    name: N,
    payload: PayloadInputOf<N>,
    opts: {
      jobId: string;
      timeoutMs: number;
      signal?: AbortSignal;
      refused?: AbortSignal;
      onAdded?: () => void;
    },
  ): Promise<ResultOf<N>> {
    // The wait needs only the job's id and names; the job itself is added by `release`.
    const job = new Job(this.queue(name), name, {}, {}, opts.jobId);
    return this.waitFor(name, job, opts.timeoutMs, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.refused ? { refused: opts.refused } : {}),
      release: async () => {
        await this.enqueue(name, payload, { jobId: opts.jobId });
        opts.onAdded?.();
      },
    });
  }

  async close(): Promise<void> {
    // Cancel what is still waited for while the connection is up (the gateway drains first, so
    // these are requests cut at its deadline); their waits then fail below, and nothing cancels twice.
    const cut = [...this.waited.values()];
    this.waited.clear();
    await Promise.allSettled(cut.map((w) => this.cancel(w.name, w.jobId, 'shutdown')));
    // Release every wait still pending (waitForJob listens for 'closing' on the job's queue,
    // which BullMQ itself no longer emits): each waiter fails at once instead of holding its timer —
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
