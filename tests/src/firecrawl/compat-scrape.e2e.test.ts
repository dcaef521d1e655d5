/**
 * The Firecrawl-compatible scrape, map, search, extract and team routes over raw HTTP:
 * the exact shapes the SDKs read, billing as native, and refusals naming the caller's field.
 * Gateway + scrape, map and extract workers in this process, the fixture site as the target, a
 * SearXNG fixture as the search provider and a fake Anthropic server as the model.
 */
import {
  type FakeLlmServer,
  type FixtureSite,
  fixtureArticle,
  type SearxngFixture,
  startFakeAnthropic,
  startFixtureSite,
  startSearxngFixture,
} from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  type TestAccount,
} from '../harness';

const TITLE = 'Understanding Web Content Extraction';

let site: FixtureSite;
let searxng: SearxngFixture;
let fake: FakeLlmServer;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  [site, searxng, fake] = await Promise.all([
    startFixtureSite({ pages: 6 }),
    startSearxngFixture(),
    startFakeAnthropic(() => ({ data: { title: TITLE } })),
  ]);
  stack = await startStack({
    mapWorker: true,
    extractWorker: true,
    env: {
      BROWSER_ENABLED: 'false',
      FETCH_TIMEOUT_MS: '5000',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searxng.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: fake.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
      RATE_LIMIT_FREE: '3',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });
  account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), searxng?.close(), fake?.close()]);
});

const post = (path: string, body: unknown, auth = account.auth) =>
  request(stack.url)
    .post(`/firecrawl${path}`)
    .set(auth)
    .send(body as object);
const get = (path: string, auth = account.auth) => request(stack.url).get(`/firecrawl${path}`).set(auth);

describe('scrape', () => {
  it('v2: the formats asked for, Firecrawl metadata, no native-only fields, 1 credit', async () => {
    const before = await balanceOf(account.accountId);
    const res = await post('/v2/scrape', {
      url: `${site.url}/`,
      formats: ['markdown', { type: 'html' }, 'links', 'images'],
      origin: 'js-sdk@4.42.0',
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const doc = res.body.data;
    expect(Object.keys(doc).sort()).toEqual(['html', 'images', 'links', 'markdown', 'metadata', 'success']);
    expect(doc.markdown).toContain(TITLE);
    expect(doc.html).toContain('<h1');
    expect(doc.links).toEqual(expect.arrayContaining([`${site.url}/article/0`]));
    expect(doc.metadata).toMatchObject({
      title: TITLE,
      sourceURL: `${site.url}/`,
      url: `${site.url}/`,
      statusCode: 200,
      creditsUsed: 1,
      proxyUsed: 'basic',
    });
    expect(doc.metadata.contentType).toMatch(/text\/html/);
    expect(typeof doc.metadata.scrapeId).toBe('string');
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('v2: a json format runs the native extract with the converted schema; 1 + 5 credits', async () => {
    fake.requests.length = 0;
    const before = await balanceOf(account.accountId);
    const res = await post('/v2/scrape', {
      url: `${site.url}/`,
      formats: [
        {
          type: 'json',
          prompt: 'The article title',
          schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.json).toEqual({ title: TITLE });
    // json alone: no markdown in the document, but its metadata is there.
    expect(res.body.data.markdown).toBeUndefined();
    expect(res.body.data.metadata).toMatchObject({ title: TITLE, creditsUsed: 6 });
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(fake.requests[0]?.body)).toContain('The article title');
    expect(await balanceOf(account.accountId)).toBe(before - 6);
  });

  it('v1: the extract format answers under `extract`, html under html', async () => {
    const res = await post('/v1/scrape', {
      url: `${site.url}/`,
      formats: ['html', 'extract'],
      extract: { schema: { type: 'object', properties: { title: { type: 'string' } } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.extract).toEqual({ title: TITLE });
    expect(res.body.data.json).toBeUndefined();
    expect(res.body.data.html).toContain('<h1');
    expect(res.body.data.markdown).toBeUndefined();
  });

  it('refusals name the field as the caller sent it, and charge nothing', async () => {
    const before = await balanceOf(account.accountId);
    const cases: Array<[unknown, RegExp]> = [
      [{ url: `${site.url}/`, proxy: 'stealth' }, /^proxy: "stealth" is not supported/],
      [
        { url: `${site.url}/`, formats: ['markdown', 'links', 'branding'] },
        /^formats\.2: the "branding" format/,
      ],
      [{ url: `${site.url}/`, waitFor: 60_000 }, /^waitFor: /],
      [{ url: `${site.url}/`, includeTags: ['div[['] }, /^includeTags: /],
      [{ url: `${site.url}/`, onlyMainContnet: false }, /onlyMainContnet.*did you mean "onlyMainContent"/],
      [
        {
          url: `${site.url}/`,
          formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'null' } } } }],
        },
        /^formats\.0\.schema\.properties\.a\.type: "null" is not supported/,
      ],
      [{ url: 'not a url' }, /url/i],
    ];
    for (const [body, message] of cases) {
      const res = await post('/v2/scrape', body);
      expect({ status: res.status, success: res.body.success }).toEqual({ status: 400, success: false });
      expect(res.body.error).toMatch(message);
    }
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('a private target is refused like the native scrape (same address policy)', async () => {
    const strict = await startStack({ env: { ALLOW_PRIVATE_TARGETS: 'false', BROWSER_ENABLED: 'false' } });
    const before = await balanceOf(account.accountId);
    try {
      const res = await request(strict.url)
        .post('/firecrawl/v2/scrape')
        .set(account.auth)
        .send({ url: 'http://127.0.0.1:9/' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'TARGET_FORBIDDEN' });
      // Refused before the charge, like the native scrape.
      expect(await balanceOf(account.accountId)).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

describe('auth, credits and rate limits as the SDKs map them', () => {
  it('401 for a bad key, 402 naming credits for an empty account, 429 with Retry-After', async () => {
    const bad = await post('/v2/scrape', { url: `${site.url}/` }, { Authorization: 'Bearer fc-nope' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect(typeof bad.body.error).toBe('string');

    const broke = await createTestAccount({ plan: 'hobby', credits: 0 });
    const poor = await post('/v2/scrape', { url: `${site.url}/` }, broke.auth);
    expect(poor.status).toBe(402);
    expect(poor.body.error).toMatch(/credit/i);
    const poorExtract = await post('/v2/extract', { urls: [`${site.url}/`], prompt: 'x' }, broke.auth);
    expect(poorExtract.status).toBe(402);
    expect(await balanceOf(broke.accountId)).toBe(0);

    const free = await createTestAccount({ plan: 'free', credits: 100 });
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await get('/v2/team/credit-usage', free.auth);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(last?.status).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('map', () => {
  it('v2 links are { url, title?, description? } objects, capped by limit; v1 links are strings', async () => {
    const res = await post('/v2/map', { url: `${site.url}/`, limit: 100, sitemap: 'include' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.links).toEqual(
      expect.arrayContaining([expect.objectContaining({ url: `${site.url}/article/1` })]),
    );
    // The start page was fetched: its title and description come with it.
    expect(res.body.links[0]).toEqual({
      url: `${site.url}/`,
      title: 'Understanding Web Content Extraction',
      description: 'Understanding Web Content Extraction — a fixture page for the web content service.',
    });
    const capped = await post('/v2/map', { url: `${site.url}/`, limit: 2 });
    expect(capped.body.links).toHaveLength(2);
    const v1 = await post('/v1/map', { url: `${site.url}/`, search: 'article', ignoreSitemap: true });
    expect(v1.status).toBe(200);
    expect(v1.body.links.length).toBeGreaterThan(0);
    for (const l of v1.body.links) expect(l).toEqual(expect.stringContaining('article'));
  });

  it('sitemap "only" (v1 sitemapOnly) lists the sitemap URLs alone', async () => {
    const only = await post('/v2/map', { url: `${site.url}/`, sitemap: 'only', limit: 1000 });
    expect(only.status).toBe(200);
    const onlyUrls = only.body.links.map((l: { url: string }) => l.url).sort();
    // The fixture's sitemap: the home page and its 6 articles.
    const sitemap = [
      `${site.url}/`,
      ...Array.from({ length: 6 }, (_, i) => `${site.url}/article/${i}`),
    ].sort();
    expect(onlyUrls).toEqual(sitemap);
    const v1 = await post('/v1/map', { url: `${site.url}/`, sitemapOnly: true, limit: 1000 });
    expect([...v1.body.links].sort()).toEqual(sitemap);
  });

  it('refuses query-stripping and a limit past the native cap, by name', async () => {
    const big = await post('/v2/map', { url: `${site.url}/`, limit: 200_000 });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^limit: /);
    const q = await post('/v2/map', { url: `${site.url}/`, ignoreQueryParameters: true });
    expect(q.body.error).toMatch(/^ignoreQueryParameters/);
  });
});

describe('search', () => {
  beforeEach(() => {
    searxng.configure({
      results: [3, 4].map((n) => ({
        url: `${site.url}/article/${n}`,
        title: fixtureArticle(n).title,
        content: `About ${fixtureArticle(n).title}`,
      })),
    });
  });

  it('v2: hits in data.web, scraped only when scrapeOptions asks; v1: data is the array', async () => {
    const plain = await post('/v2/search', { query: 'energy', limit: 2 });
    expect(plain.status).toBe(200);
    expect(plain.body.data.web).toEqual([
      {
        url: `${site.url}/article/3`,
        title: fixtureArticle(3).title,
        description: expect.any(String),
        position: 1,
      },
      {
        url: `${site.url}/article/4`,
        title: fixtureArticle(4).title,
        description: expect.any(String),
        position: 2,
      },
    ]);
    const scraped = await post('/v2/search', {
      query: 'energy',
      limit: 2,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(scraped.status).toBe(200);
    const hit = scraped.body.data.web[0];
    expect(hit.markdown).toContain(fixtureArticle(3).title);
    expect(hit.metadata).toMatchObject({ sourceURL: `${site.url}/article/3`, statusCode: 200 });
    // v1 SDK's defaults: lang, country and `scrapeOptions: { formats: [] }` (no scrape).
    const v1 = await post('/v1/search', {
      query: 'energy',
      limit: 1,
      lang: 'en',
      country: 'us',
      timeout: 60_000,
      scrapeOptions: { formats: [] },
    });
    expect(v1.status).toBe(200);
    expect(v1.body.data).toEqual([expect.objectContaining({ url: `${site.url}/article/3` })]);
    expect(v1.body.data[0].markdown).toBeUndefined();
  });

  it('refuses other sources, tbs, page options and a limit past 20, by name', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ query: 'x', sources: ['web', 'news'] }, /^sources\.1: "news" is not supported/],
      [{ query: 'x', tbs: 'qdr:d' }, /^tbs: /],
      [{ query: 'x', limit: 50 }, /^limit: /],
      [
        { query: 'x', scrapeOptions: { formats: ['links'] } },
        /^scrapeOptions\.formats\.0: "links" is not supported by search/,
      ],
      [{ query: 'x', scrapeOptions: { waitFor: 10 } }, /^scrapeOptions\.waitFor: is not supported by search/],
    ];
    for (const [body, message] of cases) {
      const res = await post('/v2/search', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});

describe('extract', () => {
  it('v2: start answers an id; its status completes with the data; only the owner can read it', async () => {
    const before = await balanceOf(account.accountId);
    const start = await post('/v2/extract', {
      urls: [`${site.url}/`],
      prompt: 'The title',
      schema: { type: 'object', properties: { title: { type: 'string' } } },
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ success: true, id: expect.any(String) });
    const id = start.body.id as string;
    const done = await pollUntil(async () => {
      const st = await get(`/v2/extract/${id}`);
      return st.body.status === 'processing' ? undefined : st;
    }, 30_000);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      status: 'completed',
      data: { title: TITLE },
      creditsUsed: 5,
    });
    expect(Date.parse(done.body.expiresAt)).toBeGreaterThan(Date.now());
    expect(await balanceOf(account.accountId)).toBe(before - 5);

    const other = await createTestAccount({ plan: 'hobby', credits: 10 });
    expect((await get(`/v2/extract/${id}`, other.auth)).status).toBe(404);
    expect((await get('/v2/extract/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('v1: the same at /v1/extract; a failing extract reads failed with the reason', async () => {
    const start = await post('/v1/extract', { urls: [`${site.url}/article/2`], prompt: 'Title' });
    const done = await pollUntil(async () => {
      const st = await get(`/v1/extract/${start.body.id}`);
      return st.body.status === 'processing' ? undefined : st;
    }, 30_000);
    expect(done.body).toMatchObject({ success: true, status: 'completed', data: { title: TITLE } });

    const missing = await post('/v1/extract', { urls: [`${site.url}/no-such-page-404`], prompt: 'Title' });
    expect(missing.status).toBe(200);
    const failed = await pollUntil(async () => {
      const st = await get(`/v1/extract/${missing.body.id}`);
      return st.body.status === 'processing' ? undefined : st;
    }, 30_000);
    expect(failed.body).toMatchObject({ success: false, status: 'failed', data: null });
    expect(typeof failed.body.error).toBe('string');
  });

  it('refuses several URLs, wildcards and options it cannot honour, by name', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ urls: [`${site.url}/`, `${site.url}/about`], prompt: 'x' }, /^urls: give exactly one URL/],
      [{ urls: [`${site.url}/*`], prompt: 'x' }, /^urls\.0: wildcards/],
      [{ urls: [`${site.url}/`], prompt: 'x', enableWebSearch: true }, /^enableWebSearch/],
      [{ urls: [`${site.url}/`] }, /schema|prompt/],
      [{ urls: ['ftp://example.com/x'], prompt: 'x' }, /^urls\.0: /],
      [
        { urls: [`${site.url}/`], prompt: 'x', scrapeOptions: { waitFor: 99_999 } },
        /^scrapeOptions\.waitFor: /,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post('/v2/extract', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});

describe('team and unsupported endpoints', () => {
  it('credit usage reports the balance and the plan, v2 camelCase and v1 snake_case', async () => {
    const balance = await balanceOf(account.accountId);
    const v2 = await get('/v2/team/credit-usage');
    expect(v2.body).toEqual({
      success: true,
      data: {
        remainingCredits: balance,
        planCredits: 5_000,
        billingPeriodStart: expect.stringMatching(/-01T00:00:00\.000Z$/),
        billingPeriodEnd: expect.stringMatching(/-01T00:00:00\.000Z$/),
      },
    });
    const v1 = await get('/v1/team/credit-usage');
    expect(v1.body.data).toMatchObject({ remaining_credits: balance, plan_credits: 5_000 });
  });

  it('endpoints this service does not offer answer 501 naming them', async () => {
    const agent = await post('/v2/agent', { prompt: 'x' });
    expect(agent.status).toBe(501);
    expect(agent.body).toMatchObject({
      success: false,
      error: 'Firecrawl v2 agent is not supported by this service',
    });
    const llms = await get('/v1/llmstxt/abc');
    expect(llms.status).toBe(501);
    expect(llms.body.error).toMatch(/llmstxt is not supported/);
    expect((await get('/v2/team/token-usage')).status).toBe(501);
  });
});
