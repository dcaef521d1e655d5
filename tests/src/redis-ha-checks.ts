/**
 * What every Redis user of the services must do on a Sentinel set and on a Redis Cluster (the
 * tests in redis-sentinel.e2e.test.ts and redis-cluster.e2e.test.ts run them on each): queues,
 * workers and QueueEvents, the cancel channel between processes, the crawl politeness scripts,
 * search-index marks, job secrets and the rate limiter's counter. Connections are made from a
 * parsed RedisTarget, as the services make theirs.
 */
import { randomUUID } from 'node:crypto';
import { loadEnv, queueKeyPrefix, type RedisTarget, redisHaEnv, redisTarget } from '@wcs/config';
import { HostSlots } from '@wcs/crawl-worker';
import {
  createRedisConnection,
  type DefinedWorker,
  defineWorker,
  type JobProcessor,
  JobSecrets,
  type QueueName,
  QueueProducer,
  SearchIndexMarks,
  waitForJob,
} from '@wcs/queues';
import { z } from 'zod';
import { pollUntil } from './harness';

export function targetFromEnv(env: Record<string, string>): RedisTarget {
  return redisTarget(
    loadEnv(redisHaEnv.extend({ REDIS_URL: z.string().default('redis://127.0.0.1:6379') }), env),
  );
}

export const testPrefix = (target: RedisTarget) => queueKeyPrefix(target, `t-${randomUUID().slice(0, 8)}`);

export const scrapePayload = (requestId: string) => ({
  requestId,
  accountId: 'a',
  url: 'https://example.com/',
  format: 'markdown' as const,
  onlyMainContent: true,
  timeoutMs: 60_000,
  // A job nobody cancels still ends (its own deadline), so a worker's close never waits on it.
  deadlineAt: Date.now() + 45_000,
});

export function worker<N extends QueueName>(
  target: RedisTarget,
  name: N,
  prefix: string,
  processor: JobProcessor<N, unknown>,
): DefinedWorker {
  return defineWorker(name, processor, {
    redis: target,
    prefix,
    concurrency: 2,
    lockDurationMs: 10_000,
    stalledIntervalMs: 5_000,
  });
}

/** A processor that ends only when its signal fires (a render that never finishes). */
export function hangUntilAborted<N extends QueueName>(started: string[]): JobProcessor<N, string> {
  return (_p, job, ctx) =>
    new Promise((_, reject) => {
      started.push(job.id ?? '');
      if (ctx.signal.aborted) reject(ctx.signal.reason);
      else ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
    });
}

/** A job added by one connection, run by a worker, its result read back through QueueEvents. */
export async function checkQueueRoundTrip(target: RedisTarget, prefix: string): Promise<void> {
  const producer = new QueueProducer(target, prefix);
  const w = worker(target, 'map', prefix, async (p) => ({ links: [p.url], total: 1 }));
  try {
    const job = await producer.enqueue('map', {
      requestId: 'r1',
      accountId: 'a',
      url: 'https://example.com/a',
      maxUrls: 10,
      timeoutMs: 30_000,
    });
    const result = await waitForJob(job, producer.waitSource('map'), 30_000);
    expect(result).toMatchObject({ links: ['https://example.com/a'], total: 1 });
  } finally {
    await w.close();
    await producer.close();
  }
}

/** The multi-key scripts and pipelines: politeness slots, search marks, secrets. */
export async function checkScripts(target: RedisTarget, prefix: string): Promise<void> {
  const redis = createRedisConnection(target, 'worker');
  try {
    const slots = new HostSlots(redis, prefix, 1);
    const req = (pageId: string) => ({ host: 'h.test', crawlId: 'c', pageId, delayMs: 0, holdMs: 5_000 });
    expect(await slots.acquire(req('p1'))).toBe(0);
    // The one slot of the host is held: a second page is refused (bounced, > 0) by the script.
    expect(await slots.acquire(req('p2'))).not.toBe(0);
    await slots.release('h.test', 'p1');
    expect(await slots.acquire(req('p3'))).toBe(0);
    await slots.release('h.test', 'p3');
    await slots.beforeRequest('c', 'h.test', 1);

    const marks = new SearchIndexMarks(redis, prefix, { pollMs: 10 });
    const mark = await marks.add('acct-1');
    const other = await marks.add('acct-2');
    expect(await marks.settled('acct-1', 0)).toBe(false);
    await marks.remove([mark, other]);
    expect(await marks.settled('acct-1', 0)).toBe(true);

    const secrets = new JobSecrets(redis, prefix);
    const sealed = await secrets.seal('req-1', { headers: { 'x-a': 'b' } }, 60_000);
    expect(await secrets.open(sealed)).toEqual({ headers: { 'x-a': 'b' } });
    await secrets.drop('req-1');
    await expect(secrets.open(sealed)).rejects.toThrow(/expired/);
  } finally {
    redis.disconnect();
  }
}

/** A cancel from the producer's connection reaches the worker (another connection, maybe another node). */
export async function checkCancel(producer: QueueProducer, started: string[], jobId: string): Promise<void> {
  await producer.enqueue('scrape', scrapePayload(jobId), { jobId });
  await pollUntil(async () => (started.includes(jobId) ? true : undefined), 30_000, 20);
  // The producer fails fast while it reconnects (a cancel then says 'failed'; the job's deadline
  // would end it): after a failover, wait for its connection to the new master first.
  await pollUntil(async () => (producer.connection.status === 'ready' ? true : undefined), 30_000, 20);
  expect(await producer.cancel('scrape', jobId, 'disconnect')).toBe('signalled');
  const queue = producer.queue('scrape');
  const reason = await pollUntil(
    async () => {
      if ((await queue.getJobState(jobId)) !== 'failed') return undefined;
      return (await queue.getJob(jobId))?.failedReason;
    },
    30_000,
    20,
  );
  expect(reason).toMatch(/cancelled/);
}
