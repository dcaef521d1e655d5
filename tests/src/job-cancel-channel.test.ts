/**
 * The cancellation channel and the job clock of @wcs/queues, against the real Redis: a cancel from
 * another process (a QueueProducer) removes a queued job or aborts the running one on whichever
 * worker holds it; a cancel sent before the worker took the job still reaches it (marker key);
 * deadlines and shared retry budgets abort the job's signal and are never retried; a processor
 * deaf to its signal loses the job after the grace period.
 */
import { randomUUID } from 'node:crypto';
import { decodeError } from '@wcs/errors';
import {
  type DefinedWorker,
  defineWorker,
  type Job,
  type JobContext,
  type JobProcessor,
  publishCancel,
  type QueueName,
  QueueProducer,
} from '@wcs/queues';
import { pollUntil, TEST_REDIS_URL } from './harness';

const prefix = () => `t-${randomUUID().slice(0, 8)}`;

interface Seen {
  starts: number;
  ctx: JobContext[];
  abortedAfterMs: number[];
}

/** A `scrape` job's payload (the queues the gateway waits for are the ones it cancels). */
const scrapePayload = (requestId: string) => ({
  requestId,
  accountId: 'a',
  url: 'https://example.com/',
  format: 'markdown' as const,
  onlyMainContent: true,
  timeoutMs: 60_000,
});

/** A processor that waits for its signal (like a render of a page that never ends). */
function hangUntilAborted<N extends QueueName>(seen: Seen): JobProcessor<N, string> {
  return (_p, _job, ctx) => {
    seen.starts += 1;
    seen.ctx.push(ctx);
    const started = Date.now();
    return new Promise((_, reject) => {
      const stop = () => {
        seen.abortedAfterMs.push(Date.now() - started);
        reject(ctx.signal.reason);
      };
      if (ctx.signal.aborted) stop();
      else ctx.signal.addEventListener('abort', stop, { once: true });
    });
  };
}

function worker<N extends QueueName>(
  name: N,
  p: string,
  processor: JobProcessor<N, unknown>,
  extra: { budgetMs?: number; abortGraceMs?: number } = {},
): DefinedWorker {
  return defineWorker(name, processor, {
    redis: TEST_REDIS_URL,
    prefix: p,
    concurrency: 1,
    lockDurationMs: 10_000,
    stalledIntervalMs: 5_000,
    ...extra,
  });
}

async function failedReason(
  producer: QueueProducer,
  job: Job,
): Promise<{ code: string; message: string; attemptsMade: number }> {
  return pollUntil(async () => {
    const queue = producer.queue(job.queueName as QueueName);
    // State first, then the record: a record read before the failure has no failedReason yet.
    if ((await queue.getJobState(job.id ?? '')) !== 'failed') return undefined;
    const fresh = await queue.getJob(job.id ?? '');
    if (!fresh) return undefined;
    const err = decodeError(fresh.failedReason);
    return { code: err.code, message: err.message, attemptsMade: fresh.attemptsMade };
  }, 30_000); // a safety net: the failure is an event
}

describe('job cancellation across processes', () => {
  let producer: QueueProducer;
  let p: string;
  const workers: DefinedWorker[] = [];

  beforeEach(() => {
    p = prefix();
    producer = new QueueProducer(TEST_REDIS_URL, p);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
    await producer.close();
  });

  it('aborts the running job on the worker that holds it, and does not retry it', async () => {
    const seen: Seen = { starts: 0, ctx: [], abortedAfterMs: [] };
    // Two replicas: only the one holding the job has it to abort.
    workers.push(worker('scrape', p, hangUntilAborted(seen)));
    workers.push(worker('scrape', p, hangUntilAborted(seen)));
    // Three attempts allowed, so "one attempt only" below shows the cancel is final.
    const job = await producer.enqueue('scrape', scrapePayload('i1'), { jobId: 'i1', attempts: 3 });
    await pollUntil(async () => (seen.starts === 1 ? true : undefined), 10_000, 20);
    const sent = Date.now();
    await expect(producer.cancel('scrape', 'i1', 'disconnect')).resolves.toBe('signalled');
    const failed = await failedReason(producer, job);
    const releasedMs = Date.now() - sent;
    // Released by the cancel (the reason says so): the job has no deadline of its own to end it.
    expect(failed.code).toBe('TIMEOUT');
    expect(failed.message).toMatch(/cancelled: the client disconnected/);
    expect(failed.attemptsMade).toBe(1);
    expect(seen.starts).toBe(1);
    console.log(`cancel → job failed (released) in ${releasedMs} ms`);
  });

  it("BullMQ's own worker.cancelJob reaches the processor's signal the same way (any queue)", async () => {
    const seen: Seen = { starts: 0, ctx: [], abortedAfterMs: [] };
    const w = worker('scrape-batch', p, hangUntilAborted(seen));
    workers.push(w);
    const job = await producer.enqueue('scrape-batch', { batchId: 'b', itemId: 'c1' }, { jobId: 'c1' });
    await pollUntil(async () => (seen.starts === 1 ? true : undefined), 10_000, 20);
    expect(w.worker.cancelJob('c1', 'operator request')).toBe(true);
    const failed = await failedReason(producer, job);
    expect(failed).toMatchObject({ code: 'TIMEOUT', attemptsMade: 1 });
    expect(failed.message).toMatch(/cancelled: operator request/);
  });

  it('removes a job still waiting in the queue: no worker ever starts it', async () => {
    const job = await producer.enqueue('scrape', scrapePayload('i2'), { jobId: 'i2' });
    await expect(producer.cancel('scrape', 'i2', 'timeout')).resolves.toBe('removed');
    expect(await job.getState()).toBe('unknown');
  });

  it('reaches a job taken after the cancel was published (the marker key): it never runs', async () => {
    await producer.enqueue('scrape', scrapePayload('i3'), { jobId: 'i3' });
    // Only the message and the marker (no removal): as when a worker takes the job in between.
    await publishCancel(producer.connection, p, 'scrape', { jobId: 'i3', reason: 'timeout' });
    const seen: Seen = { starts: 0, ctx: [], abortedAfterMs: [] };
    workers.push(worker('scrape', p, hangUntilAborted(seen)));
    const job = await producer.queue('scrape').getJob('i3');
    if (!job) throw new Error('job vanished');
    const failed = await failedReason(producer, job);
    expect(failed.message).toMatch(/cancelled: the caller stopped waiting/);
    expect(seen.starts).toBe(0);
  });

  it('workers of queues nobody cancels hold no cancel subscription; waited queues do', async () => {
    const seen: Seen = { starts: 0, ctx: [], abortedAfterMs: [] };
    let ran = 0;
    const batchWorker = worker('scrape-batch', p, async () => {
      ran += 1;
      return 'done';
    });
    const scrapeWorker = worker('scrape', p, hangUntilAborted(seen));
    workers.push(batchWorker, scrapeWorker);
    const subscribers = async (queue: QueueName) => {
      const reply = (await producer.connection.pubsub('NUMSUB', `${p}:${queue}:cancel`)) as [string, number];
      return Number(reply[1]);
    };
    await pollUntil(async () => ((await subscribers('scrape')) === 1 ? true : undefined), 10_000, 20);
    expect(await subscribers('scrape-batch')).toBe(0);
    // And the batch worker still runs its jobs.
    const job = await producer.enqueue('scrape-batch', { batchId: 'b', itemId: 'n1' }, { jobId: 'n1' });
    await pollUntil(async () => ((await job.getState()) === 'completed' ? true : undefined), 10_000, 20);
    expect(ran).toBe(1);
  });

  it('waitFor cancels the job when the wait times out or the caller goes away', async () => {
    const seen: Seen = { starts: 0, ctx: [], abortedAfterMs: [] };
    const hang: JobProcessor<'scrape', never> = (_p, _j, ctx) => {
      seen.starts += 1;
      return new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
      );
    };
    workers.push(worker('scrape', p, hang));
    const a = await producer.enqueue('scrape', scrapePayload('w1'), { jobId: 'w1' });
    await expect(producer.waitFor('scrape', a, 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect((await failedReason(producer, a)).message).toMatch(/cancelled: the caller stopped waiting/);

    const b = await producer.enqueue('scrape', scrapePayload('w2'), { jobId: 'w2' });
    await pollUntil(async () => (seen.starts === 2 ? true : undefined), 10_000, 20);
    const gone = new AbortController();
    const waiting = producer.waitFor('scrape', b, 30_000, { signal: gone.signal });
    gone.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect((await failedReason(producer, b)).message).toMatch(/cancelled: the client disconnected/);
  });
  it('a producer that closes (gateway shutdown) cancels the jobs it still waits for', async () => {
    const hang: JobProcessor<'scrape', never> = (_p, _j, ctx) =>
      new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
    workers.push(worker('scrape', p, hang));
    const gateway = new QueueProducer(TEST_REDIS_URL, p);
    const job = await gateway.enqueue('scrape', scrapePayload('s1'), { jobId: 's1' });
    await pollUntil(async () => ((await job.getState()) === 'active' ? true : undefined), 10_000, 20);
    const waiting = gateway.waitFor('scrape', job, 60_000).catch((e: unknown) => e);
    await gateway.close();
    await expect(waiting).resolves.toMatchObject({ code: 'UNAVAILABLE' });
    expect((await failedReason(producer, job)).message).toMatch(/cancelled: the gateway shut down/);
  });
});

describe('job deadlines and budgets', () => {
  let producer: QueueProducer;
  let p: string;
  const workers: DefinedWorker[] = [];

  beforeEach(() => {
    p = prefix();
    producer = new QueueProducer(TEST_REDIS_URL, p);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
    await producer.close();
  });

  it("aborts at the payload's deadlineAt, whatever the job's own timeout", async () => {
    let reason: unknown;
    const hang: JobProcessor<'map', never> = (_p, _j, ctx) =>
      new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          reject(ctx.signal.reason);
        }),
      );
    workers.push(worker('map', p, hang));
    const deadlineAt = Date.now() + 800;
    const job = await producer.enqueue(
      'map',
      {
        requestId: 'm',
        accountId: 'a',
        url: 'https://example.com/',
        maxUrls: 5,
        timeoutMs: 60_000,
        deadlineAt,
      },
      { jobId: 'm' },
    );
    const failed = await failedReason(producer, job);
    expect(failed.code).toBe('TIMEOUT');
    expect(failed.message).toMatch(/time budget/); // its deadline ended it, not the 60 s timeout
    expect(reason).toMatchObject({ code: 'TIMEOUT', retryable: false });
  });

  it('fails an interactive job whose deadline passed while it was queued without running it', async () => {
    let runs = 0;
    workers.push(
      worker('map', p, async () => {
        runs += 1;
        return { links: [], total: 0 };
      }),
    );
    const job = await producer.enqueue(
      'map',
      {
        requestId: 'late',
        accountId: 'a',
        url: 'https://example.com/',
        maxUrls: 5,
        timeoutMs: 60_000,
        deadlineAt: Date.now() - 1,
      },
      { jobId: 'late' },
    );
    const failed = await failedReason(producer, job);
    expect(failed).toMatchObject({ code: 'TIMEOUT', attemptsMade: 1 });
    expect(runs).toBe(0);
  });

  it('shares one budget across retries: the second attempt keeps the first one’s deadline', async () => {
    const seen: Array<{ attempt: number; deadlineAt: number | null; startedAt: number }> = [];
    const flaky: JobProcessor<'scrape-batch', string> = async (_p, job, ctx) => {
      seen.push({ attempt: job.attemptsMade + 1, deadlineAt: ctx.deadlineAt, startedAt: Date.now() });
      if (seen.length === 1) throw new Error('transient'); // INTERNAL: retried by the queue
      return new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
      );
    };
    workers.push(worker('scrape-batch', p, flaky, { budgetMs: 2_500 }));
    const enqueuedAt = Date.now();
    const job = await producer.enqueue('scrape-batch', { batchId: 'b', itemId: 'r1' }, { jobId: 'r1' });
    const failed = await failedReason(producer, job);
    expect(seen.map((s) => s.attempt)).toEqual([1, 2]);
    const [first, second] = seen;
    // Same deadline for both attempts: first start + budget (the first start falls between the
    // enqueue and the processor's first call).
    expect(second?.deadlineAt).toBe(first?.deadlineAt);
    expect(first?.deadlineAt).toBeGreaterThanOrEqual(enqueuedAt + 2_500);
    expect(first?.deadlineAt).toBeLessThanOrEqual((first?.startedAt ?? 0) + 2_500);
    expect(failed.code).toBe('TIMEOUT');
    expect(failed.attemptsMade).toBe(2);
  });

  it('fails the job after the grace period when its processor ignores the signal', async () => {
    let finishedLate = false;
    let finish: () => void = () => undefined;
    // Deaf, and it only ends when the test lets it: the failure cannot come from its own end.
    const deaf: JobProcessor<'scrape-batch', string> = () =>
      new Promise((resolve) => {
        finish = () => {
          finishedLate = true;
          resolve('late');
        };
      });
    workers.push(worker('scrape-batch', p, deaf, { budgetMs: 300, abortGraceMs: 300 }));
    const job = await producer.enqueue('scrape-batch', { batchId: 'b', itemId: 'd1' }, { jobId: 'd1' });
    const failed = await failedReason(producer, job);
    expect(failed.code).toBe('TIMEOUT');
    expect(failed.attemptsMade).toBe(1);
    expect(finishedLate).toBe(false);
    // The abandoned work still ends later, without an unhandled rejection or a crash.
    finish();
    expect(finishedLate).toBe(true);
    await expect(producer.queue('scrape-batch').getJobState('d1')).resolves.toBe('failed');
  });
});
