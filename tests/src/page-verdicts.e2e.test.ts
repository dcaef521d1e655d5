/**
 * What each page verdict does, end to end through the real gateway and workers against a local
 * site of generic walls and error pages (`startVerdictSite`): scrape, batch, crawl, monitor,
 * search, extract and the Firecrawl scrape route. Failing verdicts (blocked, soft-404,
 * error-page) are errors and cost nothing; parked / login-wall / empty pages are delivered, with a
 * warning, and billed.
 */

import { createRedisConnection } from '@wcs/queues';
import {
  type FakeLlmServer,
  type SearxngFixture,
  startFakeAnthropic,
  startSearxngFixture,
  startVerdictSite,
  type VerdictSite,
  verdictSiteArticle,
} from '@wcs/testing';
import request from 'supertest';
import { ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_REDIS_URL,
  type TestAccount,
} from './harness';

let site: VerdictSite;
let searxng: SearxngFixture;
let fake: FakeLlmServer;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  [site, searxng, fake] = await Promise.all([
    startVerdictSite(),
    startSearxngFixture(),
    startFakeAnthropic(),
  ]);
  stack = await startStack({
    crawlWorker: true,
    extractWorker: true,
    monitorScheduler: true,
    webhookDispatcher: true,
    env: {
      FETCH_TIMEOUT_MS: '5000',
      // The challenge here never clears: the ladder's browser wait is tested in fetch-ladder.e2e.
      BROWSER_CHALLENGE_WAIT_MS: '1000',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searxng.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: fake.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
      // hourly = 2 s
      MONITOR_INTERVAL_SCALE: String(2_000 / 3_600_000),
    },
  });
  account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), searxng?.close(), fake?.close()]);
});

const post = (path: string, body: Record<string, unknown>, auth = account.auth) =>
  request(stack.url).post(path).set(auth).send(body);

describe('POST /v1/scrape', () => {
  it.each([
    ['/soft-404', { statusCode: 404, soft: true }],
    ['/error-page', { statusCode: 502, soft: true }],
  ])('%s: 502 TARGET_HTTP_ERROR with the status the page shows, soft, not billed', async (path, details) => {
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/scrape', { url: `${site.url}${path}` });
    expect({ status: res.status, code: res.body.code, details: res.body.details }).toEqual({
      status: 502,
      code: 'TARGET_HTTP_ERROR',
      details,
    });
    expect(res.body.success).toBe(false);
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('a Cloudflare-style challenge (403, cf-mitigated: challenge): 502 TARGET_BLOCKED, reason and vendor, not billed', async () => {
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/scrape', { url: `${site.url}/challenge` });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      success: false,
      code: 'TARGET_BLOCKED',
      details: { reason: 'challenge', vendor: 'cloudflare' },
    });
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it.each([
    ['/parked', 'parked', /parked domain/],
    ['/login', 'login-wall', /login wall/],
    ['/app-shell', 'empty', /no content/],
  ])('%s: 200 with metadata.verdict %s and a warning, billed', async (path, verdict, warning) => {
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/scrape', { url: `${site.url}${path}` });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.verdict).toBe(verdict);
    expect(res.body.data.warning).toMatch(warning);
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('a content page: metadata.verdict content, no warning', async () => {
    const res = await post('/v1/scrape', { url: `${site.url}/article/1` });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.verdict).toBe('content');
    expect(res.body.data).not.toHaveProperty('warning');
  });

  it('the Firecrawl route: the same codes in its error shape; metadata.verdict passes through', async () => {
    const soft = await post('/firecrawl/v2/scrape', { url: `${site.url}/soft-404` });
    expect(soft.status).toBe(502);
    expect(soft.body).toMatchObject({ success: false, code: 'TARGET_HTTP_ERROR', details: { soft: true } });
    const parked = await post('/firecrawl/v2/scrape', { url: `${site.url}/parked` });
    expect(parked.status).toBe(200);
    expect(parked.body.data.metadata.verdict).toBe('parked');
    expect(parked.body.data.warning).toMatch(/parked domain/);
  });
});

describe('POST /v1/batch/scrape', () => {
  it('failing verdicts fail their items with the code and refund them; the others are billed', async () => {
    const before = await balanceOf(account.accountId);
    const paths = ['/article/2', '/soft-404', '/error-page', '/challenge', '/parked'];
    const start = await post('/v1/batch/scrape', { urls: paths.map((p) => `${site.url}${p}`) });
    expect(start.status).toBe(202);
    const done = await pollUntil(async () => {
      const r = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return r.body.status === 'done' ? r.body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ total: 5, completed: 2, failed: 3, creditsUsed: 2 });
    const byPath = (p: string) => done.results.find((r: { url: string }) => r.url === `${site.url}${p}`);
    expect(byPath('/article/2')).toMatchObject({
      status: 'done',
      data: { metadata: { verdict: 'content' } },
    });
    expect(byPath('/parked')).toMatchObject({ status: 'done', data: { metadata: { verdict: 'parked' } } });
    expect(byPath('/soft-404')).toMatchObject({ status: 'failed', code: 'TARGET_HTTP_ERROR' });
    expect(byPath('/soft-404').error).toMatch(/not found/);
    expect(byPath('/error-page')).toMatchObject({ status: 'failed', code: 'TARGET_HTTP_ERROR' });
    expect(byPath('/error-page').error).toMatch(/502/);
    expect(byPath('/challenge')).toMatchObject({ status: 'failed', code: 'TARGET_BLOCKED' });
    expect(await balanceOf(account.accountId)).toBe(before - 2);
  });
});

describe('POST /v1/crawl', () => {
  it('soft-404 and error pages are failed pages: not billed, not counted against maxPages, their links not followed', async () => {
    const acct = await createTestAccount({ credits: 100 });
    // "/" links to /soft-404, /error-page, /article/1..4 in that order: with maxPages 4, the
    // frontier queues the first three and keeps the articles as spares; each failure queues a
    // spare in its place (or leaves its room to the next completion), whichever finishes first.
    const id = await startCrawl(stack.url, acct.auth, { url: `${site.url}/`, maxPages: 4, maxDepth: 3 });
    const done = await waitForCrawl(stack.url, id, acct.auth);
    expect(done).toMatchObject({ status: 'done', completed: 4, failed: 2, creditsUsed: 4 });
    // Which three articles depends on which pages finish first (an error page is retried before it
    // fails); the start page and three distinct articles, always.
    const crawled = done.pages.map((p) => p.metadata.sourceURL.slice(site.url.length)).sort();
    expect(crawled[0]).toBe('/');
    expect(crawled.slice(1)).toHaveLength(3);
    expect(crawled.slice(1).every((p) => /^\/article\/[1-4]$/.test(p))).toBe(true);
    expect(new Set(crawled).size).toBe(4);
    const unneeded = ['/article/1', '/article/2', '/article/3', '/article/4'].filter(
      (p) => !crawled.includes(p),
    );
    for (const p of done.pages) expect(p.metadata.verdict).toBe('content');
    expect(
      done.failedPages
        .map((f) => ({ url: f.url, code: f.code, statusCode: f.statusCode }))
        .sort((a, b) => a.url.localeCompare(b.url)),
    ).toEqual([
      { url: `${site.url}/error-page`, code: 'TARGET_HTTP_ERROR', statusCode: 502 },
      { url: `${site.url}/soft-404`, code: 'TARGET_HTTP_ERROR', statusCode: 404 },
    ]);
    // The soft 404's links were never followed; a spare link that was not needed was never fetched.
    expect(unneeded).toHaveLength(1);
    expect([site.hits('/hidden/1'), site.hits('/hidden/2'), site.hits(unneeded[0] as string)]).toEqual([
      0, 0, 0,
    ]);
    // The results listing (dashboard) shows the crawl's pages, not the spare links it kept.
    const results = await request(stack.url).get(`/v1/crawl/${id}/results`).set(acct.auth).expect(200);
    expect(results.body.total).toBe(6);
    const charges = (await ledgerOf(acct.accountId)).filter((r) => r.reason === 'crawl');
    expect(charges).toHaveLength(4);
    expect(await balanceOf(acct.accountId)).toBe(96);
    // A page is announced to the account's searches beside its conversion; the failed ones took
    // their announcement back (a mark left behind would hold every search of the account until it
    // goes stale, a minute later), the done ones once written.
    const pending = `${stack.env.QUEUE_PREFIX}:search-pending:{${acct.accountId}}`;
    const redis = createRedisConnection(TEST_REDIS_URL, 'worker');
    try {
      await pollUntil(async () => ((await redis.zcard(pending)) === 0 ? true : undefined), 10_000, 50);
    } finally {
      redis.disconnect();
    }
  });
});

describe('monitors', () => {
  it('a check that sees a soft 404 is a failed check: no change, no webhook, not billed', async () => {
    const acct = await createTestAccount({ credits: 100 });
    site.set('/watched', verdictSiteArticle('Watched page', ['/']));
    const created = await post(
      '/v1/monitor',
      { url: `${site.url}/watched`, interval: 'hourly', webhookUrl: `${site.url}/hook` },
      acct.auth,
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    type Detail = {
      checkCount: number;
      changes: unknown[];
      checks: Array<{ checkedAt: string; hash?: string; code?: string }>;
      webhookDeliveries: unknown[];
    };
    const detail = async (): Promise<Detail> =>
      (await request(stack.url).get(`/v1/monitor/${id}`).set(acct.auth).expect(200)).body.data as Detail;
    try {
      await pollUntil(async () => ((await detail()).checks.some((c) => c.hash) ? true : undefined), 30_000);
      const switchedAt = Date.now();
      site.set(
        '/watched',
        '<html><head><title>Page not found</title></head><body><p>Gone.</p></body></html>',
      );
      const failedSeen = await pollUntil(async () => {
        const d = await detail();
        return d.checks[0]?.code ? d : undefined;
      }, 30_000);
      expect(failedSeen.checks[0]?.code).toBe('TARGET_HTTP_ERROR');
      // Two more checks of the same soft 404: nothing billed, nothing changed, nothing sent. A check
      // of the good page still in flight when it changed may be recorded after the soft 404's
      // (superseded, and billed: that page was fetched), so billing is read per check: a credit
      // for each check that got a page — all begun before the switch — none for the soft 404's.
      const later = await pollUntil(async () => {
        const d = await detail();
        return d.checkCount >= failedSeen.checkCount + 2 ? d : undefined;
      }, 30_000);
      expect(later.checks[0]?.code).toBe('TARGET_HTTP_ERROR');
      const billed = later.checks.filter((c) => c.hash);
      expect(later.checks.length).toBe(later.checkCount);
      expect(billed.filter((c) => Date.parse(c.checkedAt) >= switchedAt)).toEqual([]);
      expect(await balanceOf(acct.accountId)).toBe(100 - billed.length);
      expect(later.changes).toEqual([]);
      expect(later.webhookDeliveries).toEqual([]);
      expect(site.hits('/hook')).toBe(0);
    } finally {
      await request(stack.url).delete(`/v1/monitor/${id}`).set(acct.auth);
    }
  });
});

describe('search and extract', () => {
  it('search: a soft-404 hit is a failed hit (markdown null, its code) and not billed', async () => {
    searxng.configure({
      results: [
        { url: `${site.url}/article/3`, title: 'Three', content: 'a page' },
        { url: `${site.url}/soft-404`, title: 'Gone', content: 'a soft 404' },
      ],
    });
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/search', { query: 'tides', num_results: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data[0].metadata?.verdict ?? 'content').toBe('content');
    expect(res.body.data[1]).toMatchObject({ markdown: null, code: 'TARGET_HTTP_ERROR' });
    expect(res.body.creditsUsed).toBe(2);
    expect(await balanceOf(account.accountId)).toBe(before - 2);
  });

  it('extract: an input page that is an error page fails with its code and is refunded; the model is never asked', async () => {
    fake.requests.length = 0;
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/extract', { url: `${site.url}/error-page`, schema: { title: 'string' } });
    expect({ status: res.status, code: res.body.code, details: res.body.details }).toEqual({
      status: 502,
      code: 'TARGET_HTTP_ERROR',
      details: { statusCode: 502, soft: true },
    });
    expect(await balanceOf(account.accountId)).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });
});
