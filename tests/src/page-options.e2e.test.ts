/**
 * Page options of POST /v1/scrape end to end: gateway + scrape worker in this process,
 * real Chromium, PostgreSQL and Redis, a local fixture site that echoes what it receives, and a
 * local forward proxy that records what passes through it.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDb } from '@wcs/db';
import { loadGatewayEnv, type RunningGateway, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import { createRedisConnection } from '@wcs/queues';
import { loadScrapeWorkerEnv, type RunningScrapeWorker, startScrapeWorker } from '@wcs/scrape-worker';
import {
  type ForwardProxy,
  type PageOptionsSite,
  PO_CLICK_TEXT,
  PO_TAGGED,
  PO_TYPE_PREFIX,
  startForwardProxy,
  startPageOptionsSite,
} from '@wcs/testing';
import request from 'supertest';
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

let stack: Stack;
let site: PageOptionsSite;
let account: TestAccount;

beforeAll(async () => {
  site = await startPageOptionsSite();
  stack = await startStack();
  account = await createTestAccount({ credits: 500 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const scrape = (body: Record<string, unknown>, auth = account.auth, base = stack.url) =>
  request(base).post('/v1/scrape').set(auth).send(body);

/** Width and height from a PNG's IHDR, after checking the 8-byte signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** GET a screenshot URL (its path, on this stack) with a key: status, type and bytes. */
async function fetchShot(url: string, auth: { Authorization: string }) {
  const path = new URL(url).pathname;
  const res = await fetch(`${stack.url}${path}`, { headers: auth });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

describe('headers and cookies', () => {
  it('fetch engine: headers and the Cookie header reach the page', async () => {
    const res = await scrape({
      url: `${site.url}/echo`,
      engine: 'fetch',
      onlyMainContent: false,
      headers: { 'X-Po-Test': 'fetch-value-1', Cookie: 'flavour=oat; size=large' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('header x-po-test = fetch-value-1');
    expect(res.body.data.markdown).toContain('cookie flavour = oat');
    expect(res.body.data.markdown).toContain('cookie size = large');
  });

  it('browser engine: headers are sent and Cookie becomes cookies of the target', async () => {
    const res = await scrape({
      url: `${site.url}/echo`,
      engine: 'browser',
      onlyMainContent: false,
      headers: { 'X-Po-Test': 'browser-value-2', Cookie: 'flavour=rye' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('header x-po-test = browser-value-2');
    expect(res.body.data.markdown).toContain('cookie flavour = rye');
    const last = site.requestsTo('/echo').at(-1);
    expect(last?.headers['x-po-test']).toBe('browser-value-2');
    expect(last?.headers.cookie).toContain('flavour=rye');
  });

  it.each(['fetch', 'browser'])(
    '%s engine: the headers (Authorization, Cookie, any other) are dropped on a redirect to another origin, kept on the same one',
    async (engine) => {
      const headers = {
        Authorization: 'Bearer leak-me-not',
        Cookie: 'sid=leak-me-not',
        'X-Api-Key': 'leak-me-not',
      };
      const cross = `http://localhost:${site.port}/echo?after=cross-${engine}`;
      const res = await scrape({
        url: `${site.url}/redirect?to=${encodeURIComponent(cross)}`,
        engine,
        onlyMainContent: false,
        headers,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.metadata.finalUrl).toBe(cross);
      const there = site.requests.find((r) => r.search === `?after=cross-${engine}`);
      expect(there?.headers.host).toBe(`localhost:${site.port}`);
      expect({
        authorization: there?.headers.authorization,
        cookie: there?.headers.cookie,
        key: there?.headers['x-api-key'],
      }).toEqual({ authorization: undefined, cookie: undefined, key: undefined });
      expect(res.body.data.markdown).not.toContain('leak-me-not');

      const same = await scrape({
        url: `${site.url}/redirect?to=${encodeURIComponent(`/echo?after=same-${engine}`)}`,
        engine,
        onlyMainContent: false,
        headers,
      });
      expect(same.status).toBe(200);
      const here = site.requests.find((r) => r.search === `?after=same-${engine}`);
      expect(here?.headers.authorization).toBe('Bearer leak-me-not');
      expect(here?.headers.cookie).toContain('sid=leak-me-not');
      expect(here?.headers['x-api-key']).toBe('leak-me-not');
    },
  );

  it.each(['fetch', 'browser'])(
    "%s engine: headersScope 'all' lets the headers but the credentials follow a redirect to another origin",
    async (engine) => {
      const cross = `http://localhost:${site.port}/echo?after=all-${engine}`;
      const res = await scrape({
        url: `${site.url}/redirect?to=${encodeURIComponent(cross)}`,
        engine,
        onlyMainContent: false,
        headers: { Authorization: 'Bearer stays-home', 'X-Api-Key': 'goes-along' },
        headersScope: 'all',
      });
      expect(res.status).toBe(200);
      const there = site.requests.find((r) => r.search === `?after=all-${engine}`);
      expect(there?.headers['x-api-key']).toBe('goes-along');
      expect(there?.headers.authorization).toBeUndefined();
    },
  );

  it('browser engine: no header of the caller reaches another origin the page loads from', async () => {
    const res = await scrape({
      url: `${site.url}/cross`,
      engine: 'browser',
      onlyMainContent: false,
      formats: ['text'],
      headers: {
        Authorization: 'Bearer third-party-must-not-see',
        Cookie: 'sid=third-party-must-not-see',
        'X-Api-Key': 'third-party-must-not-see',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.text).toContain('probe loaded');
    expect(site.requestsTo('/cross').at(-1)?.headers.authorization).toBe('Bearer third-party-must-not-see');
    const probe = site.requestsTo('/probe.js').at(-1);
    expect(probe?.headers.host).toBe(`localhost:${site.port}`);
    expect({
      authorization: probe?.headers.authorization,
      cookie: probe?.headers.cookie,
      key: probe?.headers['x-api-key'],
    }).toEqual({ authorization: undefined, cookie: undefined, key: undefined });
  });
});

describe('formats', () => {
  it('rawHtml, links and images only: data holds exactly those and metadata', async () => {
    const res = await scrape({ url: `${site.url}/links`, formats: ['rawHtml', 'links', 'images'] });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['images', 'links', 'metadata', 'rawHtml']);
    expect(data.rawHtml).toContain('<img src="/pixel.png"');
    expect(data.links).toEqual([`${site.url}/echo`, `${site.url}/tagged?x=1`, 'https://example.org/away']);
    expect(data.images).toEqual([`${site.url}/pixel.png`, `${site.url}/other.png`]);
  });

  it('markdown alone; text and html alone', async () => {
    const md = await scrape({ url: `${site.url}/tagged`, formats: ['markdown'] });
    expect(md.status).toBe(200);
    expect(Object.keys(md.body.data).sort()).toEqual(['markdown', 'metadata']);
    const th = await scrape({ url: `${site.url}/tagged`, formats: ['text', 'html'] });
    expect(th.status).toBe(200);
    expect(Object.keys(th.body.data).sort()).toEqual(['html', 'metadata', 'text']);
    expect(th.body.data.text).toContain('Articleword');
  });
});

describe('includeTags / excludeTags', () => {
  it('includeTags keeps only the matching elements (onlyMainContent false)', async () => {
    const res = await scrape({
      url: `${site.url}/tagged`,
      onlyMainContent: false,
      includeTags: ['article'],
      formats: ['text'],
    });
    expect(res.status).toBe(200);
    const text = res.body.data.text as string;
    expect(text).toContain(PO_TAGGED.article);
    for (const out of [PO_TAGGED.header, PO_TAGGED.nav, PO_TAGGED.aside, PO_TAGGED.footer]) {
      expect(text).not.toContain(out);
    }
  });

  it('excludeTags removes the matching elements and keeps the rest', async () => {
    const res = await scrape({
      url: `${site.url}/tagged`,
      onlyMainContent: false,
      excludeTags: ['.ad', 'aside'],
      formats: ['text'],
    });
    expect(res.status).toBe(200);
    const text = res.body.data.text as string;
    expect(text).toContain(PO_TAGGED.article);
    expect(text).toContain(PO_TAGGED.header);
    expect(text).toContain(PO_TAGGED.footer);
    expect(text).not.toContain(PO_TAGGED.ad);
    expect(text).not.toContain(PO_TAGGED.aside);
  });

  it('with onlyMainContent true too; an includeTags that matches nothing is empty content', async () => {
    const main = await scrape({ url: `${site.url}/tagged`, excludeTags: ['.ad'], formats: ['markdown'] });
    expect(main.status).toBe(200);
    expect(main.body.data.markdown).toContain('Articleword');
    expect(main.body.data.markdown).not.toContain('Adword');
    const none = await scrape({
      url: `${site.url}/tagged`,
      includeTags: ['.nothing-here'],
      formats: ['text'],
    });
    expect(none.status).toBe(200);
    expect((none.body.data.text as string).trim()).toBe('');
  });
});

describe('mobile and location', () => {
  it('through the browser: a phone viewport and user agent, the country’s language and timezone', async () => {
    const res = await scrape({
      url: `${site.url}/mobile`,
      engine: 'browser',
      mobile: true,
      location: { country: 'DE' },
      formats: ['text'],
    });
    expect(res.status).toBe(200);
    const text = res.body.data.text as string;
    expect(text).toContain('width=412');
    expect(text).toMatch(/ua=.*Mobile/);
    expect(text).toContain('touch=');
    expect(text).not.toContain('touch=0');
    expect(text).toContain('lang=de-DE');
    expect(text).toContain('tz=Europe/Berlin');
    const req = site.requestsTo('/mobile').at(-1);
    expect(req?.headers['accept-language']).toMatch(/^de-DE/);
    expect(req?.headers['user-agent']).toMatch(/Mobile/);
  });

  it('desktop by default, even on the page slot a mobile render used', async () => {
    const res = await scrape({ url: `${site.url}/mobile`, engine: 'browser', formats: ['text'] });
    expect(res.status).toBe(200);
    expect(res.body.data.text).toContain('width=1280');
    expect(res.body.data.text).not.toMatch(/ua=.*Mobile/);
  });

  it('fetch engine: the mobile user agent and Accept-Language of the languages given', async () => {
    const res = await scrape({
      url: `${site.url}/echo`,
      engine: 'fetch',
      mobile: true,
      location: { country: 'CH', languages: ['fr-CH'] },
      onlyMainContent: false,
      formats: ['markdown'],
    });
    expect(res.status).toBe(200);
    const last = site.requestsTo('/echo').at(-1);
    expect(last?.headers['accept-language']).toMatch(/^fr-CH/);
    expect(last?.headers['user-agent']).toMatch(/Android.*Mobile/);
    expect(res.body.data.markdown).toMatch(/header accept-language = fr-CH/);
  });
});

describe('actions', () => {
  it('click: content that appears only after the click', async () => {
    const plain = await scrape({ url: `${site.url}/click`, engine: 'browser', formats: ['markdown'] });
    expect(plain.status).toBe(200);
    expect(plain.body.data.markdown).not.toContain(PO_CLICK_TEXT);
    const res = await scrape({
      url: `${site.url}/click`,
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait', selector: '#revealed' },
      ],
      formats: ['markdown'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain(PO_CLICK_TEXT);
  });

  it('click, write, press Enter: the typed text comes back', async () => {
    const res = await scrape({
      url: `${site.url}/type`,
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'harbour cranes' },
        { type: 'press', key: 'Enter' },
      ],
      formats: ['markdown', 'rawHtml'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain(`${PO_TYPE_PREFIX} harbour cranes`);
    // rawHtml is the DOM after the actions.
    expect(res.body.data.rawHtml).toContain('id="result"');
  });

  it('executeJavascript: return values in order with their types; scroll and wait in between', async () => {
    const res = await scrape({
      url: `${site.url}/click`,
      actions: [
        { type: 'executeJavascript', script: 'return document.title' },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', milliseconds: 50 },
        { type: 'executeJavascript', script: 'return { n: 1 + 1, list: [true, null] }' },
        { type: 'executeJavascript', script: 'document.body.dataset.x = "y"' },
      ],
      formats: ['markdown'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Click' },
      { type: 'object', value: { n: 2, list: [true, null] } },
      { type: 'undefined', value: null },
    ]);
    expect(res.body.data.actions.screenshots).toEqual([]);
  });
});

describe('screenshots', () => {
  it('screenshot: a 1280×720 PNG at a capability URL (served without a key: screenshot-urls.e2e)', async () => {
    const res = await scrape({ url: `${site.url}/tagged`, formats: ['markdown', 'screenshot'] });
    expect(res.status).toBe(200);
    const url = res.body.data.screenshot as string;
    expect(url).toMatch(/\/v1\/screenshots\/[A-Za-z0-9_-]{74}\.png$/);
    const shot = await fetchShot(url, account.auth);
    expect(shot.status).toBe(200);
    expect(shot.type).toBe('image/png');
    expect(pngSize(shot.body)).toEqual({ width: 1280, height: 720 });
  });

  it('an expired screenshot is a 404', async () => {
    const res = await scrape({ url: `${site.url}/tagged`, formats: ['screenshot'] });
    const url = res.body.data.screenshot as string;
    expect((await fetchShot(url, account.auth)).status).toBe(200);
    // The token's bytes 1..17 are the screenshot id.
    const hex = Buffer.from(/([A-Za-z0-9_-]{74})\.png$/.exec(url)?.[1] ?? '', 'base64url')
      .subarray(1, 17)
      .toString('hex');
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const db = createDb(TEST_DATABASE_URL);
    try {
      await db.prisma.screenshot.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    } finally {
      await db.close();
    }
    expect((await fetchShot(url, account.auth)).status).toBe(404);
  });

  it('mobile screenshot: the phone’s 1082×2402 pixels', async () => {
    const res = await scrape({ url: `${site.url}/tagged`, mobile: true, formats: ['screenshot'] });
    expect(res.status).toBe(200);
    const shot = await fetchShot(res.body.data.screenshot as string, account.auth);
    expect(shot.status).toBe(200);
    expect(pngSize(shot.body)).toEqual({ width: 1082, height: 2402 });
  });

  it('screenshot@fullPage: the whole page, 1280 wide; a screenshot action adds its URL', async () => {
    const res = await scrape({
      url: `${site.url}/tagged`,
      formats: ['screenshot@fullPage'],
      actions: [{ type: 'screenshot' }],
    });
    expect(res.status).toBe(200);
    const full = await fetchShot(res.body.data.screenshot as string, account.auth);
    expect(full.status).toBe(200);
    const size = pngSize(full.body);
    expect(size.width).toBe(1280);
    expect(size.height).toBeGreaterThan(0);
    expect(res.body.data.actions.screenshots).toHaveLength(1);
    const action = await fetchShot(res.body.data.actions.screenshots[0] as string, account.auth);
    expect(pngSize(action.body)).toEqual({ width: 1280, height: 720 });
  });
});

describe('page cache (maxAge)', () => {
  const counter = (key: string) => `${site.url}/counter?k=${key}`;

  it('a miss stores, a hit serves without a visit and still costs 1 credit', async () => {
    const key = randomUUID();
    const before = await balanceOf(account.accountId);
    const first = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(first.status).toBe(200);
    expect(first.body.data.metadata.cacheState).toBe('miss');
    expect(Date.parse(first.body.data.metadata.cachedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(site.counterVisits(`?k=${key}`)).toBe(1);

    const second = await scrape({ url: counter(key), maxAge: 600_000, formats: ['text'] });
    expect(second.status).toBe(200);
    expect(second.body.data.metadata.cacheState).toBe('hit');
    expect(second.body.data.metadata.cachedAt).toBe(first.body.data.metadata.cachedAt);
    // Formats are applied to the copy: text only, and it is the first visit's page.
    expect(second.body.data.text).toContain('Served as visit 1.');
    expect(site.counterVisits(`?k=${key}`)).toBe(1);
    expect(await balanceOf(account.accountId)).toBe(before - 2);
  });

  it('a copy older than maxAge is not served: fetched again and stored anew', async () => {
    const key = randomUUID();
    const first = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(first.body.data.metadata.cacheState).toBe('miss');
    await pollUntil(
      async () => (Date.now() > Date.parse(first.body.data.metadata.cachedAt) + 5 ? true : undefined),
      1_000,
      2,
    );
    const stale = await scrape({ url: counter(key), maxAge: 1 });
    expect(stale.body.data.metadata.cacheState).toBe('miss');
    expect(site.counterVisits(`?k=${key}`)).toBe(2);
    const fresh = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(fresh.body.data.metadata.cacheState).toBe('hit');
    expect(fresh.body.data.metadata.cachedAt).toBe(stale.body.data.metadata.cachedAt);
  });

  it('another account gets the same copy; maxAge 0 always fetches', async () => {
    const key = randomUUID();
    await scrape({ url: counter(key), maxAge: 600_000 }).expect(200);
    const other = await createTestAccount({ credits: 5 });
    const hit = await scrape({ url: counter(key), maxAge: 600_000 }, other.auth);
    expect(hit.body.data.metadata.cacheState).toBe('hit');
    expect(site.counterVisits(`?k=${key}`)).toBe(1);
    const fresh = await scrape({ url: counter(key), maxAge: 0 });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.metadata.cacheState).toBeUndefined();
    expect(site.counterVisits(`?k=${key}`)).toBe(2);
  });

  it('headers make it uncacheable: every request visits, nothing is stored', async () => {
    const key = randomUUID();
    for (let i = 1; i <= 2; i++) {
      const res = await scrape({ url: counter(key), maxAge: 600_000, headers: { 'X-Who': 'me' } });
      expect(res.status).toBe(200);
      expect(res.body.data.metadata.cacheState).toBeUndefined();
      expect(site.counterVisits(`?k=${key}`)).toBe(i);
    }
    // …and a plain request afterwards finds no copy left by them.
    const plain = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(plain.body.data.metadata.cacheState).toBe('miss');
    expect(site.counterVisits(`?k=${key}`)).toBe(3);
  });

  it('actions or a screenshot make it uncacheable; an error page is never stored', async () => {
    const key = randomUUID();
    const visits = () => site.counterVisits(`?k=${key}`);
    const withActions = await scrape({
      url: counter(key),
      maxAge: 600_000,
      actions: [{ type: 'scroll' }],
      formats: ['text'],
    });
    expect(withActions.status).toBe(200);
    expect(withActions.body.data.metadata.cacheState).toBeUndefined();
    const shot = await scrape({ url: counter(key), maxAge: 600_000, formats: ['screenshot'] });
    expect(shot.status).toBe(200);
    expect(shot.body.data.metadata.cacheState).toBeUndefined();
    expect(visits()).toBe(2);
    // Neither left a copy behind.
    const plain = await scrape({ url: counter(key), maxAge: 600_000 });
    expect(plain.body.data.metadata.cacheState).toBe('miss');
    expect(visits()).toBe(3);

    const missing = `${site.url}/no-such-page?k=${key}`;
    for (let i = 0; i < 2; i++) {
      const res = await scrape({ url: missing, maxAge: 600_000 });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('TARGET_HTTP_ERROR');
    }
    expect(site.requests.filter((r) => r.path === '/no-such-page' && r.search === `?k=${key}`)).toHaveLength(
      2,
    );
  });

  it('mobile splits the cache; formats do not', async () => {
    const key = randomUUID();
    await scrape({ url: counter(key), maxAge: 600_000, formats: ['markdown'] }).expect(200);
    const mobile = await scrape({ url: counter(key), maxAge: 600_000, mobile: true });
    expect(mobile.body.data.metadata.cacheState).toBe('miss');
    expect(site.counterVisits(`?k=${key}`)).toBe(2);
    const otherFormats = await scrape({
      url: counter(key),
      maxAge: 600_000,
      formats: ['html', 'links'],
      onlyMainContent: false,
      excludeTags: ['h1'],
    });
    expect(otherFormats.body.data.metadata.cacheState).toBe('hit');
    expect(otherFormats.body.data.html).not.toContain('<h1');
    expect(site.counterVisits(`?k=${key}`)).toBe(2);
  });
});

/**
 * A stack of its own with PROXY_URLS = a recording proxy that needs credentials, its gateway and
 * worker logging everything (debug) into memory: for the proxy and for secrets kept out of logs
 * and out of the job payloads Redis keeps.
 */
describe('upstream proxy and secrets (own stack, debug logs captured)', () => {
  let proxy: ForwardProxy;
  let gateway: RunningGateway;
  let worker: RunningScrapeWorker;
  let base: string;
  let prefix: string;
  const lines: string[] = [];
  const proxyPassword = `pr0xy-${randomUUID()}`;

  beforeAll(async () => {
    proxy = await startForwardProxy({ auth: { username: 'po-user', password: proxyPassword } });
    prefix = `t-${randomUUID().slice(0, 8)}`;
    // PROXY_MODE always: every page through the proxy (by default it is only the ladder's last step).
    const env = {
      ...stack.env,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'debug',
      PROXY_URLS: proxy.proxyUrl,
      PROXY_MODE: 'always',
    };
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ service: 'po-test', level: 'debug' }, destination);
    gateway = await startGateway(loadGatewayEnv(env), logger);
    worker = await startScrapeWorker(loadScrapeWorkerEnv(env), logger);
    base = `http://127.0.0.1:${gateway.port}`;
  });
  afterAll(async () => {
    await worker?.close();
    await gateway?.close();
    await proxy?.close();
  });

  const target = () => `127.0.0.1:${site.port}`;

  it('fetch engine: the page goes through the proxy, with its credentials', async () => {
    const n = proxy.records.length;
    const res = await scrape({ url: `${site.url}/echo?via=fetch`, engine: 'fetch' }, account.auth, base);
    expect(res.status).toBe(200);
    const seen = proxy.records.slice(n).filter((r) => r.target === target());
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.authorized)).toBe(true);
  });

  it('browser engine: the page goes through the proxy too', async () => {
    const n = proxy.records.length;
    const res = await scrape({ url: `${site.url}/echo?via=browser`, engine: 'browser' }, account.auth, base);
    expect(res.status).toBe(200);
    const seen = proxy.records.slice(n).filter((r) => r.target === target());
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.authorized)).toBe(true);
  });

  it('proxy "none" bypasses it (both engines)', async () => {
    const n = proxy.records.length;
    const hits = site.hits('/echo');
    // Addressed as localhost, so this test's own traffic is told apart from late connections of
    // the renders before it (which went to 127.0.0.1 through the proxy, as they should).
    const own = `localhost:${site.port}`;
    for (const engine of ['fetch', 'browser']) {
      const res = await scrape(
        { url: `http://${own}/echo?via=none`, engine, proxy: 'none' },
        account.auth,
        base,
      );
      expect(res.status).toBe(200);
    }
    expect(site.hits('/echo')).toBe(hits + 2);
    expect(proxy.records.slice(n).filter((r) => r.target === own)).toEqual([]);
  });

  it('a caller’s Proxy-Authorization header neither replaces the operator’s credentials nor stalls the render', async () => {
    const answers: Record<string, string> = {};
    for (const engine of ['fetch', 'browser']) {
      const n = proxy.records.length;
      const res = await scrape(
        {
          url: `${site.url}/echo?caller-proxy-auth=${engine}`,
          engine,
          timeout: 8_000,
          headers: { 'Proxy-Authorization': 'Basic Y2FsbGVyOm5vdC10aGUtb3BlcmF0b3I=' },
        },
        account.auth,
        base,
      );
      answers[engine] = `${res.status} ${res.body.code ?? 'ok'}`;
      expect(proxy.records.slice(n).every((r) => r.authorized)).toBe(true);
    }
    // Sent (200) or refused as bad input (400), the same by both engines; never a timeout.
    expect(answers.browser).toBe(answers.fetch);
    expect(answers.fetch).toMatch(/^(200 ok|400 VALIDATION_FAILED)$/);
  });

  it('a private target is refused before the proxy is asked: the proxy sees nothing', async () => {
    const env = {
      ...stack.env,
      QUEUE_PREFIX: `t-${randomUUID().slice(0, 8)}`,
      PROXY_URLS: proxy.proxyUrl,
      ALLOW_PRIVATE_TARGETS: 'false',
    };
    const logger = createLogger({ service: 'po-private', level: 'silent' });
    const strictGateway = await startGateway(loadGatewayEnv(env), logger);
    const strictWorker = await startScrapeWorker(loadScrapeWorkerEnv(env), logger);
    try {
      const n = proxy.records.length;
      const hits = site.requests.length;
      for (const engine of ['fetch', 'browser']) {
        // A name (resolved by the worker), not an IP literal the gateway could refuse by itself.
        const res = await scrape(
          { url: `http://localhost:${site.port}/echo?private=${engine}`, engine },
          account.auth,
          `http://127.0.0.1:${strictGateway.port}`,
        );
        expect({ status: res.status, code: res.body.code }).toEqual({
          status: 400,
          code: 'TARGET_FORBIDDEN',
        });
      }
      // Only this test's target counts: earlier renders (to 127.0.0.1) may still be closing.
      expect(proxy.records.slice(n).filter((r) => r.target === `localhost:${site.port}`)).toEqual([]);
      expect(site.requests.slice(hits).filter((r) => r.search.includes('private='))).toEqual([]);
    } finally {
      await strictWorker.close();
      await strictGateway.close();
    }
  });

  it('header values, typed text and proxy credentials reach neither the logs nor the job kept in Redis', async () => {
    const header = `Bearer s3cr3t-${randomUUID()}`;
    const typed = `p4ss-${randomUUID()}`;
    const res = await scrape(
      {
        // /type does not echo headers, and the typed text stays in the input (not in the HTML).
        url: `${site.url}/type`,
        headers: { Authorization: header, 'X-Api-Token': header },
        actions: [
          { type: 'click', selector: '#q' },
          { type: 'write', text: typed },
        ],
        formats: ['markdown'],
      },
      account.auth,
      base,
    );
    expect(res.status).toBe(200);
    // The header did reach the site (so the checks below are about a request that carried it).
    expect(site.requestsTo('/type').at(-1)?.headers.authorization).toBe(header);

    // A failing one too: error paths must not quote them either (and the answer does not).
    const failed = await scrape(
      {
        url: `${site.url}/type`,
        headers: { Authorization: header },
        actions: [
          { type: 'click', selector: '#q' },
          { type: 'write', text: typed },
          { type: 'click', selector: '#no-such-element' },
        ],
      },
      account.auth,
      base,
    );
    expect(failed.status).toBe(422);
    expect(JSON.stringify(failed.body)).not.toContain(typed);
    expect(JSON.stringify(failed.body)).not.toContain(header.slice(7));

    const log = lines.join('');
    // The requests, the browser and its actions were logged (so the checks below look at real lines)…
    expect(log).toContain('/v1/scrape');
    expect(log).toContain('browser action');
    for (const secret of [header, typed, proxyPassword, header.slice(7)]) {
      expect(log).not.toContain(secret);
    }

    const redis = createRedisConnection(TEST_REDIS_URL, 'worker');
    try {
      const keys = await redis.keys(`${prefix}:scrape:*`);
      const jobs: Array<Record<string, string>> = [];
      for (const key of keys) {
        if ((await redis.type(key)) !== 'hash') continue;
        const job = await redis.hgetall(key);
        if (job.data?.includes(`${site.url}/type`)) jobs.push(job);
      }
      expect(jobs).toHaveLength(2);
      for (const job of jobs) {
        const payload = JSON.parse(job.data ?? '{}') as { secrets?: { id: string } };
        expect(payload.secrets).toBeDefined(); // sealed, not absent
        const everything = Object.values(job).join('\n');
        for (const secret of [header.slice(7), typed]) expect(everything).not.toContain(secret);
        // The key that opens them is gone once the answer was sent.
        expect(await redis.exists(`${prefix}:job-secret:${payload.secrets?.id}`)).toBe(0);
      }
      const allValues = (
        await Promise.all(
          (
            await redis.keys(`${prefix}:*`)
          ).map(async (k) => ((await redis.type(k)) === 'string' ? ((await redis.get(k)) ?? '') : '')),
        )
      ).join('\n');
      expect(allValues).not.toContain(header.slice(7));
    } finally {
      redis.disconnect();
    }
  });
});
