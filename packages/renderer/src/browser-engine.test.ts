import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { TargetForbiddenError, TimeoutError, UnsupportedContentTypeError } from '@wcs/errors';
import { isForbiddenAddress } from '@wcs/net';
import { type FixtureSite, fixtureArticle, JS_ONLY_TEXT, startFixtureSite } from '@wcs/testing';
import { BrowserEngine } from './browser-engine';
import { createRenderer } from './renderer';
import { testContext, testOptions } from './test-support/options';
import type { Renderer } from './types';

// A unique flag on our chromium command lines, so other processes on the machine never count.
const MARKER = `--wcs-test-run=${randomUUID()}`;

/** Live (non-zombie) processes whose command line carries this run's marker. */
function ourChromiumProcesses(): number {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(MARKER) && !l.trimStart().startsWith('Z')).length;
}

const browserOptions = (over = {}) =>
  testOptions({
    fetchTimeoutMs: 15_000,
    browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 2, args: [MARKER] },
    ...over,
  });

/** The fixture on 127.0.0.1 is allowed; every other private address is refused as in production. */
const fixtureOnly = (ip: string) => ip !== '127.0.0.1' && isForbiddenAddress(ip);

let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  renderer = createRenderer(browserOptions());
});
afterAll(async () => {
  await renderer.close();
  await site.close();
});

describe('auto engine selection', () => {
  it('renders the JS-only page with the browser and returns the client-rendered text', async () => {
    const res = await renderer.render({ url: `${site.url}/js-only` });
    expect(res.engine).toBe('browser');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(JS_ONLY_TEXT);
    expect(res.body).toContain(fixtureArticle(0).paragraphs[1]);
    expect(res.requestedUrl).toBe(`${site.url}/js-only`);
  });

  it('keeps plain fetch for server-rendered pages', async () => {
    const res = await renderer.render({ url: `${site.url}/article/1` });
    expect(res.engine).toBe('fetch');
  });

  it('uses the browser when asked, or when waitForMs > 0', async () => {
    expect((await renderer.render({ url: `${site.url}/article/3`, engine: 'browser' })).engine).toBe(
      'browser',
    );
    const waited = await renderer.render({ url: `${site.url}/article/4`, waitForMs: 50 });
    expect(waited.engine).toBe('browser');
    expect(waited.body).toContain(fixtureArticle(4).title);
  });

  it('with fetch forced, returns the unrendered shell', async () => {
    const res = await renderer.render({ url: `${site.url}/js-only`, engine: 'fetch' });
    expect(res.engine).toBe('fetch');
    expect(res.body).toContain('<div id="root"></div>');
  });
});

describe('browser engine', () => {
  it('blocks images and fonts but loads the rest', async () => {
    const res = await renderer.render({ url: `${site.url}/`, engine: 'browser' });
    expect(res.body).toContain('Understanding Web Content Extraction');
    expect(res.body).toContain('<table>');
    expect(site.hits('/assets/hero.png')).toBe(0);
    expect(site.hits('/assets/font.woff2')).toBe(0);
    expect(site.hits('/assets/site.css')).toBeGreaterThan(0);
  });

  it('returns HTTP error statuses, follows redirects, refuses binary types', async () => {
    const notFound = await renderer.render({ url: `${site.url}/404`, engine: 'browser' });
    expect(notFound.statusCode).toBe(404);
    const redirected = await renderer.render({ url: `${site.url}/redirect/2`, engine: 'browser' });
    expect(redirected.finalUrl).toBe(`${site.url}/`);
    expect(redirected.redirects).toEqual([`${site.url}/redirect/1`, `${site.url}/`]);
    await expect(renderer.render({ url: `${site.url}/image.png`, engine: 'browser' })).rejects.toBeInstanceOf(
      UnsupportedContentTypeError,
    );
    const json = await renderer.render({ url: `${site.url}/json`, engine: 'browser' });
    expect(JSON.parse(json.body)).toMatchObject({ ok: true });
  });

  it('times out a page that never answers, then keeps working', async () => {
    const hung = renderer.render({ url: `${site.url}/hang`, engine: 'browser', timeoutMs: 1_000 });
    await expect(hung).rejects.toBeInstanceOf(TimeoutError);
    // The render's own budget ended it (its message names the budget), not a browser-side timeout.
    await expect(hung).rejects.toThrow(`Rendering ${site.url}/hang took longer than 1000 ms`);
    expect((await renderer.render({ url: `${site.url}/article/0`, engine: 'browser' })).statusCode).toBe(200);
  });

  it('serves concurrent renders from a bounded pool', async () => {
    const urls = [0, 1, 2, 3, 4].map((n) => `${site.url}/article/${n}`);
    const results = await Promise.all(urls.map((url) => renderer.render({ url, engine: 'browser' })));
    for (const [n, r] of results.entries()) expect(r.body).toContain(fixtureArticle(n).title);
  });
});

describe('browser engine SSRF routing', () => {
  let engine: BrowserEngine;
  beforeAll(() => {
    engine = new BrowserEngine({
      ...browserOptions(),
      executablePath: '/usr/bin/chromium',
      maxPages: 1,
      args: [MARKER],
      isForbidden: fixtureOnly,
    });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('refuses a forbidden main document', async () => {
    const strict = new BrowserEngine({
      ...browserOptions({ allowPrivateTargets: false }),
      maxPages: 1,
      args: [MARKER],
      executablePath: '/usr/bin/chromium',
    });
    try {
      const before = site.hits('/article/0');
      await expect(strict.render({ url: `${site.url}/article/0` }, testContext())).rejects.toBeInstanceOf(
        TargetForbiddenError,
      );
      expect(site.hits('/article/0')).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('refuses a redirect hop to a private address', async () => {
    // Refused at the hop: a render that ran into its budget would end in TIMEOUT instead.
    await expect(
      engine.render({ url: `${site.url}/redirect-to-private` }, testContext(15_000)),
    ).rejects.toBeInstanceOf(TargetForbiddenError);
  });

  it('aborts subresources to forbidden hosts and still renders the page', async () => {
    // The page loads a script from http://localhost:<port>; make "localhost" resolve to a private
    // address for our guards only (Chromium itself would reach the fixture through 127.0.0.1).
    const realLookup = dns.lookup;
    const realPromise = dns.promises.lookup;
    jest
      .spyOn(dns.promises, 'lookup')
      .mockImplementation(((host: string, o: dns.LookupAllOptions) =>
        host === 'localhost'
          ? Promise.resolve([{ address: '10.9.9.9', family: 4 }])
          : realPromise(host, o)) as unknown as typeof dns.promises.lookup);
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((host: string, o: dns.LookupAllOptions, cb: never) =>
        host === 'localhost'
          ? (cb as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: '10.9.9.9', family: 4 }])
          : realLookup(host, o, cb)) as unknown as typeof dns.lookup);
    const res = await engine.render({ url: `${site.url}/cross-host` }, testContext());
    expect(res.body).toContain('Cross host page');
    expect(site.hits('/assets/tracker.js')).toBe(0);
    jest.restoreAllMocks();
  });
});

describe('process hygiene', () => {
  it('leaves no chromium process behind after close()', async () => {
    const own = createRenderer(browserOptions());
    await own.render({ url: `${site.url}/js-only` });
    expect(ourChromiumProcesses()).toBeGreaterThan(0);
    await own.close();
    // Runs last: close the shared renderer too (afterAll's second close() is a no-op); the SSRF
    // engines above were closed in their own afterAll already.
    await renderer.close();
    expect(ourChromiumProcesses()).toBe(0);
  });
});
