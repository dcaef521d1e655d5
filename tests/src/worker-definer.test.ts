import { randomUUID } from 'node:crypto';
import { QueueProducer, waitForJob, workerDefiner } from '@wcs/queues';
import { TEST_REDIS_URL } from './harness';

/** workerDefiner: one service's shared worker options, a queue's own concurrency. */
describe('workerDefiner', () => {
  const env = {
    REDIS_URL: TEST_REDIS_URL,
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
    const producer = new QueueProducer(env.REDIS_URL, env.QUEUE_PREFIX);
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
      await expect(waitForJob(job, producer.queueEvents('map'), 10_000)).resolves.toEqual({
        links: ['https://example.com/'],
        total: 1,
      });
    } finally {
      await Promise.all([map.close(), crawl.close()]);
      await producer.close();
    }
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });
});
