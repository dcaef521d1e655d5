/**
 * The `summary` format end to end: gateway + scrape worker + crawl worker in this process, the
 * fixture site as the target and the fake Anthropic server as the extract model (spoken to by the
 * real SDK). Priced like an extract on top of the page (1 + 5 credits), refunded with its page, and
 * 503 MODEL_NOT_CONFIGURED on a stack without a model: refused by the gateway before any charge
 * or fetch, on every route that can ask for model work.
 */
import {
  type FakeLlmServer,
  type FixtureSite,
  startFakeAnthropic,
  startFixtureSite,
  textSeenByModel,
} from '@wcs/testing';
import request from 'supertest';
import { ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

const SUMMARY = 'A short article comparing ways of extracting the main content of web pages.';

let site: FixtureSite;
let fake: FakeLlmServer;

beforeAll(async () => {
  [site, fake] = await Promise.all([startFixtureSite(), startFakeAnthropic()]);
});
afterAll(async () => {
  await Promise.all([site?.close(), fake?.close()]);
});

describe('the summary format with a model', () => {
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({
      crawlWorker: true,
      env: {
        BROWSER_ENABLED: 'false',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: fake.url,
        EXTRACT_MODEL: 'claude-fake',
        EXTRACT_MODEL_MAX_RETRIES: '0',
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(async () => {
    account = await createTestAccount({ plan: 'hobby', credits: 100 });
    fake.requests.length = 0;
    fake.script(() => ({ data: { summary: SUMMARY } }));
  });

  const post = (path: string, body: Record<string, unknown>) =>
    request(stack.url).post(path).set(account.auth).send(body);

  it('POST /v1/scrape: data.summary from the main content; 6 credits, charged once', async () => {
    const res = await post('/v1/scrape', { url: `${site.url}/`, formats: ['summary'] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['metadata', 'summary']);
    expect(res.body.data.summary).toBe(SUMMARY);
    expect(fake.requests).toHaveLength(1);
    const seen = textSeenByModel(fake.requests[0]!);
    expect(seen).toContain('Summarize');
    expect(seen).toContain('Extracting the main content of a web page');
    expect(seen).not.toContain('We use cookies');
    expect(await balanceOf(account.accountId)).toBe(94);
    const rows = (await ledgerOf(account.accountId)).filter((r) => r.reason.startsWith('scrape'));
    expect(rows.map((r) => [r.reason, r.amount])).toEqual([['scrape', -6]]);

    const both = await post('/v1/scrape', { url: `${site.url}/`, formats: ['markdown', 'summary'] });
    expect(both.status).toBe(200);
    expect(both.body.data.summary).toBe(SUMMARY);
    expect(both.body.data.markdown).toContain('Understanding Web Content Extraction');
  });

  it('POST /v1/parse: an uploaded file summarised too, 6 credits', async () => {
    const html = Buffer.from(
      '<html><head><title>Notes</title></head><body><main><h1>Notes</h1><p>Words of a file.</p></main></body></html>',
    );
    const res = await request(stack.url)
      .post('/v1/parse')
      .set(account.auth)
      .field('options', JSON.stringify({ formats: ['summary'] }))
      .attach('file', html, { filename: 'notes.html', contentType: 'text/html' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['metadata', 'summary']);
    expect(res.body.data.summary).toBe(SUMMARY);
    expect(textSeenByModel(fake.requests[0]!)).toContain('Words of a file.');
    expect(await balanceOf(account.accountId)).toBe(94);
  });

  it('a failed model call fails the scrape and refunds all of it', async () => {
    fake.script(() => ({ status: 500 }));
    const res = await post('/v1/scrape', { url: `${site.url}/`, formats: ['markdown', 'summary'] });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.success).toBe(false);
    expect(await balanceOf(account.accountId)).toBe(100);
  });

  it('POST /firecrawl/v2/scrape: the summary format, creditsUsed 6', async () => {
    const res = await post('/firecrawl/v2/scrape', { url: `${site.url}/`, formats: ['summary'], maxAge: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data.summary).toBe(SUMMARY);
    expect(res.body.data.markdown).toBeUndefined();
    expect(res.body.data.metadata.creditsUsed).toBe(6);
    expect(await balanceOf(account.accountId)).toBe(94);
  });

  it('batch scrape: 6 credits per item up front, a failed item refunds its 6', async () => {
    const start = await post('/v1/batch/scrape', {
      urls: [`${site.url}/article/1`, `${site.url}/missing-page-404`],
      formats: ['markdown', 'summary'],
    });
    expect(start.status).toBe(202);
    expect(await balanceOf(account.accountId)).toBeLessThanOrEqual(100 - 6);
    const done = await pollUntil(
      async () => {
        const b = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
        return b.body.status === 'done' ? b.body : undefined;
      },
      60_000,
      100,
    );
    const ok = done.results.find((r: { status: string }) => r.status === 'done');
    expect(ok.data.summary).toBe(SUMMARY);
    expect(done.results.filter((r: { status: string }) => r.status === 'failed')).toHaveLength(1);
    expect(done.creditsUsed).toBe(6);
    expect(await balanceOf(account.accountId)).toBe(94);
  });

  it('crawl scrapeOptions: every page summarised, 6 credits a page', async () => {
    const id = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/`,
      maxDepth: 1,
      maxPages: 2,
      scrapeOptions: { formats: ['markdown', 'summary'] },
    });
    const crawl = await waitForCrawl(stack.url, id, account.auth);
    expect(crawl.status).toBe('done');
    expect(crawl.pages).toHaveLength(2);
    for (const page of crawl.pages) expect(page.summary).toBe(SUMMARY);
    expect(crawl.creditsUsed).toBe(12);
    expect(await balanceOf(account.accountId)).toBe(88);
  });

  it('search: `summary: true` adds each result`s summary, 2 + 5 credits a result', async () => {
    await post('/v1/scrape', { url: `${site.url}/article/3` });
    const before = await balanceOf(account.accountId);
    const res = await post('/v1/search', { query: 'article 3', num_results: 1, summary: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].summary).toBe(SUMMARY);
    expect(res.body.creditsUsed).toBe(7);
    expect(await balanceOf(account.accountId)).toBe(before - 7);
  });
});

describe('the summary format without a model', () => {
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({ env: { BROWSER_ENABLED: 'false', ANTHROPIC_API_KEY: '' } });
    account = await createTestAccount({ credits: 20 });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Refused at the gateway before any charge: no ledger row at all beyond the grant. */
  const expectRefused = async (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'MODEL_NOT_CONFIGURED' });
    expect(res.body.error).toContain('ANTHROPIC_API_KEY');
    expect(res.headers['x-credits-used']).toBeUndefined();
    expect(await balanceOf(account.accountId)).toBe(20);
    expect((await ledgerOf(account.accountId)).map((r) => r.reason)).toEqual(['grant']);
  };
  const post = (path: string, body: Record<string, unknown>) =>
    request(stack.url).post(path).set(account.auth).send(body);

  it('is 503 MODEL_NOT_CONFIGURED naming what to set, before any charge or fetch', async () => {
    expect((await ledgerOf(account.accountId)).map((r) => r.reason)).toEqual(['grant']);
    const seenBefore = site.requests.length;
    await expectRefused(await post('/v1/scrape', { url: `${site.url}/`, formats: ['markdown', 'summary'] }));
    await expectRefused(
      await post('/v1/scrape', {
        url: `${site.url}/`,
        formats: ['markdown', 'changeTracking'],
        changeTrackingOptions: { modes: ['json'], prompt: 'the title' },
      }),
    );
    await expectRefused(await post('/v1/batch/scrape', { urls: [`${site.url}/`], formats: ['summary'] }));
    await expectRefused(
      await post('/v1/crawl', { url: `${site.url}/`, maxPages: 2, scrapeOptions: { formats: ['summary'] } }),
    );
    await expectRefused(await post('/v1/search', { query: 'article', num_results: 1, summary: true }));
    await expectRefused(await post('/v1/extract', { url: `${site.url}/`, prompt: 'the title' }));
    await expectRefused(await post('/firecrawl/v2/scrape', { url: `${site.url}/`, formats: ['summary'] }));
    await expectRefused(
      await post('/firecrawl/v2/scrape', {
        url: `${site.url}/`,
        formats: [{ type: 'json', prompt: 'the title' }],
      }),
    );
    await expectRefused(
      await post('/firecrawl/v2/batch/scrape', { urls: [`${site.url}/`], formats: ['summary'] }),
    );
    await expectRefused(
      await post('/firecrawl/v2/crawl', {
        url: `${site.url}/`,
        limit: 2,
        scrapeOptions: { formats: ['summary'] },
      }),
    );
    await expectRefused(
      await post('/firecrawl/v2/search', {
        query: 'article',
        limit: 1,
        scrapeOptions: { formats: ['summary'] },
      }),
    );
    await expectRefused(await post('/firecrawl/v2/extract', { urls: [`${site.url}/`], prompt: 'the title' }));
    const html = Buffer.from('<html><body><h1>Uploaded</h1><p>Some text to summarize.</p></body></html>');
    await expectRefused(
      await request(stack.url)
        .post('/v1/parse')
        .query({ formats: 'summary' })
        .set(account.auth)
        .set('Content-Type', 'text/html')
        .send(html),
    );
    await expectRefused(
      await request(stack.url)
        .post('/firecrawl/v2/parse')
        .set(account.auth)
        .attach('file', html, { filename: 'page.html', contentType: 'text/html' })
        .field('options', JSON.stringify({ formats: ['summary'] })),
    );
    // Nothing was fetched for any of them.
    expect(site.requests.slice(seenBefore)).toEqual([]);
  });
});
