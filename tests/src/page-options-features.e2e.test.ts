/**
 * Page options reach every feature that fetches pages: batch (every item), crawl
 * (`scrapeOptions`, every page), extract (what the model is shown) and monitors (every check).
 * The secrets kept on batch and crawl rows are cleared when they end; a monitor's when it is deleted.
 */
import { createDb } from '@wcs/db';
import { createRedisConnection } from '@wcs/queues';
import {
  type FakeLlmServer,
  type PageOptionsSite,
  PO_CLICK_TEXT,
  PO_GATE_HEADER,
  PO_GATE_VALUE,
  PO_GATED_TEXT,
  PO_SIGN_IN_TEXT,
  startFakeAnthropic,
  startPageOptionsSite,
  textSeenByModel,
} from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  type TestAccount,
} from './harness';

/** hourly = 2 s in this file. */
const INTERVAL_MS = 2_000;

let stack: Stack;
let site: PageOptionsSite;
let fake: FakeLlmServer;
let account: TestAccount;
const db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
const monitors: string[] = [];

beforeAll(async () => {
  [site, fake] = await Promise.all([startPageOptionsSite(), startFakeAnthropic()]);
  stack = await startStack({
    crawlWorker: true,
    extractWorker: true,
    monitorScheduler: true,
    env: {
      WORKER_CONCURRENCY: '4',
      CRAWL_PAGE_TIMEOUT_MS: '10000',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: fake.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
      MONITOR_INTERVAL_SCALE: String(INTERVAL_MS / 3_600_000),
      MONITOR_RESUME_SWEEP_MS: '300',
    },
  });
  account = await createTestAccount({ plan: 'hobby', credits: 500 });
});
afterAll(async () => {
  // Later runs' schedulers rebuild from the shared database: leave no active monitor behind.
  for (const id of monitors) await request(stack.url).delete(`/v1/monitor/${id}`).set(account.auth);
  await stack?.close();
  await Promise.all([site?.close(), fake?.close(), db.close()]);
});

const gate = { [PO_GATE_HEADER]: PO_GATE_VALUE };

describe('batch: page options applied to every item', () => {
  it('headers and formats reach every item; the batch row forgets the headers once done', async () => {
    const res = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({
        items: [
          { id: 'a', url: `${site.url}/echo?item=a` },
          { id: 'b', url: `${site.url}/echo?item=b` },
          { id: 'g', url: `${site.url}/gated?item=g` },
        ],
        headers: { ...gate, 'X-Batch': 'batch-value-7' },
        formats: ['markdown', 'links'],
        onlyMainContent: false,
      });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const done = await pollUntil(async () => {
      const b = await request(stack.url).get(`/v1/batch/scrape/${id}`).set(account.auth);
      return b.body.status === 'done' ? b.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ total: 3, completed: 3, failed: 0, creditsUsed: 3 });
    const results = done.results as Array<{ id: string; data: Record<string, unknown> }>;
    for (const r of results) expect(Object.keys(r.data).sort()).toEqual(['links', 'markdown', 'metadata']);
    const byId = Object.fromEntries(results.map((r) => [r.id, r.data.markdown as string]));
    expect(byId.a).toContain('header x-batch = batch-value-7');
    expect(byId.b).toContain('header x-batch = batch-value-7');
    expect(byId.g).toContain(PO_GATED_TEXT);
    // Every request of the batch carried the header.
    const sent = site.requests.filter((r) => r.search.startsWith('?item='));
    expect(sent).toHaveLength(3);
    for (const r of sent) expect(r.headers['x-batch']).toBe('batch-value-7');

    const row = await db.prisma.batch.findUnique({
      where: { id },
      select: { pageSecrets: true, pageOptions: true },
    });
    expect(row?.pageSecrets).toBeNull();
    expect(row?.pageOptions).toEqual({ formats: ['markdown', 'links'] });
  });
  it('actions and mobile run on every item; an item whose action fails fails alone and is refunded', async () => {
    const before = await balanceOf(account.accountId);
    const res = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({
        items: [
          { id: 'click', url: `${site.url}/click` },
          { id: 'mobile', url: `${site.url}/mobile` },
        ],
        mobile: true,
        actions: [
          { type: 'executeJavascript', script: 'return window.innerWidth' },
          { type: 'click', selector: '#more' },
        ],
        formats: ['markdown'],
      });
    expect(res.status).toBe(202);
    const done = await pollUntil(async () => {
      const b = await request(stack.url).get(`/v1/batch/scrape/${res.body.id}`).set(account.auth);
      return b.body.status === 'done' ? b.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ total: 2, completed: 1, failed: 1, creditsUsed: 1 });
    const byId = Object.fromEntries(
      (done.results as Array<{ id: string }>).map((r) => [r.id, r as Record<string, unknown>]),
    );
    const clicked = byId.click?.data as { markdown: string; actions: { javascriptReturns: unknown[] } };
    expect(clicked.markdown).toContain(PO_CLICK_TEXT);
    expect(clicked.actions.javascriptReturns).toEqual([{ type: 'number', value: 412 }]);
    expect(byId.mobile).toMatchObject({ status: 'failed', code: 'ACTION_FAILED' });
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });
  it('maxAge: an item a scrape just fetched is served from the page cache, without a visit', async () => {
    const key = `batch-${Date.now()}`;
    const url = `${site.url}/counter?k=${key}`;
    const first = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url, maxAge: 600_000 });
    expect(first.body.data.metadata.cacheState).toBe('miss');
    const res = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [url, `${site.url}/counter?k=${key}-other`], maxAge: 600_000 });
    expect(res.status).toBe(202);
    const done = await pollUntil(async () => {
      const b = await request(stack.url).get(`/v1/batch/scrape/${res.body.id}`).set(account.auth);
      return b.body.status === 'done' ? b.body : undefined;
    }, 30_000);
    const states = (done.results as Array<{ data: { metadata: { cacheState?: string } } }>).map(
      (r) => r.data.metadata.cacheState,
    );
    expect(states).toEqual(['hit', 'miss']);
    expect(site.counterVisits(`?k=${key}`)).toBe(1);
    expect(done.creditsUsed).toBe(2);
  });
  it('a screenshot format on a batch: every item gets a PNG served under the key', async () => {
    const res = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${site.url}/tagged?shot=1`, `${site.url}/click?shot=2`], formats: ['screenshot'] });
    expect(res.status).toBe(202);
    const done = await pollUntil(async () => {
      const b = await request(stack.url).get(`/v1/batch/scrape/${res.body.id}`).set(account.auth);
      return b.body.status === 'done' ? b.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ completed: 2, failed: 0 });
    for (const r of done.results as Array<{ data: { screenshot: string } }>) {
      expect(Object.keys(r.data).sort()).toEqual(['metadata', 'screenshot']);
      const png = await fetch(`${stack.url}${new URL(r.data.screenshot).pathname}`, {
        headers: account.auth,
      });
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
    }
  });
});

describe('crawl: scrapeOptions on every page', () => {
  it('headers and formats reach every crawled page; the crawl row forgets the headers once it ends', async () => {
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/links`,
      maxDepth: 1,
      scrapeOptions: {
        headers: { 'X-Crawl': 'crawl-value-9', Cookie: 'gate=open-sesame' },
        formats: ['markdown', 'rawHtml'],
        excludeTags: ['.ad'],
      },
      onlyMainContent: false,
    });
    const done = await waitForCrawl(stack.url, crawlId, account.auth);
    expect(done).toMatchObject({ status: 'done', failed: 0 });
    const paths = done.pages.map((p) => new URL(p.url).pathname + new URL(p.url).search).sort();
    expect(paths).toEqual(['/echo', '/links', '/tagged?x=1']);
    for (const p of done.pages) {
      expect(Object.keys(p).sort()).toEqual(['markdown', 'metadata', 'rawHtml', 'url']);
    }
    const echo = done.pages.find((p) => new URL(p.url).pathname === '/echo');
    expect(echo?.markdown).toContain('header x-crawl = crawl-value-9');
    expect(echo?.markdown).toContain('cookie gate = open-sesame');
    const tagged = done.pages.find((p) => new URL(p.url).pathname === '/tagged');
    expect(tagged?.markdown).toContain('Articleword');
    expect(tagged?.markdown).not.toContain('Adword');
    // The site saw the header on every page request of the crawl.
    const pageRequests = site.requests.filter(
      (r) => ['/links', '/echo', '/tagged'].includes(r.path) && r.headers['x-crawl'] !== undefined,
    );
    expect(pageRequests.map((r) => r.path).sort()).toEqual(['/echo', '/links', '/tagged']);

    const row = await db.prisma.crawl.findUnique({ where: { id: crawlId }, select: { pageSecrets: true } });
    expect(row?.pageSecrets).toBeNull();
  });
  it('while the crawl runs its row holds the headers (every page needs them); then they are gone', async () => {
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/links?crawl=slow`,
      maxDepth: 1,
      delayMs: 1_500, // three pages: at least 3 s of crawl to look at
      scrapeOptions: { headers: { 'X-Slow': 'slow-value-4' } },
    });
    const running = await db.prisma.crawl.findUnique({
      where: { id: crawlId },
      select: { pageSecrets: true, status: true },
    });
    expect(running?.status).not.toMatch(/done|failed/);
    expect(running?.pageSecrets).toEqual({ headers: { 'X-Slow': 'slow-value-4' } });
    const done = await waitForCrawl(stack.url, crawlId, account.auth);
    expect(done).toMatchObject({ status: 'done', completed: 3 });
    const row = await db.prisma.crawl.findUnique({ where: { id: crawlId }, select: { pageSecrets: true } });
    expect(row?.pageSecrets).toBeNull();
  });

  it('actions run on every crawled page (their returns kept with each page)', async () => {
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/links?crawl=actions`,
      maxDepth: 1,
      includePaths: ['^/echo'],
      scrapeOptions: {
        actions: [{ type: 'executeJavascript', script: 'return location.pathname' }],
        formats: ['text'],
      },
    });
    const done = await waitForCrawl(stack.url, crawlId, account.auth);
    expect(done).toMatchObject({ status: 'done', completed: 2, failed: 0 });
    const returns = done.pages
      .map((p) => (p as unknown as { actions: { javascriptReturns: Array<{ value: unknown }> } }).actions)
      .map((a) => a.javascriptReturns[0]?.value)
      .sort();
    expect(returns).toEqual(['/echo', '/links']);
  });
  it('a screenshot format on a crawl: every page gets a PNG served under the key', async () => {
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/links?crawl=shots`,
      maxDepth: 1,
      includePaths: ['^/echo'],
      scrapeOptions: { formats: ['markdown', 'screenshot'] },
    });
    const done = await waitForCrawl(stack.url, crawlId, account.auth);
    expect(done).toMatchObject({ status: 'done', completed: 2, failed: 0 });
    for (const p of done.pages as unknown as Array<{ screenshot: string }>) {
      const png = await fetch(`${stack.url}${new URL(p.screenshot).pathname}`, { headers: account.auth });
      expect(png.status).toBe(200);
    }
  });
});

describe('extract: what the model sees comes from the page fetched with the options', () => {
  beforeEach(() => {
    fake.requests.length = 0;
    fake.script(() => ({ data: { report: 'x' } }));
  });

  it('without the header the model sees the sign-in notice; with it, the members-only text', async () => {
    const before = await balanceOf(account.accountId);
    const without = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${site.url}/gated`, schema: { report: 'string' } });
    expect(without.status).toBe(200);
    expect(textSeenByModel(fake.requests[0]!)).toContain(PO_SIGN_IN_TEXT);

    const res = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${site.url}/gated`, schema: { report: 'string' }, headers: gate });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ report: 'x' });
    const seen = textSeenByModel(fake.requests[1]!);
    expect(seen).toContain(PO_GATED_TEXT);
    expect(seen).not.toContain(PO_SIGN_IN_TEXT);
    expect(await balanceOf(account.accountId)).toBe(before - 10);
  });

  it('actions run before the content is taken', async () => {
    const res = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({
        url: `${site.url}/click`,
        prompt: 'What is revealed?',
        actions: [
          { type: 'click', selector: '#more' },
          { type: 'wait', selector: '#revealed' },
        ],
      });
    expect(res.status).toBe(200);
    expect(textSeenByModel(fake.requests[0]!)).toContain(PO_CLICK_TEXT);
  });

  it('tag filters, mobile and location shape what the model sees', async () => {
    const filtered = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${site.url}/tagged`, prompt: 'x', excludeTags: ['.ad'] });
    expect(filtered.status).toBe(200);
    const seen = textSeenByModel(fake.requests[0]!);
    expect(seen).toContain('Articleword');
    expect(seen).not.toContain('Adword');
    const device = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({
        url: `${site.url}/mobile`,
        prompt: 'x',
        mobile: true,
        location: { country: 'FR' },
        actions: [{ type: 'wait', milliseconds: 10 }], // the device report is written by script
      });
    expect(device.status).toBe(200);
    const deviceSeen = textSeenByModel(fake.requests[1]!);
    expect(deviceSeen).toContain('width=412');
    expect(deviceSeen).toContain('lang=fr-FR');
    expect(deviceSeen).toContain('tz=Europe/Paris');
  });

  it('an action that fails is a 422 and the 5 credits come back', async () => {
    const before = await balanceOf(account.accountId);
    const res = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({
        url: `${site.url}/click`,
        prompt: 'x',
        actions: [{ type: 'executeJavascript', script: 'throw new Error("no")' }],
      });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'ACTION_FAILED',
      details: { action: 'executeJavascript', index: 0 },
    });
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(account.accountId)).toBe(before);
  });
});

describe('monitors: every check fetches with the options', () => {
  it('the checks send the header and see the gated page; deleting the monitor forgets the header', async () => {
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({
        url: `${site.url}/gated?visits`,
        interval: 'hourly',
        headers: { ...gate, 'X-Monitor': 'mon-3' },
      });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    monitors.push(id);
    // The baseline, then a check whose page differs (the visit number): a change with its snapshot.
    const detail = await pollUntil(
      async () => {
        const d = await request(stack.url).get(`/v1/monitor/${id}`).set(account.auth);
        return d.body.data.changes.length > 0 ? d.body.data : undefined;
      },
      INTERVAL_MS * 6 + 10_000,
    );
    expect(detail.checks.every((c: { code?: string }) => c.code === undefined)).toBe(true);
    expect(detail.changes[0].snapshot).toContain(PO_GATED_TEXT);
    expect(detail.changes[0].snapshot).not.toContain(PO_SIGN_IN_TEXT);
    const checks = site.requestsTo('/gated').filter((r) => r.search === '?visits');
    expect(checks.length).toBeGreaterThanOrEqual(2);
    for (const r of checks) expect(r.headers['x-monitor']).toBe('mon-3');

    const kept = await db.prisma.monitor.findUnique({ where: { id }, select: { pageSecrets: true } });
    expect(kept?.pageSecrets).toEqual({ headers: { ...gate, 'X-Monitor': 'mon-3' } });
    // The detail never shows them.
    expect(JSON.stringify(detail)).not.toContain('mon-3');
    await request(stack.url).delete(`/v1/monitor/${id}`).set(account.auth).expect(200);
    const gone = await db.prisma.monitor.findUnique({ where: { id }, select: { pageSecrets: true } });
    expect(gone?.pageSecrets).toBeNull();
  });

  it('tag filters apply to what a check reads', async () => {
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({ url: `${site.url}/tagged?monitor=tags`, includeTags: ['.ad'] });
    expect(res.status).toBe(201);
    monitors.push(res.body.data.id as string);
    const snapshot = await pollUntil(async () => {
      const m = await db.prisma.monitor.findUnique({
        where: { id: res.body.data.id as string },
        select: { lastSnapshot: true },
      });
      return m?.lastSnapshot ?? undefined;
    }, 15_000);
    expect(snapshot).toContain('Adword');
    expect(snapshot).not.toContain('Articleword');
  });

  it('actions run before a check reads the page', async () => {
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({
        url: `${site.url}/click`,
        actions: [
          { type: 'click', selector: '#more' },
          { type: 'wait', selector: '#revealed' },
        ],
      });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    monitors.push(id);
    const snapshot = await pollUntil(async () => {
      const m = await db.prisma.monitor.findUnique({ where: { id }, select: { lastSnapshot: true } });
      return m?.lastSnapshot ?? undefined;
    }, 15_000);
    expect(snapshot).toContain(PO_CLICK_TEXT);
  });
});

describe('job payloads', () => {
  it('no job Redis keeps (batch items, crawl pages, extract, monitor checks) holds a header value in clear', async () => {
    const redis = createRedisConnection(TEST_REDIS_URL, 'worker');
    try {
      const keys = await redis.keys(`${stack.env.QUEUE_PREFIX}:*`);
      const payloads: string[] = [];
      for (const key of keys) {
        if ((await redis.type(key)) !== 'hash') continue;
        const data = await redis.hget(key, 'data');
        if (data) payloads.push(data);
      }
      const all = payloads.join('\n');
      // The jobs of this file are there (so the check looks at something)…
      expect(all).toContain(`${site.url}/gated`);
      expect(all).toContain('crawl');
      // …and none carries a header value.
      for (const secret of ['batch-value-7', 'crawl-value-9', 'slow-value-4', 'mon-3', PO_GATE_VALUE]) {
        expect(all).not.toContain(secret);
      }
    } finally {
      redis.disconnect();
    }
  });
});
