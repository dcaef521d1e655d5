/**
 * The page cache as Firecrawl's users expect it: every successful cacheable page is stored (scrape,
 * batch item, crawl page; `storeInCache: false` opts out) and `maxAge` reads; `/firecrawl/v2` reads
 * with Firecrawl's default (2 days), v1 does not. A stored copy is served only where the address
 * policy allows the URL now. The fixture site counts its visits, so "served from the cache" is
 * "the site saw one request".
 */
import { randomUUID } from 'node:crypto';
import { createDb, type Db, PageCacheRepository } from '@wcs/db';
import { TargetForbiddenError } from '@wcs/errors';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { loadScrapeWorkerEnv } from '@wcs/scrape-worker';
import { fetchPage } from '@wcs/scraper';
import { type PageOptionsSite, startPageOptionsSite } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import {
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  type TestAccount,
} from './harness';

let site: PageOptionsSite;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  site = await startPageOptionsSite();
  stack = await startStack({ crawlWorker: true });
  account = await createTestAccount({ credits: 500 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const counter = (key: string, host = '127.0.0.1') => `http://${host}:${site.port}/counter?k=${key}`;
const visits = (key: string) => site.counterVisits(`?k=${key}`);
const scrape = (body: Record<string, unknown>) =>
  request(stack.url).post('/v1/scrape').set(account.auth).send(body);

describe('every cacheable page is stored; maxAge reads', () => {
  it('a plain scrape stores: a later maxAge scrape is served from that copy', async () => {
    const key = randomUUID();
    const plain = await scrape({ url: counter(key) });
    expect(plain.status).toBe(200);
    // It did not read the cache, so it says nothing about it.
    expect(plain.body.data.metadata.cacheState).toBeUndefined();
    const cached = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(cached.status).toBe(200);
    expect(cached.body.data.metadata.cacheState).toBe('hit');
    expect(Date.parse(cached.body.data.metadata.cachedAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(cached.body.data.markdown).toContain('Served as visit 1.');
    expect(visits(key)).toBe(1);
  });

  it('storeInCache: false stores nothing', async () => {
    const key = randomUUID();
    await scrape({ url: counter(key), storeInCache: false }).expect(200);
    const next = await scrape({ url: counter(key), maxAge: 600_000, storeInCache: false });
    expect(next.body.data.metadata.cacheState).toBe('miss');
    expect(next.body.data.metadata.cachedAt).toBeUndefined();
    const last = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(last.body.data.metadata.cacheState).toBe('miss');
    expect(visits(key)).toBe(3);
  });

  it('a batch item stores its page', async () => {
    const key = randomUUID();
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [counter(key)] });
    expect(start.status).toBe(202);
    await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    const cached = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(cached.body.data.metadata.cacheState).toBe('hit');
    expect(visits(key)).toBe(1);
  });

  it('a crawl page stores its page', async () => {
    const key = randomUUID();
    const id = await startCrawl(stack.url, account.auth, { url: counter(key), maxDepth: 0, maxPages: 1 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done.completed).toBe(1);
    const cached = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(cached.body.data.metadata.cacheState).toBe('hit');
    expect(visits(key)).toBe(1);
  });

  it("/firecrawl/v2 reads the cache by default (Firecrawl's 2 days); v1 and maxAge: 0 fetch", async () => {
    const key = randomUUID();
    await scrape({ url: counter(key) }).expect(200);
    const v2 = await request(stack.url)
      .post('/firecrawl/v2/scrape')
      .set(account.auth)
      .send({ url: counter(key) });
    expect(v2.status).toBe(200);
    expect(v2.body.data.metadata.cacheState).toBe('hit');
    expect(visits(key)).toBe(1);
    const v1 = await request(stack.url)
      .post('/firecrawl/v1/scrape')
      .set(account.auth)
      .send({ url: counter(key) });
    expect(v1.status).toBe(200);
    expect(visits(key)).toBe(2);
    const fresh = await request(stack.url)
      .post('/firecrawl/v2/scrape')
      .set(account.auth)
      .send({ url: counter(key), maxAge: 0 });
    expect(fresh.status).toBe(200);
    expect(visits(key)).toBe(3);
  });
});

/**
 * The stack allows private targets (its fixture site is on loopback); the copies it stored are then
 * read by renderers with the production policy, through the same fetch step the workers use.
 */
describe('a cached copy is served only where the address policy allows the URL now', () => {
  let db: Db;
  let strict: Renderer;
  let open: Renderer;
  beforeAll(() => {
    db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
    strict = createRendererFromEnv(loadScrapeWorkerEnv({ ...stack.env, ALLOW_PRIVATE_TARGETS: 'false' }));
    open = createRendererFromEnv(loadScrapeWorkerEnv(stack.env));
  });
  afterAll(async () => {
    await strict?.close();
    await open?.close();
    await db?.close();
  });

  const read = (renderer: Renderer, url: string) =>
    fetchPage(renderer, {
      url,
      engine: 'fetch',
      timeoutMs: 10_000,
      page: { maxAge: 600_000 },
      cache: new PageCacheRepository(db),
    });

  it.each([
    ['an address literal', '127.0.0.1'],
    ['a name that resolves to one (DNS)', 'localhost'],
  ])('%s that is private now is refused though cached', async (_what, host) => {
    const key = randomUUID();
    await scrape({ url: counter(key, host), engine: 'fetch' }).expect(200);
    // The copy is there: a renderer that may reach the address gets it without a visit…
    expect((await read(open, counter(key, host))).cache?.state).toBe('hit');
    // …one that may not is refused, and neither visits the site.
    await expect(read(strict, counter(key, host))).rejects.toBeInstanceOf(TargetForbiddenError);
    expect(visits(key)).toBe(1);
  });
});
