/**
 * Conditional revalidation through the whole stack: a page-cache entry older than `maxAge` is asked
 * again with its validators (If-None-Match / If-Modified-Since); a 304 serves the stored copy
 * (`metadata.cacheState: "revalidated"`), moves the entry's fetch time on and costs what a scrape
 * costs. The site counts its requests and the body bytes it sent; entries are aged by moving their
 * fetch time back in the database (no waiting).
 */
import { createDb, type Db } from '@wcs/db';
import { type ConditionalSite, startConditionalSite } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import {
  balanceOf,
  createTestAccount,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  type TestAccount,
} from './harness';

let site: ConditionalSite;
let stack: Stack;
let account: TestAccount;
let db: Db;

beforeAll(async () => {
  site = await startConditionalSite({ pages: 12, links: 3 });
  stack = await startStack({ crawlWorker: true });
  account = await createTestAccount({ credits: 500 });
  db = createDb(TEST_DATABASE_URL);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
  await db?.close();
});
beforeEach(() => {
  site.setIgnoreValidators(false);
  site.resetCounts();
});

const url = (i: number) => `${site.url}/page/${i}`;
const scrape = (body: Record<string, unknown>) =>
  request(stack.url).post('/v1/scrape').set(account.auth).send(body);
/** Ages the cache entries of these URLs by two hours. */
async function age(...urls: string[]): Promise<void> {
  await db.prisma.$executeRaw`
    UPDATE page_cache SET fetched_at = fetched_at - interval '2 hours' WHERE url = ANY(${urls})`;
}
async function fetchedAt(u: string): Promise<Date | undefined> {
  const row = await db.prisma.pageCacheEntry.findFirst({ where: { url: u }, orderBy: { fetchedAt: 'desc' } });
  return row?.fetchedAt;
}

describe('maxAge expiry revalidates the stored copy', () => {
  it('a 304 serves the stored copy, refreshes the entry and bills as a scrape; nothing is downloaded', async () => {
    const first = await scrape({ url: url(0) });
    expect(first.status).toBe(200);
    const balanceAfterFirst = await balanceOf(account.accountId);
    await age(url(0));
    const agedAt = await fetchedAt(url(0));
    site.resetCounts();

    const again = await scrape({ url: url(0), maxAge: 60_000 });
    expect(again.status).toBe(200);
    expect(again.body.data.metadata.cacheState).toBe('revalidated');
    expect(again.body.data.markdown).toBe(first.body.data.markdown);
    expect(again.body.data.metadata.statusCode).toBe(200);
    // One conditional request, answered 304, no body.
    expect(site.counts()).toEqual({ requests: 1, notModified: 1, ok: 0, bodyBytes: 0 });
    expect(site.requests[0]).toMatchObject({
      ifNoneMatch: site.validators(0).etag,
      ifModifiedSince: site.validators(0).lastModified,
    });
    // The entry counts as fetched now: the next maxAge scrape is a plain hit, no request at all.
    const refreshed = await fetchedAt(url(0));
    expect(refreshed?.getTime()).toBeGreaterThan((agedAt as Date).getTime());
    expect(Date.parse(again.body.data.metadata.cachedAt)).toBe(refreshed?.getTime());
    const hit = await scrape({ url: url(0), maxAge: 60_000 });
    expect(hit.body.data.metadata.cacheState).toBe('hit');
    expect(site.counts().requests).toBe(1);
    // Billed as the scrape of that content it is: what the first scrape cost, no more.
    const firstCost = 500 - balanceAfterFirst;
    expect(firstCost).toBeGreaterThan(0);
    expect(await balanceOf(account.accountId)).toBe(balanceAfterFirst - 2 * firstCost);
  });

  it('a changed page answers 200 to the stale validators: downloaded and stored as a miss', async () => {
    await scrape({ url: url(1) }).expect(200);
    await age(url(1));
    site.change(1);
    site.resetCounts();
    const again = await scrape({ url: url(1), maxAge: 60_000 });
    expect(again.body.data.metadata.cacheState).toBe('miss');
    expect(again.body.data.markdown).toContain('Version 1 of page 1');
    expect(site.counts()).toMatchObject({ requests: 1, ok: 1, notModified: 0 });
    // The new copy carries the new validators.
    await age(url(1));
    site.resetCounts();
    const third = await scrape({ url: url(1), maxAge: 60_000 });
    expect(third.body.data.metadata.cacheState).toBe('revalidated');
    expect(site.requests[0]?.ifNoneMatch).toBe(site.validators(1).etag);
  });

  it('a server that ignores the validators answers 200 again: the normal path', async () => {
    await scrape({ url: url(2) }).expect(200);
    await age(url(2));
    site.setIgnoreValidators(true);
    site.resetCounts();
    const again = await scrape({ url: url(2), maxAge: 60_000 });
    expect(again.status).toBe(200);
    expect(again.body.data.metadata.cacheState).toBe('miss');
    expect(again.body.data.markdown).toContain('Version 0 of page 2');
    expect(site.counts()).toMatchObject({ requests: 1, ok: 1 });
    expect(site.counts().bodyBytes).toBeGreaterThan(1000);
  });

  it('a 304 to a request without validators is a clear error, never an empty page, and not billed', async () => {
    site.override('/page/3', { status: 304 });
    try {
      const before = await balanceOf(account.accountId);
      const res = await scrape({ url: url(3), maxAge: 60_000 });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('TARGET_HTTP_ERROR');
      expect(res.body.error).toContain('304 Not Modified');
      expect(await balanceOf(account.accountId)).toBe(before);
    } finally {
      site.override('/page/3', undefined);
    }
  });
});

describe('crawls with maxAge revalidate their pages', () => {
  it('a recrawl over expired entries downloads only the changed page', async () => {
    // Pages 4..11 are a chain of 3 links each from /page/4.
    const first = await startCrawl(stack.url, account.auth, { url: url(4), maxDepth: 10, maxPages: 8 });
    const done = await waitForCrawl(stack.url, first, account.auth);
    expect(done.completed).toBe(8);
    const urls = done.pages.map((d) => d.metadata.sourceURL);
    await age(...urls);
    site.change(5);
    site.resetCounts();

    const id = await startCrawl(stack.url, account.auth, {
      url: url(4),
      maxDepth: 10,
      maxPages: 8,
      scrapeOptions: { maxAge: 60_000 },
    });
    const again = await waitForCrawl(stack.url, id, account.auth);
    expect(again.completed).toBe(8);
    const states = new Map(again.pages.map((d) => [d.metadata.sourceURL, d.metadata.cacheState]));
    expect(states.get(url(5))).toBe('miss');
    expect([...states.entries()].filter(([, s]) => s === 'revalidated')).toHaveLength(7);
    const pages = site.requests.filter((r) => r.path.startsWith('/page/'));
    expect(pages.filter((r) => r.status === 200).map((r) => r.path)).toEqual(['/page/5']);
    expect(pages.filter((r) => r.status === 304)).toHaveLength(7);
  });
});
