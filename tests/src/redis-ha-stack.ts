/**
 * The whole stack on a Redis that fails over under it (Sentinel or Cluster): a batch and a crawl
 * in flight, the failover, then every job terminal, no item or page lost, none billed twice.
 */
import type { FixtureSite } from '@wcs/testing';
import request from 'supertest';
import { crawlStatus, ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, startStack } from './harness';

export const BATCH_SIZE = 24;

/** Short locks so a job whose worker lost its connection mid-way comes back within seconds. */
const HA_ENV = {
  WORKER_LOCK_MS: '4000',
  WORKER_STALLED_INTERVAL_MS: '2000',
  WORKER_CONCURRENCY: '2',
};

export interface FailoverRun {
  /** How long the failover itself took (the topology's own switch). */
  failoverMs: number;
  /** From the start of the failover to the first item or page finished after it. */
  recoverMs: number;
}

/**
 * A killed master takes the writes its replica had not received with it: a job added just before
 * can be gone. The reconcilers re-enqueue from PostgreSQL what Redis lost, as after a Redis restart.
 */
export const LOSSY_FAILOVER_ENV = {
  RECONCILE_INTERVAL_MS: '300',
  RECONCILE_MIN_AGE_MS: '1500',
  CRAWL_RECONCILE_INTERVAL_MS: '300',
  CRAWL_RECONCILE_MIN_AGE_MS: '1500',
};

export async function batchAndCrawlThroughFailover(
  site: FixtureSite,
  treePages: number,
  redisEnv: Record<string, string>,
  failover: () => Promise<unknown>,
): Promise<FailoverRun> {
  const stack = await startStack({ crawlWorker: true, env: { ...HA_ENV, ...redisEnv } });
  try {
    const credits = 500;
    const account = await createTestAccount({ credits });
    const urls = Array.from({ length: BATCH_SIZE }, (_, i) => `${site.url}/article/${i}?delay=120`);
    const batch = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(batch.status).toBe(202);
    const batchId: string = batch.body.id;
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 3,
      delayMs: 40,
      includePaths: ['^/tree'],
    });
    const batchDone = async () =>
      (await request(stack.url).get(`/v1/batch/scrape/${batchId}`).set(account.auth)).body as {
        status: string;
        completed: number;
      };
    const progress = async () =>
      (await batchDone()).completed + (await crawlStatus(stack.url, crawlId, account.auth)).completed;
    // Both in flight: some work done, most of it still queued or running.
    await pollUntil(
      async () => {
        const b = await batchDone();
        const c = await crawlStatus(stack.url, crawlId, account.auth);
        return b.completed >= 2 && c.completed >= 3 ? true : undefined;
      },
      60_000,
      50,
    );

    // Work finished before the failover began: the first progress past it is the recovery.
    const before = await progress();
    expect(before).toBeLessThan(BATCH_SIZE + treePages);
    const t0 = Date.now();
    await failover();
    const failoverMs = Date.now() - t0;
    await pollUntil(async () => ((await progress()) > before ? true : undefined), 120_000, 50);
    const recoverMs = Date.now() - t0;

    const done = await pollUntil(async () => {
      const b = (await request(stack.url).get(`/v1/batch/scrape/${batchId}`).set(account.auth)).body;
      return b.status === 'done' ? b : undefined;
    }, 180_000);
    expect(done).toMatchObject({
      total: BATCH_SIZE,
      completed: BATCH_SIZE,
      failed: 0,
      creditsUsed: BATCH_SIZE,
    });
    expect(done.results.map((r: { url: string }) => r.url)).toEqual(urls);
    const crawl = await waitForCrawl(stack.url, crawlId, account.auth, 180_000);
    expect(crawl).toMatchObject({
      status: 'done',
      total: treePages,
      completed: treePages,
      failed: 0,
      creditsUsed: treePages,
    });
    expect(new Set(crawl.pages.map((p: { url: string }) => p.url)).size).toBe(treePages);

    // Billed once: the balance moved by exactly one credit per item and page, and the ledger
    // accounts for every move (each row's balance is the one before it plus its amount).
    const balance = await balanceOf(account.accountId);
    expect(credits - balance).toBe(BATCH_SIZE + treePages);
    const rows = (await ledgerOf(account.accountId)).reverse();
    rows.slice(1).forEach((row, i) => {
      expect(row.balanceAfter).toBe((rows[i]?.balanceAfter ?? Number.NaN) + row.amount);
    });
    expect(rows.at(-1)?.balanceAfter).toBe(balance);
    const pageCharges = rows.filter((r) => r.reason === 'crawl');
    expect(pageCharges).toHaveLength(treePages);
    expect(new Set(pageCharges.map((r) => r.reference)).size).toBe(treePages);
    return { failoverMs, recoverMs };
  } finally {
    await stack.close();
  }
}
