/**
 * One account's costly selectors cannot make another account's scrape time out (real stack:
 * gateway + scrape worker in this process, real content threads, PostgreSQL, Redis). Account A
 * floods the content pool with a selector whose cost is quadratic in a page of 40,000 sibling
 * <div>s; account B's small page still converts within its own budget, A's pages are cut by the
 * selector budget and billed (their own options spent it), and the probe's nested :has() is a
 * 400 before anything is charged.
 */
import { createServer } from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

const WIDE = `<html><body>${'<div>x</div>'.repeat(40_000)}</body></html>`;
const SMALL = `<html><head><title>Small</title></head><body><article><h1>Small page</h1>${'<p>An ordinary paragraph of a small article, long enough to be content.</p>'.repeat(8)}</article></body></html>`;
const FLOOD = 4;

let stack: Stack;
let site: ListeningServer;
let a: TestAccount;
let b: TestAccount;
/** Resolves once the site has served the flood's pages (A's conversions are then under way). */
let floodServed: Promise<void>;

beforeAll(async () => {
  let served = 0;
  let onServed = () => {};
  floodServed = new Promise((resolve) => {
    onServed = resolve;
  });
  site = await listenLocal(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (req.url === '/wide') {
        res.end(WIDE, () => {
          if (++served === FLOOD) onServed();
        });
      } else res.end(SMALL);
    }),
  );
  // The scrape worker creates its content pool from these (its parsed env).
  stack = await startStack({
    env: { CONTENT_POOL_THREADS: '2', CONTENT_TASK_TIMEOUT_MS: '20000', CONTENT_SELECTOR_BUDGET_MS: '2000' },
  });
  a = await createTestAccount({ credits: 50 });
  b = await createTestAccount({ credits: 50 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const scrape = (who: TestAccount, body: Record<string, unknown>) =>
  request(stack.url).post('/v1/scrape').set(who.auth).send(body);

describe('content pool fairness across accounts', () => {
  it("the probe's nested :has() is refused up front: 400 naming the field, nothing charged", async () => {
    const before = await balanceOf(a.accountId);
    const probe = 'div:has(~ div:has(~ div:has(~ div)))';
    const res = await scrape(a, { url: `${site.url}/wide`, engine: 'fetch', includeTags: [probe] });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.error).toMatch(/^includeTags: .*nests :has\(\) inside :has\(\)/);
    const crawl = await request(stack.url)
      .post('/v1/crawl')
      .set(a.auth)
      .send({ url: `${site.url}/wide`, scrapeOptions: { excludeTags: [probe] } });
    expect({ status: crawl.status, code: crawl.body.code }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(crawl.body.error).toMatch(/^scrapeOptions\.excludeTags: /);
    expect(await balanceOf(a.accountId)).toBe(before);
  });

  it("A's flood of costly selectors: B's small scrape succeeds; A's are cut (422) and billed", async () => {
    const aBefore = await balanceOf(a.accountId);
    const bBefore = await balanceOf(b.accountId);
    // `.then` sends them now (supertest sends on first use).
    const flood = Array.from({ length: FLOOD }, () =>
      scrape(a, {
        url: `${site.url}/wide`,
        engine: 'fetch',
        includeTags: ['div:has(~ div)'],
        timeout: 60_000,
      }).then((r) => r),
    );
    await floodServed;
    const mine = await scrape(b, { url: `${site.url}/small`, engine: 'fetch', timeout: 60_000 });
    expect({ status: mine.status, code: mine.body.code, error: mine.body.error }).toEqual({
      status: 200,
      code: undefined,
      error: undefined,
    });
    expect(mine.body.data.markdown).toContain('Small page');
    for (const res of await Promise.all(flood)) {
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 422,
        code: 'SELECTOR_TOO_EXPENSIVE',
      });
      expect(res.body.error).toMatch(/^includeTags: matching the selectors on .* took longer than 2000 ms/);
    }
    // A paid for the work done for its own options; B paid for its page.
    expect(await balanceOf(a.accountId)).toBe(aBefore - FLOOD);
    expect(await balanceOf(b.accountId)).toBe(bBefore - 1);
  }, 120_000);

  it('a batch item cut by its selectors fails SELECTOR_TOO_EXPENSIVE and keeps its credit; the others are refunded as usual', async () => {
    const before = await balanceOf(a.accountId);
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(a.auth)
      .send({ urls: [`${site.url}/wide`, `http://127.0.0.1:1/refused`], excludeTags: ['div:has(+ div)'] });
    expect(start.status).toBe(202);
    const done = await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(a.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ total: 2, completed: 0, failed: 2, creditsUsed: 1 });
    expect(done.results[0]).toMatchObject({ status: 'failed', code: 'SELECTOR_TOO_EXPENSIVE' });
    expect(done.results[1].code).not.toBe('SELECTOR_TOO_EXPENSIVE');
    expect(await balanceOf(a.accountId)).toBe(before - 1);
  }, 90_000);
});
