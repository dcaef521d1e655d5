import { randomUUID } from 'node:crypto';
import { TargetUnreachableError } from '@wcs/errors';
import { type JobContext, QueueProducer, waitForJob, workerDefiner } from '@wcs/queues';
import { pollUntil, TEST_REDIS_URL } from './harness';

/** workerDefiner: one service's shared worker options, a queue's own concurrency. */
describe('workerDefiner', () => {
  const env = {
    redis: TEST_REDIS_URL,
    QUEUE_PREFIX: `t-${randomUUID().slice(0, 8)}`,
    WORKER_LOCK_MS: 12_000,
    WORKER_STALLED_INTERVAL_MS: 6_000,
  };
  const lines: string[] = [];
  const logger = {
    error: (_o: object, m?: string) => lines.push(`error ${m}`),
    warn: (_o: object, m?: string) => lines.push(`warn ${m}`),
    info: (_o: object, m?: string) => lines.push(`info ${m}`),
  };

  it('gives every worker the same prefix, lock and stall settings; concurrency per process or per queue', async () => {
    const define = workerDefiner(env, logger, { concurrency: 3 });
    const map = define('map', async (p) => ({ links: [p.url], total: 1 }));
    const crawl = define('crawl', async () => undefined, { concurrency: 1 });
    const producer = new QueueProducer(env.redis, env.QUEUE_PREFIX);
    try {
      for (const w of [map, crawl]) {
        expect(w.worker.opts).toMatchObject({
          prefix: env.QUEUE_PREFIX,
          lockDuration: 12_000,
          stalledInterval: 6_000,
          maxStalledCount: 2,
        });
      }
      expect(map.worker.opts.concurrency).toBe(3);
      expect(crawl.worker.opts.concurrency).toBe(1);
      // The worker really consumes its queue under the shared prefix.
      const requestId = randomUUID();
      const job = await producer.enqueue(
        'map',
        { requestId, accountId: 'a', url: 'https://example.com/', maxUrls: 10, timeoutMs: 5_000 },
        { jobId: requestId },
      );
      await expect(waitForJob(job, producer.waitSource('map'), 10_000)).resolves.toEqual({
        links: ['https://example.com/'],
        total: 1,
      });
    } finally {
      await Promise.all([map.close(), crawl.close()]);
      await producer.close();
    }
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('a retried job whose processor decided to retry just before its budget fired gets the next attempt, which records the outcome', async () => {
    const define = workerDefiner(env, logger, { concurrency: 1 });
    const seen: Array<{ attempt: number; abortedAtStart: boolean; code?: string }> = [];
    const worker = define(
      'scrape-batch',
      async (_p, job, ctx?: JobContext) => {
        const attempt = job.attemptsMade + 1;
        if (!ctx) throw new Error('no job context');
        seen.push({ attempt, abortedAtStart: ctx.signal.aborted });
        if (ctx.signal.aborted) {
          // What the batch and crawl processors do: record the deadline as the outcome.
          seen[seen.length - 1]!.code = (ctx.signal.reason as { code?: string }).code;
          return { itemId: 'i', status: 'failed' as const };
        }
        // Attempt 1 decides to retry (a transient error) at the very moment the budget fires.
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        throw new TargetUnreachableError('connection reset');
      },
      { budgetMs: 300 },
    );
    const producer = new QueueProducer(env.redis, env.QUEUE_PREFIX);
    try {
      await producer.enqueue(
        'scrape-batch',
        { batchId: 'b', itemId: 'i' },
        { jobId: randomUUID(), backoff: 0 },
      );
      const final = await pollUntil(async () => seen.find((s) => s.attempt === 2), 15_000, 50);
      expect(seen[0]).toEqual({ attempt: 1, abortedAtStart: false });
      // Before: attempt 1 failed the job unrecoverably and nothing recorded the failure.
      expect(final).toEqual({ attempt: 2, abortedAtStart: true, code: 'TIMEOUT' });
    } finally {
      await worker.close();
      await producer.close();
    }
  });
});
