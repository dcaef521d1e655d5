/**
 * The Firecrawl-compatible crawl and batch routes over raw HTTP: the shapes the SDKs
 * read (200 on start, status/next/data, cancel's `status`, errors), the translated options
 * (limit, maxDiscoveryDepth, sitemap, ignoreQueryParameters, crawlEntireDomain, v1 names), the
 * refusals naming the option, and the native batch cancel they rely on (unstarted items are not
 * run and not billed).
 */
import { type FixtureSite, fixtureArticle, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  type TestAccount,
} from '../harness';

let stack: Stack;
let site: FixtureSite;
let account: TestAccount;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  [stack, site] = await Promise.all([
    startStack({ crawlWorker: true, env: { WORKER_CONCURRENCY: '2', CRAWL_PAGE_TIMEOUT_MS: '5000' } }),
    startFixtureSite({ pages: 20, sitemapPaths: ['/tree/1', '/404'] }),
  ]);
  account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
  await Promise.all(sites.map((s) => s.close()));
});

type Body = Record<string, unknown> & { data?: Array<{ metadata?: { sourceURL?: string } }> };
const pathOf = (d: { metadata?: { sourceURL?: string } }) => new URL(d.metadata?.sourceURL ?? 'x:/').pathname;

const post = (path: string, body: unknown) =>
  request(stack.url)
    .post(`/firecrawl${path}`)
    .set(account.auth)
    .send(body as object);
const get = (path: string) => request(stack.url).get(`/firecrawl${path}`).set(account.auth);

/** GET a `next` URL as given (absolute, with the /firecrawl prefix). */
function getAbsolute(url: string) {
  const u = new URL(url);
  expect(`${u.protocol}//${u.host}`).toBe(stack.url);
  return request(stack.url).get(`${u.pathname}${u.search}`).set(account.auth);
}

async function waitTerminal(path: string): Promise<Body> {
  return pollUntil(async () => {
    const res = await get(path);
    expect(res.status).toBe(200);
    return ['completed', 'failed', 'cancelled'].includes(String(res.body.status))
      ? (res.body as Body)
      : undefined;
  }, 45_000);
}

describe('v2 crawl', () => {
  it('starts with 200 { success, id, url } and reads back through status pages joined by absolute next URLs', async () => {
    const start = await post('/v2/crawl', { url: `${site.url}/tree`, limit: 5, maxDiscoveryDepth: 1 });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      success: true,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `${stack.url}/firecrawl/v2/crawl/${start.body.id}`,
    });
    const done = await waitTerminal(`/v2/crawl/${start.body.id}`);
    expect(done).toMatchObject({
      success: true,
      status: 'completed',
      completed: 4,
      total: 4,
      creditsUsed: 4,
    });
    expect(Date.parse(String(done.expiresAt))).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect(done.next).toBeUndefined();

    // limit=3 per page: 3 + 1, the second page's next absent.
    const first = await get(`/v2/crawl/${start.body.id}?limit=3`);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.next).toBe(`${stack.url}/firecrawl/v2/crawl/${start.body.id}?skip=3&limit=3`);
    const second = await getAbsolute(first.body.next);
    expect(second.body).toMatchObject({ success: true, status: 'completed' });
    // Behind a TLS-terminating proxy the links keep the caller's scheme.
    const proxied = await get(`/v2/crawl/${start.body.id}?limit=3`).set('X-Forwarded-Proto', 'https');
    expect(proxied.body.next).toBe(
      `${stack.url.replace(/^http:/, 'https:')}/firecrawl/v2/crawl/${start.body.id}?skip=3&limit=3`,
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    const paths = [...first.body.data, ...second.body.data].map(pathOf).sort();
    expect(paths).toEqual(['/tree', '/tree/1', '/tree/2', '/tree/3']);
    const doc = first.body.data.find((d: { markdown?: string }) => d.markdown?.includes('Tree node'));
    expect(doc.metadata).toMatchObject({ statusCode: 200, sourceURL: expect.stringContaining('/tree') });
  });

  it('stays below the start path unless crawlEntireDomain is true', async () => {
    const below = await post('/v2/crawl', {
      url: `${site.url}/tree/2`,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    const entire = await post('/v2/crawl', {
      url: `${site.url}/tree/2`,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      crawlEntireDomain: true,
    });
    const a = await waitTerminal(`/v2/crawl/${below.body.id}`);
    const b = await waitTerminal(`/v2/crawl/${entire.body.id}`);
    expect(a.data?.map(pathOf).sort()).toEqual(['/tree/2', '/tree/2/1', '/tree/2/2', '/tree/2/3']);
    // The parent /tree is a link of /tree/2: followed only for the entire domain.
    expect(b.data?.map(pathOf)).toContain('/tree');
  });

  it('sitemap "skip" reads no sitemap; ignoreQueryParameters crawls one page per path', async () => {
    const s = await startFixtureSite({ pages: 3 });
    sites.push(s);
    const start = await post('/v2/crawl', {
      url: `${s.url}/endless?page=0`,
      limit: 20,
      sitemap: 'skip',
      ignoreQueryParameters: true,
    });
    expect(start.status).toBe(200);
    const done = await waitTerminal(`/v2/crawl/${start.body.id}`);
    // Every /endless?page=N is the path /endless: the start page alone.
    expect(done).toMatchObject({ status: 'completed', completed: 1, total: 1 });
    expect(s.hits('/sitemap.xml')).toBe(0);
  });

  it('lists failed pages at /errors and cancels with { success, status: "cancelled" }', async () => {
    // /404 comes from the sitemap (entire domain, so it is not outside the start path).
    const start = await post('/v2/crawl', { url: `${site.url}/`, limit: 6, crawlEntireDomain: true });
    const done = await waitTerminal(`/v2/crawl/${start.body.id}`);
    expect(done.status).toBe('completed');
    const errors = await get(`/v2/crawl/${start.body.id}/errors`);
    expect(errors.status).toBe(200);
    expect(errors.body.robotsBlocked).toEqual([]);
    // The home page's /about, /terms, … are 404s too: /404 is among the failures, all in one shape.
    expect(errors.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ url: `${site.url}/404`, code: 'TARGET_HTTP_ERROR' }),
      ]),
    );
    for (const e of errors.body.errors) {
      expect(e).toEqual({
        id: expect.any(String),
        timestamp: expect.any(String),
        url: expect.any(String),
        error: expect.any(String),
        code: expect.any(String),
      });
    }
    expect(errors.body.errors.length).toBe((done.total as number) - (done.completed as number));

    const slow = await post('/v2/crawl', { url: `${site.url}/endless?page=0`, limit: 500 });
    const active = await get('/v2/crawl/active');
    expect(active.body.success).toBe(true);
    expect(active.body.crawls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: slow.body.id, url: `${site.url}/endless?page=0` }),
      ]),
    );
    expect(active.body.crawls.map((c: { id: string }) => c.id)).not.toContain(start.body.id);
    const cancel = await request(stack.url).delete(`/firecrawl/v2/crawl/${slow.body.id}`).set(account.auth);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ success: true, status: 'cancelled' });
    expect((await get(`/v2/crawl/${slow.body.id}`)).body.status).toBe('cancelled');
  });

  it('refuses options it cannot honour with a 400 naming them', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sitemap: 'everything' }, 'sitemap'],
      [{ maxConcurrency: 4 }, 'maxConcurrency'],
      [{ scrapeOptions: { waitFor: 1000 } }, 'scrapeOptions.waitFor'],
      [{ scrapeOptions: { proxy: 'stealth' } }, 'scrapeOptions.proxy'],
      [{ limit: 20_000 }, 'limit'],
      [{ crawlEverything: true }, 'crawlEverything'],
    ];
    for (const [extra, field] of cases) {
      const res = await post('/v2/crawl', { url: `${site.url}/`, ...extra });
      expect({ field, status: res.status, success: res.body.success }).toEqual({
        field,
        status: 400,
        success: false,
      });
      expect(res.body.error).toContain(field);
    }
    expect((await get('/v2/crawl/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('v1 crawl', () => {
  it('takes v1 names, answers v1 status, and serves batch ids at /v1/crawl/:id like Firecrawl', async () => {
    const start = await post('/v1/crawl', {
      url: `${site.url}/tree`,
      limit: 3,
      maxDepth: 1,
      ignoreSitemap: true,
      allowBackwardLinks: false,
      origin: 'js-sdk@4.42.0',
    });
    expect(start.status).toBe(200);
    expect(start.body.url).toBe(`${stack.url}/firecrawl/v1/crawl/${start.body.id}`);
    const done = await waitTerminal(`/v1/crawl/${start.body.id}`);
    expect(done).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3 });
    // FirecrawlAppV1.checkCrawlErrors sends DELETE to /errors: it reads, it does not cancel.
    const errors = await request(stack.url)
      .delete(`/firecrawl/v1/crawl/${start.body.id}/errors`)
      .set(account.auth);
    expect(errors.body).toEqual({ success: true, errors: [], robotsBlocked: [] });

    const batch = await post('/v1/batch/scrape', { urls: [`${site.url}/article/3`], formats: ['markdown'] });
    expect(batch.status).toBe(200);
    const viaCrawl = await waitTerminal(`/v1/crawl/${batch.body.id}`);
    expect(viaCrawl).toMatchObject({ status: 'completed', completed: 1, total: 1 });
  });
});

describe('v2 batch scrape', () => {
  it('reports invalid URLs with ignoreInvalidURLs, pages its data, and lists failed items at /errors', async () => {
    const before = await balanceOf(account.accountId);
    const urls = [`${site.url}/article/1`, 'not a url', `${site.url}/article/2`, `${site.url}/404`];
    const start = await post('/v2/batch/scrape', { urls, formats: ['markdown'], ignoreInvalidURLs: true });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      success: true,
      id: expect.any(String),
      url: `${stack.url}/firecrawl/v2/batch/scrape/${start.body.id}`,
      invalidURLs: ['not a url'],
    });
    const done = await waitTerminal(`/v2/batch/scrape/${start.body.id}`);
    // 3 items, one of them a 404: 2 documents, the failed one refunded.
    expect(done).toMatchObject({ status: 'completed', total: 3, completed: 2, creditsUsed: 2 });
    expect(await balanceOf(account.accountId)).toBe(before - 2);
    const first = await get(`/v2/batch/scrape/${start.body.id}?limit=1`);
    expect(first.body.data[0].markdown).toContain(fixtureArticle(1).title);
    const second = await getAbsolute(first.body.next);
    expect(second.body.data[0].markdown).toContain(fixtureArticle(2).title);
    expect(second.body.next).toBeUndefined();
    const errors = await get(`/v2/batch/scrape/${start.body.id}/errors`);
    expect(errors.body.errors).toEqual([
      expect.objectContaining({ url: `${site.url}/404`, code: 'TARGET_HTTP_ERROR' }),
    ]);
    // Without ignoreInvalidURLs the bad URL fails the request, named.
    const strict = await post('/v2/batch/scrape', { urls });
    expect(strict.status).toBe(400);
    expect(strict.body.error).toContain('urls.1');
  });

  it('DELETE cancels: unstarted items are not fetched and not billed; status reads cancelled', async () => {
    const before = await balanceOf(account.accountId);
    const urls = Array.from({ length: 10 }, (_, i) => `${site.url}/article/${i}?delay=1500&c=${i}`);
    const start = await post('/v2/batch/scrape', { urls });
    // Cancel once the first items are running, so both kinds (running, queued) are cancelled.
    await pollUntil(
      async () => (site.requests.some((r) => r.search.includes('c=')) ? true : undefined),
      20_000,
      20,
    );
    const cancel = await request(stack.url)
      .delete(`/firecrawl/v2/batch/scrape/${start.body.id}`)
      .set(account.auth);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ success: true, status: 'cancelled' });
    const status = (await get(`/v2/batch/scrape/${start.body.id}`)).body;
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(10);
    // Each cancelled item was refunded: what is billed is what completed.
    expect(await balanceOf(account.accountId)).toBe(before - status.completed);
    // Items not started by the cancel never reach the site: once a later batch has run (the queue
    // is first in, first out), the site has seen no more of them than when the cancel answered.
    const fetchedAtCancel = new Set(
      site.requests.filter((r) => r.search.includes('c=')).map((r) => r.search),
    );
    expect(fetchedAtCancel.size).toBeLessThan(10);
    const later = await post('/v2/batch/scrape', { urls: [`${site.url}/article/7?after=cancel`] });
    expect((await waitTerminal(`/v2/batch/scrape/${later.body.id}`)).completed).toBe(1);
    const fetchedAfter = new Set(site.requests.filter((r) => r.search.includes('c=')).map((r) => r.search));
    expect(fetchedAfter).toEqual(fetchedAtCancel);
    const native = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
    expect(native.body.status).toBe('done');
    expect(native.body.results.filter((r: { code?: string }) => r.code === 'CANCELLED').length).toBe(
      10 - status.completed,
    );
  });
});

describe('native DELETE /v1/batch/scrape/:id', () => {
  it('answers the batch summary with how many items it stopped; again, it stops none; 404 for others', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${site.url}/article/${i}?delay=1000&native=${i}`);
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    const first = await request(stack.url).delete(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, id: start.body.id, status: 'done', total: 6 });
    expect(first.body.cancelled).toBe(6 - first.body.completed);
    expect(first.body.failed).toBe(first.body.cancelled);
    expect(first.body.creditsUsed).toBe(first.body.completed);
    const again = await request(stack.url).delete(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
    expect(again.body).toMatchObject({ success: true, cancelled: 0, creditsUsed: first.body.completed });
    const other = await createTestAccount({ plan: 'hobby' });
    const foreign = await request(stack.url).delete(`/v1/batch/scrape/${start.body.id}`).set(other.auth);
    expect(foreign.status).toBe(404);
  });
});
