/**
 * Where a caller's headers go, in both engines: to the target's origin only (the origin of the URL
 * asked for) — not to a redirect's other origin, nor to another origin's scripts, frames, images
 * and fetches — unless `headersScope: 'all'`, which still keeps Authorization at home. Two local
 * servers on two ports are the two origins; upstream proxies change nothing about it.
 */
import { type ForwardProxy, startForwardProxy } from '@wcs/testing';
import type { BrowserEngine } from './browser-engine';
import { createRenderer } from './renderer';
import { testOptions } from './test-support/options';
import { pageOptionsEngine, testContext } from './test-support/page-options-engine';
import {
  type RecordingSite,
  SUBRESOURCES,
  startTwoOrigins,
  type TwoOrigins,
} from './test-support/two-origins-site';
import type { Renderer, RenderRequest } from './types';

const CALLER = { 'X-Api-Key': 'k1', Authorization: 'Bearer s3cret' };

let sites: TwoOrigins;
let proxy: ForwardProxy;

beforeAll(async () => {
  sites = await startTwoOrigins();
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await sites.close();
  await proxy.close();
});
beforeEach(() => {
  sites.a.clear();
  sites.b.clear();
});

/** Every request the site saw for `path`: at least one, and none with the caller's headers. */
function noneCarried(site: RecordingSite, path: string): void {
  const seen = site.seen(path);
  expect(seen.length).toBeGreaterThan(0);
  for (const h of seen) expect({ path, key: h['x-api-key'], auth: h.authorization }).toEqual({ path });
}

/** At least one request for `path`, and every one with `headers` (lowercased names). */
function allCarried(site: RecordingSite, path: string, headers: Record<string, string>): void {
  const seen = site.seen(path);
  expect(seen.length).toBeGreaterThan(0);
  for (const h of seen) expect({ path, ...h }).toMatchObject({ path, ...headers });
}

const landingOfB = () => `${sites.b.url}/landing`;
const redirectTo = (to: string) => `${sites.a.url}/redirect?to=${encodeURIComponent(to)}`;

describe('fetch engine: caller headers go to the target origin only', () => {
  let renderer: Renderer;
  beforeAll(() => {
    renderer = createRenderer(testOptions());
  });
  afterAll(async () => {
    await renderer.close();
  });
  const render = (url: string, extra: Partial<RenderRequest> = {}) =>
    renderer.render({ url, engine: 'fetch', ...extra, request: { headers: CALLER, ...extra.request } });

  it('a redirect to another origin carries none of them; ours (location) stay', async () => {
    const res = await render(redirectTo(landingOfB()), { location: { country: 'DE' } });
    expect(res.finalUrl).toBe(landingOfB());
    allCarried(sites.a, '/redirect', { 'x-api-key': 'k1', authorization: 'Bearer s3cret' });
    noneCarried(sites.b, '/landing');
    expect(sites.b.seen('/landing')[0]?.['accept-language']).toBe('de-DE,de;q=0.9');
  });

  it('a same-origin redirect keeps them, and so does a hop back to the target origin', async () => {
    await render(redirectTo('/landing'));
    allCarried(sites.a, '/landing', { 'x-api-key': 'k1', authorization: 'Bearer s3cret' });
    sites.a.clear();
    await render(redirectTo(`${sites.b.url}/back?to=${encodeURIComponent(`${sites.a.url}/landing`)}`));
    noneCarried(sites.b, '/back');
    allCarried(sites.a, '/landing', { 'x-api-key': 'k1' });
  });

  it("headersScope 'all' sends them across origins, but never Authorization", async () => {
    await render(redirectTo(landingOfB()), { request: { headers: CALLER, headersScope: 'all' } });
    allCarried(sites.b, '/landing', { 'x-api-key': 'k1' });
    expect(sites.b.seen('/landing')[0]?.authorization).toBeUndefined();
  });

  it('the same through an upstream proxy', async () => {
    await render(redirectTo(landingOfB()), { request: { headers: CALLER, proxy: proxy.proxyUrl } });
    expect(proxy.records.map((r) => r.target)).toContain(`127.0.0.1:${sites.b.port}`);
    allCarried(sites.a, '/redirect', { 'x-api-key': 'k1' });
    noneCarried(sites.b, '/landing');
  });
});

describe('browser engine: caller headers go to the target origin only', () => {
  let engine: BrowserEngine;
  beforeAll(() => {
    engine = pageOptionsEngine();
  });
  afterAll(async () => {
    await engine.close();
  });
  /** The page with its images loaded (a screenshot) and both fetch() calls answered. */
  const renderPage = (request: RenderRequest['request']) =>
    engine.render(
      {
        url: `${sites.a.url}/page`,
        screenshot: 'viewport',
        actions: [{ type: 'wait', selector: '#fetched' }],
        request,
      },
      testContext(20_000),
    );

  it("the target's document and subresources get them; another origin's script, frame, image and fetch do not", async () => {
    const res = await renderPage({ headers: CALLER });
    expect(res.body).toContain('id="fetched"');
    for (const path of ['/page', ...SUBRESOURCES])
      allCarried(sites.a, path, { 'x-api-key': 'k1', authorization: 'Bearer s3cret' });
    for (const path of SUBRESOURCES) noneCarried(sites.b, path);
    // Nothing made Chromium ask B's permission for a header either.
    expect(sites.b.seen('OPTIONS /api')).toEqual([]);
  });

  it('a redirect of the document to another origin carries none of them; a same-origin one does', async () => {
    const away = await engine.render(
      { url: redirectTo(landingOfB()), request: { headers: CALLER } },
      testContext(15_000),
    );
    expect(away.finalUrl).toBe(landingOfB());
    allCarried(sites.a, '/redirect', { 'x-api-key': 'k1', authorization: 'Bearer s3cret' });
    noneCarried(sites.b, '/landing');

    await engine.render({ url: redirectTo('/landing'), request: { headers: CALLER } }, testContext(15_000));
    allCarried(sites.a, '/landing', { 'x-api-key': 'k1', authorization: 'Bearer s3cret' });
  });

  it("headersScope 'all' sends them to every origin, but never Authorization", async () => {
    await renderPage({ headers: CALLER, headersScope: 'all' });
    for (const path of SUBRESOURCES) {
      allCarried(sites.b, path, { 'x-api-key': 'k1' });
      for (const h of sites.b.seen(path)) expect({ path, auth: h.authorization }).toEqual({ path });
    }
  });

  it('the same through an upstream proxy', async () => {
    await renderPage({ headers: CALLER, proxy: proxy.proxyUrl });
    expect(proxy.records.map((r) => r.target)).toContain(`127.0.0.1:${sites.b.port}`);
    allCarried(sites.a, '/page', { 'x-api-key': 'k1' });
    for (const path of SUBRESOURCES) noneCarried(sites.b, path);
  });
});
