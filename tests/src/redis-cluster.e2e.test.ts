/**
 * The services on Redis Cluster (REDIS_CLUSTER_NODES): the key prefix carries a hash tag, so
 * BullMQ's scripts, the crawl politeness script and every MULTI/pipeline stay in one slot; every
 * Redis user works across a primary's failover, and a stack with a batch and a crawl in flight
 * loses and double-bills nothing. One cluster (three primaries, three replicas) serves the whole
 * file, on ports 7120-7125 (bus ports 17120-17125). A primary SIGKILLed under the stack is the
 * Cluster row of `pnpm test:hosts` (tests/hosts), the last pass of scripts/test.sh.
 */
import { randomUUID } from 'node:crypto';
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
import { type ClusterSet, startCluster } from './redis-ha-servers';
import { batchAndCrawlThroughFailover } from './redis-ha-stack';

const BASE_PORT = 7120;
/** Not a cluster node: with REDIS_CLUSTER_NODES only REDIS_URL's credentials and TLS count. */
const REDIS_URL = 'redis://127.0.0.1:1';

let cluster: ClusterSet;
let target: RedisTarget;
let site: FixtureSite;
beforeAll(async () => {
  cluster = await startCluster(BASE_PORT);
  target = targetFromEnv({ REDIS_URL, REDIS_CLUSTER_NODES: cluster.nodesEnv });
  site = await startFixtureSite({ pages: 30, tree: { branching: 4, depth: 2 }, sitemapPaths: [] });
}, 120_000);
afterAll(async () => {
  await site?.close();
  await cluster?.stop();
});

describe('Redis users on a cluster', () => {
  it('parses REDIS_CLUSTER_NODES into a cluster target; the prefix gets a hash tag', () => {
    expect(target).toMatchObject({ kind: 'cluster', nodes: cluster.nodes });
    expect(testPrefix(target)).toMatch(/^\{t-[0-9a-f]{8}\}$/);
  });

  it('queues: a job added, run by a worker, its result read through QueueEvents', async () => {
    await checkQueueRoundTrip(target, testPrefix(target));
  });

  it('scripts and pipelines: host slots, search marks of two accounts, job secrets', async () => {
    await checkScripts(target, testPrefix(target));
  });

  it('without the hash tag a multi-key script is refused (CROSSSLOT): the tag is what makes it work', async () => {
    const producer = new QueueProducer(target, 'plain');
    // The producer tags the prefix itself: the one it uses is `{plain}`.
    expect(producer.prefix).toBe('{plain}');
    await producer.close();
    const { createRedisConnection } = await import('@wcs/queues');
    const redis = createRedisConnection(target, 'worker');
    try {
      await expect(
        redis.eval("return redis.call('MGET', KEYS[1], KEYS[2])", 2, 'plain:a', 'plain:b'),
      ).rejects.toThrow(/CROSSSLOT/);
      await expect(
        redis.eval("return redis.call('MGET', KEYS[1], KEYS[2])", 2, '{plain}:a', '{plain}:b'),
      ).resolves.toEqual([null, null]);
    } finally {
      redis.disconnect();
    }
  });

  it('a cancel reaches the worker before and after its primary fails over (channel re-subscribed)', async () => {
    const prefix = testPrefix(target);
    const producer = new QueueProducer(target, prefix);
    const started: string[] = [];
    const w = worker(target, 'scrape', prefix, hangUntilAborted(started));
    try {
      await checkCancel(producer, started, 'before');
      const t0 = Date.now();
      const { from, to } = await cluster.failover(prefix);
      expect(await cluster.primaryOf(prefix)).toBe(to);
      await checkCancel(producer, started, 'after');
      console.log(`cluster: cancel delivered again ${Date.now() - t0} ms after the failover started`);
      // The demoted primary restarted: it rejoins as a replica and nothing of ours notices.
      await cluster.restart(from);
      await checkQueueRoundTrip(target, prefix);
    } finally {
      await w.close();
      await producer.close();
    }
  }, 120_000);
});

describe('the stack on a cluster', () => {
  it('a batch and a crawl in flight survive their primary failing over and restarting: all terminal, nothing lost, billed once', async () => {
    const queuePrefix = `t-${randomUUID().slice(0, 8)}`;
    const run = await batchAndCrawlThroughFailover(
      site,
      treeSize(4, 2),
      { REDIS_URL, REDIS_CLUSTER_NODES: cluster.nodesEnv, QUEUE_PREFIX: queuePrefix },
      async () => {
        const { from } = await cluster.failover(`{${queuePrefix}}`);
        await cluster.restart(from);
      },
    );
    console.log(
      `cluster failover + restart: switch ${run.failoverMs} ms, first progress after ${run.recoverMs} ms`,
    );
  }, 300_000);
});
