/**
 * The fetch ladder through the API (gateway + scrape worker, PostgreSQL, Redis, Chromium), with
 * PROXY_URLS set to a local forward proxy whose connections come from 127.0.0.2 (the wall site
 * lets those through its 403 wall): a JS challenge is cleared by the browser and billed; a wall
 * that stays is 502 TARGET_BLOCKED with `details` (reason, vendor, statusCode, attempts), not
 * billed and never cached; a Retry-After is waited out once; `proxy: "auto"` is the default and
 * reaches the page through the proxy; the Firecrawl route maps its proxy names.
 */
import { randomUUID } from 'node:crypto';
import {
  type ForwardProxy,
  startForwardProxy,
  startWallSite,
  WALL_SITE_ARTICLE,
  type WallSite,
} from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

const EGRESS = '127.0.0.2';

let site: WallSite;
let proxy: ForwardProxy;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  site = await startWallSite({ proxyEgress: EGRESS });
  proxy = await startForwardProxy({ egressAddress: EGRESS });
  stack = await startStack({
    // Long enough for the challenge's reload on a loaded machine, short for the one that never clears.
    env: { PROXY_URLS: proxy.proxyUrl, BROWSER_CHALLENGE_WAIT_MS: '4000' },
  });
  account = await createTestAccount({ credits: 100 });
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await site?.close();
});

const fresh = (path: string) => `${path}?t=${randomUUID().slice(0, 8)}`;
const scrape = (body: Record<string, unknown>) =>
  request(stack.url).post('/v1/scrape').set(account.auth).send(body);

describe('POST /v1/scrape: the escalation ladder', () => {
  it('a JS challenge is cleared by the browser: 200, the real page, attempts in metadata, one credit', async () => {
    const before = await balanceOf(account.accountId);
    const path = fresh('/challenge');
    const res = await scrape({ url: `${site.url}${path}` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain(WALL_SITE_ARTICLE);
    expect(res.body.data.metadata.statusCode).toBe(200);
    // The browser cleared it (waiting for the reload); should that wait have run out on a loaded
    // machine, the proxy step's browser clears it instead: either way the browser got past it.
    const attempts = res.body.data.metadata.attempts;
    expect(attempts[0]).toEqual({ engine: 'fetch', statusCode: 503 });
    expect(attempts.at(-1)).toMatchObject({ engine: 'browser', statusCode: 200, waitedForChallenge: true });
    expect(attempts.length).toBeLessThanOrEqual(3);
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('a challenge that never clears: 502 TARGET_BLOCKED with details, not billed, not cached', async () => {
    const before = await balanceOf(account.accountId);
    const path = fresh('/never');
    const res = await scrape({ url: `${site.url}${path}`, maxAge: 600_000 });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'TARGET_BLOCKED' });
    expect(res.body.details).toEqual({
      reason: 'challenge',
      vendor: 'cloudflare',
      statusCode: 503,
      attempts: [
        { engine: 'fetch', statusCode: 503 },
        { engine: 'browser', statusCode: 503, waitedForChallenge: true },
        { engine: 'browser', statusCode: 503, waitedForChallenge: true, proxy: true },
      ],
    });
    // No proxy URL (or its credentials) in what the caller sees.
    expect(JSON.stringify(res.body)).not.toContain(String(proxy.port));
    expect(await balanceOf(account.accountId)).toBe(before);
    // Nothing was cached: the same request (same cache key) fetches again.
    const seen = site.requests(path);
    const again = await scrape({ url: `${site.url}${path}`, maxAge: 600_000 });
    expect(again.status).toBe(502);
    expect(site.requests(path)).toBeGreaterThan(seen);
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('429 Retry-After: 1 is waited out once: 200, two requests at the site, one credit', async () => {
    const before = await balanceOf(account.accountId);
    const path = fresh('/slow-limit');
    const res = await scrape({ url: `${site.url}${path}` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain(WALL_SITE_ARTICLE);
    expect(site.requests(path)).toBe(2);
    expect(res.body.data.metadata.attempts[1]).toMatchObject({ retryAfterMs: 1000, statusCode: 200 });
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('a Retry-After past the budget: 502 rate-limited at once (direct, then once through the proxy)', async () => {
    const before = await balanceOf(account.accountId);
    const path = fresh('/long-limit');
    const res = await scrape({ url: `${site.url}${path}`, timeout: 10_000 });
    expect(res.status).toBe(502);
    expect(res.body.details).toEqual({
      reason: 'rate-limited',
      statusCode: 429,
      attempts: [
        { engine: 'fetch', statusCode: 429 },
        { engine: 'fetch', statusCode: 429, proxy: true },
      ],
    });
    expect(site.requests(path)).toBe(2);
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('proxy auto is the default with PROXY_URLS: a 403 wall is passed through the proxy; none stays direct', async () => {
    const path = fresh('/proxied');
    const res = await scrape({ url: `${site.url}${path}` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Through the proxy');
    expect(res.body.data.metadata.attempts.at(-1)).toEqual({
      engine: 'browser',
      statusCode: 200,
      proxy: true,
    });
    const direct = await scrape({ url: `${site.url}${fresh('/proxied')}`, proxy: 'none' });
    expect(direct.status).toBe(502);
    expect(direct.body.details.reason).toBe('access-denied');
    expect(direct.body.details.attempts.some((a: { proxy?: boolean }) => a.proxy)).toBe(false);
  });

  it('an ordinary page: one request at the site, no attempts listed', async () => {
    const path = fresh('/plain');
    const res = await scrape({ url: `${site.url}${path}` });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.attempts).toBeUndefined();
    expect(site.requests(path)).toBe(1);
  });
});

describe('POST /firecrawl/v2/scrape: proxy names', () => {
  const post = (body: Record<string, unknown>) =>
    request(stack.url).post('/firecrawl/v2/scrape').set(account.auth).send(body);

  it('auto escalates to the proxy; basic sends every request through it; stealth is a 400 naming it', async () => {
    const auto = await post({ url: `${site.url}${fresh('/proxied')}`, proxy: 'auto', maxAge: 0 });
    expect(auto.status).toBe(200);
    expect(auto.body.data.markdown).toContain('Through the proxy');
    const path = fresh('/proxied');
    const basic = await post({ url: `${site.url}${path}`, proxy: 'basic', maxAge: 0 });
    expect(basic.status).toBe(200);
    expect(site.requests(path)).toBe(1);
    const stealth = await post({ url: `${site.url}/plain`, proxy: 'stealth' });
    expect(stealth.status).toBe(400);
    expect(stealth.body.error).toMatch(/^proxy: "stealth" is not supported/);
  });
});
