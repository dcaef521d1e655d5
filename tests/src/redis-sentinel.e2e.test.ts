/**
 * The services on Redis Sentinel (REDIS_SENTINELS): every Redis user works through the master
 * Sentinel names, keeps working across a failover (the cancel channel re-subscribed on the new
 * master), and a stack with a batch and a crawl in flight loses and double-bills nothing.
 * One Sentinel set (redis-ha-servers.ts) serves the whole file, on ports 7100-7104.
 */
import type { RedisTarget } from '@wcs/config';
import { QueueProducer } from '@wcs/queues';
import { type FixtureSite, startFixtureSite, treeSize } from '@wcs/testing';
import {
  checkCancel,
  checkQueueRoundTrip,
  checkScripts,
  hangUntilAborted,
  targetFromEnv,
  testPrefix,
  worker,
} from './redis-ha-checks';
import { type SentinelSet, startSentinelSet } from './redis-ha-servers';
import { batchAndCrawlThroughFailover, LOSSY_FAILOVER_ENV } from './redis-ha-stack';

const BASE_PORT = 7100;
/** Not where the master is: behind Sentinel only REDIS_URL's credentials and db count. */
const REDIS_URL = 'redis://127.0.0.1:1/0';

let set: SentinelSet;
let target: RedisTarget;
let site: FixtureSite;
beforeAll(async () => {
  set = await startSentinelSet(BASE_PORT);
  target = targetFromEnv({ REDIS_URL, REDIS_SENTINELS: set.sentinelsEnv });
  site = await startFixtureSite({ pages: 30, tree: { branching: 4, depth: 2 }, sitemapPaths: [] });
}, 120_000);
afterAll(async () => {
  await site?.close();
  await set?.stop();
});

describe('Redis users on Sentinel', () => {
  it('parses REDIS_SENTINELS into a sentinel target (name defaults to mymaster)', () => {
    expect(target).toMatchObject({ kind: 'sentinel', name: 'mymaster', sentinels: set.sentinels });
  });

  it('queues: a job added, run by a worker, its result read through QueueEvents', async () => {
    await checkQueueRoundTrip(target, testPrefix(target));
  });

  it('scripts and pipelines: host slots, search marks, job secrets', async () => {
    await checkScripts(target, testPrefix(target));
  });

  it('a cancel reaches the worker before and after a failover (its channel re-subscribed)', async () => {
    const prefix = testPrefix(target);
    const producer = new QueueProducer(target, prefix);
    const started: string[] = [];
    const w = worker(target, 'scrape', prefix, hangUntilAborted(started));
    try {
      await checkCancel(producer, started, 'before');
      const t0 = Date.now();
      const { from, to } = await set.failover();
      expect(await set.masterPort()).toBe(to);
      expect(to).not.toBe(from);
      await checkCancel(producer, started, 'after');
      console.log(`sentinel: cancel delivered again ${Date.now() - t0} ms after the failover started`);
      await checkQueueRoundTrip(target, prefix);
    } finally {
      await w.close();
      await producer.close();
    }
  }, 120_000);
});

describe('the stack on Sentinel', () => {
  it('a batch and a crawl in flight survive a master failover: all terminal, nothing lost, billed once', async () => {
    // The set is ready for another failover (the earlier one's demoted master re-synced), so the
    // time measured below is the switch's own.
    await set.settled();
    const run = await batchAndCrawlThroughFailover(
      site,
      treeSize(4, 2),
      { REDIS_URL, REDIS_SENTINELS: set.sentinelsEnv },
      () => set.failover(),
    );
    console.log(`sentinel failover: switch ${run.failoverMs} ms, first progress after ${run.recoverMs} ms`);
  }, 300_000);

  it('the same through the master killed (an unplanned failover): all terminal, nothing lost, billed once', async () => {
    await set.settled();
    const run = await batchAndCrawlThroughFailover(
      site,
      treeSize(4, 2),
      { REDIS_URL, REDIS_SENTINELS: set.sentinelsEnv, ...LOSSY_FAILOVER_ENV },
      () => set.killMaster(),
    );
    console.log(
      `sentinel master killed: promoted after ${run.failoverMs} ms, first progress after ${run.recoverMs} ms`,
    );
  }, 300_000);
});
