/**
 * The fetch ladder through `fetchPage`, with a real renderer (fetch engine and Chromium), a local
 * site playing the walls (wall-site of @wcs/testing) and a local forward proxy whose connections
 * come from another loopback address (so the site tells them apart): a JS challenge cleared by the
 * browser, Retry-After waited out once (or refused when the budget cannot afford it), proxy `auto`,
 * a challenge that never clears, the caller's engine respected, and an ordinary page left alone.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { TargetBlockedError, TargetHttpError } from '@wcs/errors';
import { createRenderer, type Renderer, type RendererOptions } from '@wcs/renderer';
import {
  type ForwardProxy,
  listenLocal,
  startForwardProxy,
  startWallSite,
  WALL_SITE_ARTICLE,
  type WallSite,
} from '@wcs/testing';
import { retryAfterMs } from './fetch-ladder';
import { type FetchedPage, fetchPage } from './scrape-document';

const MARKER = `--wcs-test-run=${randomUUID()}`;
const EGRESS = '127.0.0.2';

const options = (over: { browser?: boolean; proxies?: string[] } = {}): RendererOptions => ({
  allowPrivateTargets: true,
  fetchTimeoutMs: 20_000,
  connectTimeoutMs: 2_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  userAgent: 'wcs-ladder-test/1.0',
  ...(over.proxies ? { proxies: over.proxies } : {}),
  browser: {
    enabled: over.browser ?? true,
    executablePath: '/usr/bin/chromium',
    maxPages: 2,
    args: [MARKER],
    // Long enough for a loaded machine's browser to run the challenge's script and reload (a
    // 1.5 s wait once timed out under CI load); the challenge that never clears waits it all out.
    challengeWaitMs: 8_000,
  },
});

let site: WallSite;
let proxy: ForwardProxy;
let renderer: Renderer;
let proxied: Renderer;
let noBrowser: Renderer;
let n = 0;
/** Called when the wall site has answered a request (path with query). */
let onAnswered: (pathAndQuery: string) => void = () => undefined;
const fresh = (path: string) => `${path}?t=${++n}`;

beforeAll(async () => {
  site = await startWallSite({ proxyEgress: EGRESS, onAnswered: (p) => onAnswered(p) });
  proxy = await startForwardProxy({ egressAddress: EGRESS });
  renderer = createRenderer(options());
  proxied = createRenderer(options({ proxies: [proxy.proxyUrl] }));
  noBrowser = createRenderer(options({ browser: false }));
  // Chromium's cold start (seconds on a loaded machine) is not the ladder's: it would otherwise
  // come out of the first test's 20 s budget. /plain is an ordinary page (counted under its own query).
  await renderer.render({ url: `${site.url}/plain?warm-up`, engine: 'browser' });
});
afterAll(async () => {
  for (const r of [renderer, proxied, noBrowser]) await r?.close();
  await proxy?.close();
  await site?.close();
});

async function blocked(p: Promise<FetchedPage>): Promise<TargetBlockedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TargetBlockedError);
  return err as TargetBlockedError;
}

describe('fetch ladder', () => {
  it('(a) a JS challenge (503 + cf-mitigated) is cleared by the browser, which waits for its reload', async () => {
    const path = fresh('/challenge');
    const page = await fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 });
    expect(page.statusCode).toBe(200);
    expect(page.engine).toBe('browser');
    expect(page.body).toContain(WALL_SITE_ARTICLE);
    expect(page.attempts).toEqual([
      { engine: 'fetch', statusCode: 503 },
      { engine: 'browser', statusCode: 200, waitedForChallenge: true },
    ]);
    // fetch, the browser's challenge, the browser's reload with the cookie
    expect(site.requests(path)).toBe(3);
  });

  it('(b) 429 Retry-After: 1 is waited out once, then the page', async () => {
    const path = fresh('/slow-limit');
    const page = await fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(WALL_SITE_ARTICLE);
    expect(site.requests(path)).toBe(2);
    expect(page.attempts).toEqual([
      { engine: 'fetch', statusCode: 429 },
      { engine: 'fetch', statusCode: 200, retryAfterMs: 1_000 },
    ]);
  });

  it('(b) a 503 whose Retry-After is an HTTP date is waited out too', async () => {
    const path = fresh('/date-limit');
    const page = await fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 });
    expect(page.statusCode).toBe(200);
    expect(site.requests(path)).toBe(2);
    expect(page.attempts?.[1]).toMatchObject({ engine: 'fetch', statusCode: 200 });
  });

  it('(c) a Retry-After longer than the budget is TARGET_BLOCKED rate-limited at once', async () => {
    const path = fresh('/long-limit');
    const err = await blocked(fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 }));
    expect(err.status).toBe(502);
    expect(err.details).toEqual({
      reason: 'rate-limited',
      statusCode: 429,
      attempts: [{ engine: 'fetch', statusCode: 429 }],
    });
    expect(site.requests(path)).toBe(1);
  });

  it('(d) proxy auto: a 403 wall that the browser does not pass either is fetched through the next proxy', async () => {
    const path = fresh('/proxied');
    proxy.records.length = 0;
    const page = await fetchPage(proxied, { url: `${site.url}${path}`, timeoutMs: 20_000 });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Through the proxy');
    expect(page.attempts).toEqual([
      { engine: 'fetch', statusCode: 403 },
      { engine: 'browser', statusCode: 403 },
      { engine: 'browser', statusCode: 200, proxy: true },
    ]);
    expect(proxy.records.length).toBeGreaterThan(0);
    // No proxy URL anywhere in what the caller sees.
    expect(JSON.stringify(page.attempts)).not.toContain(String(proxy.port));
  });

  it('(d) proxy none never uses the proxy; default sends the first request through it', async () => {
    const none = fresh('/proxied');
    proxy.records.length = 0;
    const err = await blocked(
      fetchPage(proxied, { url: `${site.url}${none}`, timeoutMs: 20_000, page: { proxy: 'none' } }),
    );
    expect(err.details?.reason).toBe('access-denied');
    expect(proxy.records).toEqual([]);
    const def = fresh('/proxied');
    const page = await fetchPage(proxied, {
      url: `${site.url}${def}`,
      timeoutMs: 20_000,
      page: { proxy: 'default' },
    });
    expect(page.body).toContain('Through the proxy');
    expect(page.attempts).toBeUndefined();
    expect(site.requests(def)).toBe(1);
  });

  it('PROXY_MODE always: a request that names no proxy goes through the next one from the start', async () => {
    const always = createRenderer({ ...options({ proxies: [proxy.proxyUrl] }), proxyMode: 'always' });
    try {
      const path = fresh('/proxied');
      const page = await fetchPage(always, { url: `${site.url}${path}`, timeoutMs: 20_000 });
      expect(page.body).toContain('Through the proxy');
      expect(page.attempts).toBeUndefined();
      expect(site.requests(path)).toBe(1);
    } finally {
      await always.close();
    }
  });

  it('a step that fails without an answer is listed with its error code, and the wall is still the answer', async () => {
    // A proxy that is gone: its port was just closed.
    const gone = await listenLocal(createServer());
    await gone.close();
    const dead = createRenderer(options({ proxies: [`http://127.0.0.1:${gone.port}`] }));
    try {
      const path = fresh('/proxied');
      const err = await blocked(fetchPage(dead, { url: `${site.url}${path}`, timeoutMs: 20_000 }));
      expect(err.details).toMatchObject({ reason: 'access-denied', statusCode: 403 });
      expect(err.details?.attempts).toEqual([
        { engine: 'fetch', statusCode: 403 },
        { engine: 'browser', statusCode: 403 },
        { engine: 'browser', proxy: true, error: 'TARGET_UNREACHABLE' },
      ]);
    } finally {
      await dead.close();
    }
  });

  it('(e) a challenge that never clears is TARGET_BLOCKED listing the fetch and the browser', async () => {
    const path = fresh('/never');
    const err = await blocked(fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 }));
    expect(err.code).toBe('TARGET_BLOCKED');
    expect(err.details).toEqual({
      reason: 'challenge',
      vendor: 'cloudflare',
      statusCode: 503,
      attempts: [
        { engine: 'fetch', statusCode: 503 },
        { engine: 'browser', statusCode: 503, waitedForChallenge: true },
      ],
    });
  });

  it('(e) engine fetch asked, or no browser: no browser step, and the attempts say why', async () => {
    const path = fresh('/challenge');
    const asked = await blocked(
      fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000, engine: 'fetch' }),
    );
    expect(asked.details?.attempts).toEqual([
      { engine: 'fetch', statusCode: 503 },
      { engine: 'browser', skipped: 'engine-fetch' },
    ]);
    expect(site.requests(path)).toBe(1);
    const other = fresh('/challenge');
    const disabled = await blocked(fetchPage(noBrowser, { url: `${site.url}${other}`, timeoutMs: 20_000 }));
    expect(disabled.details?.attempts).toEqual([
      { engine: 'fetch', statusCode: 503 },
      { engine: 'browser', skipped: 'browser-disabled' },
    ]);
  });

  it("the Retry-After wait ends with the caller's abort (a 100 s wait; the test's own timeout is 60 s)", async () => {
    const path = fresh('/wait-limit');
    const controller = new AbortController();
    const reason = new Error('caller went away');
    onAnswered = (p) => {
      if (p === path) controller.abort(reason);
    };
    try {
      const err = await fetchPage(renderer, {
        url: `${site.url}${path}`,
        timeoutMs: 150_000,
        signal: controller.signal,
      }).catch((e: unknown) => e);
      expect(err).toBe(reason);
      expect(site.requests(path)).toBe(1);
    } finally {
      onAnswered = () => undefined;
    }
  });

  it('(f) an ordinary page: one request, the fetch engine, no attempts listed', async () => {
    const path = fresh('/plain');
    const page = await fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 });
    expect(page.statusCode).toBe(200);
    expect(page.engine).toBe('fetch');
    expect(page.attempts).toBeUndefined();
    expect(site.requests(path)).toBe(1);
  });

  it('HTTP authentication (401) is asked once: neither the browser nor a proxy changes who the caller is', async () => {
    const path = fresh('/auth');
    const err = await blocked(fetchPage(proxied, { url: `${site.url}${path}`, timeoutMs: 20_000 }));
    expect(err.details).toMatchObject({ reason: 'access-denied', statusCode: 401 });
    expect(site.requests(path)).toBe(1);
  });

  it('a plain error status stays TARGET_HTTP_ERROR, fetched once', async () => {
    const path = fresh('/missing');
    const err = await fetchPage(renderer, { url: `${site.url}${path}`, timeoutMs: 20_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(TargetHttpError);
    expect(site.requests(path)).toBe(1);
  });
});

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates; ignores what it cannot read', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-1', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
