import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { crawlStatus, fetched, ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack } from './harness';

// Spacing is enforced when the request leaves the worker; the site sees arrivals, which a loaded
// machine shifts by tens of ms (265 ms for a 300 ms delay on one CI run). Unspaced requests arrive
// ms apart.
const JITTER_MS = 50;

let stack: Stack;
const sites: FixtureSite[] = [];

async function site(opts: Parameters<typeof startFixtureSite>[0] = {}): Promise<FixtureSite> {
  const s = await startFixtureSite({ pages: 5, ...opts });
  sites.push(s);
  return s;
}

beforeAll(async () => {
  stack = await startStack({
    worker: false,
    crawlWorker: true,
    env: { WORKER_CONCURRENCY: '4', CRAWL_PAGE_TIMEOUT_MS: '5000' },
  });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all(sites.map((s) => s.close()));
});

/** Each tree page fetched at most once, whatever the query/fragment variants linking to it. */
function expectNoPageTwice(s: FixtureSite, prefix: string): void {
  const paths = s.requests.filter((r) => r.path.startsWith(prefix)).map((r) => r.path);
  expect(new Set(paths).size).toBe(paths.length);
}

describe('POST /v1/crawl → GET /v1/crawl/:id', () => {
  it('crawls breadth first to maxDepth exactly, seeds from the sitemap, obeys robots.txt and bills 1 credit per page', async () => {
    // Tree: 3 children per node, 3 levels. The sitemap lists a depth-3 node (3 path segments below
    // /tree: deeper than maxDepth, never fetched) and a depth-2 one (also a grandchild: once).
    const s = await site({ sitemapPaths: ['/tree/3/3/3', '/tree/2/2', '/article/1?x=off-rule'] });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 2,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);

    // depth 0: /tree; depth 1: /tree/1..3; depth 2: 9 grandchildren (/tree/2/2 also from the sitemap).
    expect(done).toMatchObject({
      status: 'done',
      stopReason: 'completed',
      total: 13,
      completed: 13,
      failed: 0,
    });
    expect(done.creditsUsed).toBe(13);
    const urls = done.pages.map((p) => new URL(p.url).pathname).sort();
    const expected = ['/tree'];
    for (let a = 1; a <= 3; a++) {
      expected.push(`/tree/${a}`);
      for (let b = 1; b <= 3; b++) expected.push(`/tree/${a}/${b}`);
    }
    expect(urls).toEqual(expected.sort());
    // Nothing deeper than maxDepth was even requested; robots.txt's Disallow: /private/ held.
    expect(fetched(s, '/tree').filter((p) => p.split('/').length > 4)).toEqual([]);
    expect(fetched(s, '/private')).toEqual([]);
    expect(s.hits('/robots.txt')).toBe(1);
    expect(s.hits('/sitemap.xml')).toBe(1);
    expectNoPageTwice(s, '/tree');
    // The start page went first.
    expect(fetched(s, '/tree')[0]).toBe('/tree');

    const page = done.pages.find((p) => p.url === `${s.url}/tree/2`);
    expect(page?.markdown).toContain('Tree node 2');
    expect(page?.metadata).toMatchObject({ title: 'Tree node 2', statusCode: 200 });
    expect(page?.html).toBeUndefined(); // only markdown was asked for

    expect(await balanceOf(account.accountId)).toBe(87);
    const crawlRows = (await ledgerOf(account.accountId)).filter((r) => r.reason === 'crawl');
    expect(crawlRows).toHaveLength(13);
    expect(crawlRows.every((r) => r.amount === -1)).toBe(true);
    expect(new Set(crawlRows.map((r) => r.reference)).size).toBe(13);
  });

  it('pages results with skip/limit and a next link, in the order pages finished', async () => {
    const s = await site({ tree: { branching: 2, depth: 2 } });
    const account = await createTestAccount({ credits: 50 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 5,
      includePaths: ['^/tree'],
      format: 'html',
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', total: 7, completed: 7 });
    expect(done.next).toBeUndefined();

    const seen: string[] = [];
    let query: string | undefined = '?limit=3';
    let calls = 0;
    while (query !== undefined) {
      const body = await crawlStatus(stack.url, id, account.auth, query);
      calls += 1;
      expect(body.pages.length).toBeLessThanOrEqual(3);
      for (const p of body.pages) {
        seen.push(p.url);
        expect(p.html).toContain('<h1>'); // format html adds the html
      }
      query = body.next ? body.next.slice(body.next.indexOf('?')) : undefined;
    }
    expect(calls).toBe(3);
    expect(seen).toEqual(done.pages.map((p) => p.url));
    expect(new Set(seen).size).toBe(7);

    const bad = await request(stack.url).get(`/v1/crawl/${id}?limit=5000`).set(account.auth);
    expect(bad.status).toBe(400);
  });

  it('maxPages is exact: the frontier is capped and the crawl says max_pages', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 10,
      maxPages: 10,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', stopReason: 'max_pages', total: 10, completed: 10 });
    expect(new Set(fetched(s, '/tree')).size).toBe(10);
    expectNoPageTwice(s, '/tree');
    expect(await balanceOf(account.accountId)).toBe(90);
  });

  it('includePaths and excludePaths select pages by path (the start page is always crawled)', async () => {
    const s = await site({ sitemapPaths: ['/tree/3/3/3'] });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 3,
      includePaths: ['^/tree/2'],
      excludePaths: ['^/tree/2/3'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    const paths = done.pages.map((p) => new URL(p.url).pathname).sort();
    expect(paths).toEqual(
      ['/tree', '/tree/2', '/tree/2/1', '/tree/2/2']
        .concat([1, 2, 3].flatMap((c) => [`/tree/2/1/${c}`, `/tree/2/2/${c}`]))
        .sort(),
    );
    expect(fetched(s, '/tree/1')).toEqual([]);
    expect(fetched(s, '/tree/2/3')).toEqual([]);
    expect(fetched(s, '/tree/3')).toEqual([]);
  });

  it('robots.txt Disallow and Crawl-delay are obeyed; delayMs spaces requests too', async () => {
    const s = await site({
      tree: { branching: 2, depth: 2 },
      robotsTxt: 'User-agent: *\nDisallow: /tree/1\nDisallow: /private/\nCrawl-delay: 0.25\n',
    });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 2,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    // /tree, /tree/2, /tree/2/1, /tree/2/2 — nothing under the disallowed /tree/1.
    expect(done).toMatchObject({ status: 'done', completed: 4 });
    expect(fetched(s, '/tree/1')).toEqual([]);
    expect(fetched(s, '/private')).toEqual([]);
    const times = s.requests.filter((r) => r.path.startsWith('/tree')).map((r) => r.at);
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250 - JITTER_MS);

    const s2 = await site({ tree: { branching: 2, depth: 1 } });
    const id2 = await startCrawl(stack.url, account.auth, {
      url: `${s2.url}/tree`,
      maxDepth: 1,
      delayMs: 300,
      includePaths: ['^/tree'],
    });
    expect((await waitForCrawl(stack.url, id2, account.auth)).completed).toBe(3);
    const t2 = s2.requests.filter((r) => r.path.startsWith('/tree')).map((r) => r.at);
    expect(t2).toHaveLength(3);
    for (let i = 1; i < t2.length; i++) expect(t2[i]! - t2[i - 1]!).toBeGreaterThanOrEqual(300 - JITTER_MS);
  });

  it('never has more than the per-host limit (2) of requests in flight to a site, however many pages wait', async () => {
    // 40 pages linking to each other, each answered after a short hold so requests overlap; the
    // worker runs 4 jobs at a time, so pages wait for the host's slots and pass them on.
    let inFlight = 0;
    let peak = 0;
    let served = 0;
    const server: Server = createServer((req, res) => {
      if (!req.url?.startsWith('/p/')) {
        // robots.txt and sitemaps: none.
        res.writeHead(404, { 'content-length': 0 });
        res.end();
        return;
      }
      inFlight++;
      peak = Math.max(peak, inFlight);
      const n = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      const links = [1, 2, 3, 5, 8]
        .map((k) => `<a href="/p/${(n + k) % 40}">page ${(n + k) % 40}</a>`)
        .join(' ');
      setTimeout(() => {
        inFlight--;
        served++;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text of page ${n}.</p>${links}</main></body></html>`,
        );
      }, 15);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const account = await createTestAccount({ credits: 100 });
      const id = await startCrawl(stack.url, account.auth, {
        url: `http://127.0.0.1:${port}/p/0`,
        maxDepth: 10,
        includePaths: ['^/p/'],
      });
      const done = await waitForCrawl(stack.url, id, account.auth);
      expect(done).toMatchObject({ status: 'done', completed: 40, failed: 0 });
      expect(served).toBeGreaterThanOrEqual(40);
      expect(peak).toBe(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('endless query-string links end cleanly at maxPages', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/endless?page=0`,
      maxDepth: 1000,
      maxPages: 12,
      includePaths: ['^/endless'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done.failedPages).toEqual([]);
    expect(done).toMatchObject({ status: 'done', stopReason: 'max_pages', total: 12, completed: 12 });
    expect(fetched(s, '/endless')).toHaveLength(12);
  });
});

describe('stopping a crawl', () => {
  it('DELETE cancels: no new pages start, done pages stay readable and billed, nothing else is billed', async () => {
    const s = await site({ tree: { branching: 3, depth: 3 } });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 3,
      delayMs: 250,
      includePaths: ['^/tree'],
    });
    await pollUntil(
      async () => ((await crawlStatus(stack.url, id, account.auth)).completed >= 2 ? true : undefined),
      30_000,
      50,
    );
    const del = await request(stack.url).delete(`/v1/crawl/${id}`).set(account.auth);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, id, status: 'failed', stopReason: 'cancelled' });
    // Idempotent.
    const again = await request(stack.url).delete(`/v1/crawl/${id}`).set(account.auth);
    expect(again.body).toMatchObject({
      status: 'failed',
      stopReason: 'cancelled',
      completed: del.body.completed,
    });

    // Every job of the crawl is gone or finished; nothing more is fetched or billed.
    const pageQueue = stack.gateway.deps.producer.queue('crawl-page');
    // (Only this crawl's jobs: the shared test database may hold other runs' unfinished crawls,
    // which this stack's reconciler re-enqueues.)
    await pollUntil(async () => {
      const jobs = await pageQueue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
      return jobs.some((j) => (j?.data as { crawlId?: string } | undefined)?.crawlId === id)
        ? undefined
        : true;
    }, 20_000);
    const after = await crawlStatus(stack.url, id, account.auth);
    expect(after.status).toBe('failed');
    expect(after.completed).toBe(del.body.completed);
    expect(after.pages).toHaveLength(after.completed);
    expect(after.creditsUsed).toBe(after.completed);
    expect(await balanceOf(account.accountId)).toBe(100 - after.completed);
    // At most the requests in flight at cancel time (≤ the per-host limit, 2) went out beyond the pages kept.
    expect(fetched(s, '/tree').length).toBeLessThanOrEqual(after.completed + 2);
    expect(after.completed).toBeLessThan(40);
  });

  it('a crawl that runs out of credits stops and says so; pages already crawled stay readable', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 5 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree`,
      maxDepth: 3,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({
      status: 'failed',
      stopReason: 'out_of_credits',
      completed: 5,
      creditsUsed: 5,
    });
    expect(done.error).toMatch(/out of credits/i);
    expect(done.pages).toHaveLength(5);
    expect(await balanceOf(account.accountId)).toBe(0);
    expect((await ledgerOf(account.accountId)).filter((r) => r.reason === 'crawl')).toHaveLength(5);
  });
});

describe('bad requests', () => {
  it('402 when the balance is 0; 400 for bad URLs, regexes and fields', async () => {
    const broke = await createTestAccount({ credits: 0 });
    const r402 = await request(stack.url)
      .post('/v1/crawl')
      .set(broke.auth)
      .send({ url: 'https://example.com' });
    expect(r402.status).toBe(402);
    expect(r402.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });

    const account = await createTestAccount({ credits: 10 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'VALIDATION_FAILED'],
      [{ url: 'ftp://example.com' }, 'INVALID_URL'],
      [{ url: 'not a url at all' }, 'INVALID_URL'],
      [{ url: 'example.com', includePaths: ['(unclosed'] }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', excludePaths: ['(a+)+$'] }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', maxPages: 0 }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', maxPages: 10_001 }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', maxDepth: -1 }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', delayMs: 60_001 }, 'VALIDATION_FAILED'],
      [{ url: 'example.com', format: 'pdf' }, 'VALIDATION_FAILED'],
    ];
    for (const [body, code] of cases) {
      const res = await request(stack.url).post('/v1/crawl').set(account.auth).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code });
    }
    const bad = await request(stack.url)
      .post('/v1/crawl')
      .set(account.auth)
      .send({ url: 'x.com', includePaths: ['(unclosed'] });
    expect(bad.body.error).toMatch(/includePaths\.0/);
    expect(await balanceOf(account.accountId)).toBe(10);
  });

  it('a bare domain gets https:// and the answer is 202 with the URL as it will be fetched', async () => {
    const account = await createTestAccount({ credits: 10 });
    const res = await request(stack.url)
      .post('/v1/crawl')
      .set(account.auth)
      .send({ url: 'Example.invalid/a/#frag', maxDepth: 0 });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, url: 'https://example.invalid/a/' });
    const del = await request(stack.url).delete(`/v1/crawl/${res.body.id}`).set(account.auth);
    expect(del.body.status).toBe('failed');
  });

  it('a start page that fails ends the crawl failed, with the failure listed and nothing billed', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 10 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${s.url}/tree/9`,
      maxDepth: 2,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({
      status: 'failed',
      stopReason: 'error',
      error: expect.stringMatching(/\(TARGET_HTTP_ERROR\)/),
      completed: 0,
      failed: 1,
      creditsUsed: 0,
      pages: [],
    });
    expect(done.failedPages).toEqual([
      {
        url: `${s.url}/tree/9`,
        error: expect.stringMatching(/404/),
        code: 'TARGET_HTTP_ERROR',
        statusCode: 404,
      },
    ]);
    expect(await balanceOf(account.accountId)).toBe(10);
  });

  it("another account's crawl id is a 404 exactly like an unknown id (GET and DELETE)", async () => {
    const s = await site();
    const owner = await createTestAccount({ credits: 10 });
    const other = await createTestAccount({ credits: 10 });
    const id = await startCrawl(stack.url, owner.auth, { url: `${s.url}/tree`, maxDepth: 0 });
    const foreign = await request(stack.url).get(`/v1/crawl/${id}`).set(other.auth);
    const unknown = await request(stack.url)
      .get('/v1/crawl/00000000-0000-4000-8000-000000000000')
      .set(other.auth);
    const garbage = await request(stack.url).get('/v1/crawl/not-an-id').set(other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(garbage.body).toEqual(unknown.body);
    const del = await request(stack.url).delete(`/v1/crawl/${id}`).set(other.auth);
    expect(del.status).toBe(404);
    expect(del.body).toEqual(unknown.body);
    const own = await waitForCrawl(stack.url, id, owner.auth);
    expect(own).toMatchObject({ status: 'done', completed: 1 });
  });
});
