import { REFUSED_FIRECRAWL_OPTIONS } from '@wcs/gateway';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack } from './harness';

/** GET /v1/capabilities of a stack without a model and of one with a model and proxies. */

const SECRET_KEY = 'sk-ant-test-secret-0123456789';
const PROXY_PASSWORD = 'pr0xy-pa55word';

let bare: Stack;
let equipped: Stack;

beforeAll(async () => {
  bare = await startStack({ worker: false, env: { BROWSER_ENABLED: 'false' } });
  equipped = await startStack({
    worker: false,
    env: {
      ANTHROPIC_API_KEY: SECRET_KEY,
      EXTRACT_MODEL: 'claude-test-model',
      PROXY_URLS: `http://user:${PROXY_PASSWORD}@127.0.0.1:45101,http://127.0.0.1:45102`,
      SEARCH_PROVIDER: 'embedded',
      BATCH_ITEM_TIMEOUT_MS: '12345',
      CRAWL_PAGE_TIMEOUT_MS: '23456',
    },
  });
});
afterAll(async () => {
  await bare?.close();
  await equipped?.close();
});

describe('GET /v1/capabilities', () => {
  it('a stack without a model or proxies: extract not configured, no browser, limits of the plan; free', async () => {
    const account = await createTestAccount({ plan: 'hobby', credits: 5 });
    const res = await request(bare.url).get('/v1/capabilities').set(account.auth);
    expect(res.status).toBe(200);
    const c = res.body.data;
    expect(c.extract).toEqual({ configured: false, provider: 'anthropic', model: null });
    expect(c.engines).toEqual({ choices: ['auto', 'fetch', 'browser'], fetch: true, browser: false });
    expect(c.proxies).toEqual({ count: 0, mode: 'auto' });
    expect(c.search).toEqual({ provider: 'embedded' });
    expect(c.documents).toMatchObject({
      types: ['pdf', 'docx'],
      uploadTypes: ['pdf', 'docx', 'html'],
      ocr: { enabled: false, languages: null },
    });
    expect(c.formats.format).toEqual(['markdown', 'html', 'text', 'json']);
    expect(c.formats.formats).toEqual(expect.arrayContaining(['markdown', 'links', 'screenshot']));
    expect(c.pageOptions).toEqual(
      expect.arrayContaining(['headers', 'actions', 'mobile', 'location', 'proxy']),
    );
    expect(c.limits).toMatchObject({
      batchUrls: 500,
      crawlPages: 10_000,
      searchResults: 20,
      bodyBytes: Number(bare.env.BODY_LIMIT_BYTES ?? 1_048_576),
      scrapeTimeoutMsMax: 120_000,
      waitForMsMax: 30_000,
      mapTimeoutMsDefault: 60_000,
      mapTimeoutMsMax: 120_000,
      extractTimeoutMsDefault: 90_000,
      extractTimeoutMsMax: 300_000,
      batchItemTimeoutMs: Number(bare.env.BATCH_ITEM_TIMEOUT_MS ?? 30_000),
      crawlPageTimeoutMs: Number(bare.env.CRAWL_PAGE_TIMEOUT_MS ?? 30_000),
      actions: 50,
      actionsWaitMsMax: 60_000,
      rateLimit: { plan: 'hobby', requests: Number(bare.env.RATE_LIMIT_HOBBY), windowSeconds: 60 },
    });
    expect(c.credits).toMatchObject({
      scrape: 1,
      extract: 5,
      searchPerResult: 2,
      parse: 1,
      summary: 5,
      changeTrackingJson: 5,
    });
    // The Firecrawl routes come from the router itself; refused ones are named apart.
    expect(c.firecrawl.routes).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/v2/scrape' },
        { method: 'POST', path: '/v1/crawl' },
        { method: 'GET', path: '/v2/crawl/:id' },
        { method: 'POST', path: '/v2/batch/scrape' },
        { method: 'POST', path: '/v2/parse' },
      ]),
    );
    expect(c.firecrawl.routes.some((r: { path: string }) => r.path.includes('agent'))).toBe(false);
    expect(c.firecrawl.unsupported).toEqual(expect.arrayContaining(['v2 agent', 'v2 parse/formats']));
    expect(c.firecrawl.unsupported).not.toContain('v2 parse');
    expect(c.firecrawl.refusedOptions).toEqual(
      REFUSED_FIRECRAWL_OPTIONS.map(({ endpoint, option, refused }) => ({ endpoint, option, refused })),
    );
    expect(c.firecrawl.refusedOptions).toEqual(
      expect.arrayContaining([
        { endpoint: 'POST /v2/map', option: 'ignoreQueryParameters', refused: 'true' },
      ]),
    );
    // Every refusal listed is real: a 400 naming the option.
    const base: Record<string, Record<string, unknown>> = {
      crawl: { url: 'http://127.0.0.1:9/' },
      'batch/scrape': { urls: ['http://127.0.0.1:9/'] },
      map: { url: 'http://127.0.0.1:9/' },
      search: { query: 'fixture' },
      scrape: { url: 'http://127.0.0.1:9/' },
      extract: { urls: ['http://127.0.0.1:9/'], prompt: 'x' },
    };
    const html = Buffer.from('<html><body><p>A file.</p></body></html>');
    for (const r of REFUSED_FIRECRAWL_OPTIONS) {
      const path = r.endpoint.replace(/^POST /, '');
      const name = path.replace(/^\/v\d\//, '');
      const call = request(bare.url).post(`/firecrawl${path}`).set(account.auth);
      const res =
        name === 'parse'
          ? await call
              .field('options', JSON.stringify(r.example))
              .attach('file', html, { filename: 'a.html', contentType: 'text/html' })
          : await call.send({ ...base[name], ...r.example });
      expect({ endpoint: r.endpoint, option: r.option, status: res.status }).toEqual({
        endpoint: r.endpoint,
        option: r.option,
        status: 400,
      });
      expect({ endpoint: r.endpoint, error: res.body.error }).toEqual({
        endpoint: r.endpoint,
        error: expect.stringContaining(r.option),
      });
    }
    // Every endpoint that refuses options is covered, parse and extract included.
    expect(new Set(REFUSED_FIRECRAWL_OPTIONS.map((r) => r.endpoint.split('/')[2]))).toEqual(
      new Set(['scrape', 'crawl', 'batch', 'map', 'search', 'extract', 'parse']),
    );
    expect(await balanceOf(account.accountId)).toBe(5);
    expect((await request(bare.url).get('/v1/capabilities')).status).toBe(401);
  });

  it('a stack with a model and proxies: provider and model named, proxies counted, no secret shown', async () => {
    const account = await createTestAccount({ plan: 'free', credits: 1 });
    const res = await request(equipped.url).get('/v1/capabilities').set(account.auth);
    expect(res.status).toBe(200);
    const c = res.body.data;
    expect(c.extract).toEqual({ configured: true, provider: 'anthropic', model: 'claude-test-model' });
    expect(c.proxies).toEqual({ count: 2, mode: 'auto' });
    expect(c.engines.browser).toBe(true);
    expect(c.limits).toMatchObject({ batchItemTimeoutMs: 12_345, crawlPageTimeoutMs: 23_456 });
    expect(c.limits.rateLimit).toMatchObject({
      plan: 'free',
      requests: Number(equipped.env.RATE_LIMIT_FREE),
    });
    expect(res.text).not.toContain(SECRET_KEY);
    expect(res.text).not.toContain(PROXY_PASSWORD);
    expect(res.text).not.toContain('45101');
  });
});
