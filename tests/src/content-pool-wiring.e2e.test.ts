/**
 * Each worker service creates its content pool from the env it parsed and closes it with the
 * rest (real stack: gateway + scrape, crawl and extract workers in this process, PostgreSQL,
 * Redis, real content threads). An idle thread would live for CONTENT_POOL_IDLE_MS (10 min
 * here), so a thread still alive after the stack closed is a pool its service did not close.
 */
import { createServer } from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, type Stack, startStack, type TestAccount } from './harness';

const PAGE = `<html><head><title>Pooled</title></head><body><article>${'<p>An ordinary paragraph of an article, long enough to be content.</p>'.repeat(8)}</article></body></html>`;

let stack: Stack | undefined;
let site: ListeningServer;
let account: TestAccount;

beforeAll(async () => {
  site = await listenLocal(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    }),
  );
  stack = await startStack({
    env: { CONTENT_POOL_THREADS: '1', CONTENT_POOL_IDLE_MS: '600000', CONTENT_THREAD_HEAP_MB: '200' },
    crawlWorker: true,
    extractWorker: true,
  });
  account = await createTestAccount({ credits: 10 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('content pool wiring', () => {
  it("is created from each service's parsed env and closed with the service", async () => {
    const running = stack as Stack;
    const pools = [running.worker, running.crawlWorker, running.extractWorker].map((w) => w?.contentPool);
    for (const pool of pools) {
      expect(pool?.options).toMatchObject({ threads: 1, idleTimeoutMs: 600_000, heapMb: 200 });
    }
    // One pool per service, not one per process.
    expect(new Set(pools).size).toBe(3);

    const res = await request(running.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/page` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('An ordinary paragraph');
    const scrapePool = running.worker?.contentPool;
    expect(scrapePool?.threadCount).toBe(1);

    stack = undefined;
    await running.close();
    expect(scrapePool?.threadCount).toBe(0);
    expect(scrapePool?.threads()).toEqual([]);
  });
});
