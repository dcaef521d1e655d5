import { splitCookies } from './browser-emulation';
import type { BrowserEngine } from './browser-engine';
import { pngSize } from './browser-screenshot';
import { MOBILE_USER_AGENT } from './emulation';
import {
  pageOptionsEngine,
  poolIdle,
  TEST_USER_AGENT,
  testContext,
} from './test-support/page-options-engine';
import { type PageOptionsSite, startPageOptionsSite } from './test-support/page-options-site';
import type { RenderResult } from './types';

interface ClientReport {
  cookie: string;
  language: string;
  languages: string[];
  timeZone: string;
  userAgent: string;
  innerWidth: number;
  innerHeight: number;
  devicePixelRatio: number;
  maxTouchPoints: number;
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** What /echo's own script saw, from the rendered body. */
function client(res: RenderResult): ClientReport {
  const m = /<pre id="client">([^<]*)<\/pre>/.exec(res.body);
  if (!m?.[1]) throw new Error('no client report in the body');
  return JSON.parse(unescapeHtml(m[1])) as ClientReport;
}

describe('splitCookies', () => {
  it('takes the Cookie header in any case out of the headers and merges it with the record', () => {
    const { headers, cookies } = splitCookies(
      'https://shop.example/a/b?c=1',
      { COOKIE: 'sid=abc; theme = dark ; broken; =x; eq=a=b', 'X-Trace': 't1' },
      { theme: 'light', lang: 'de' },
    );
    expect(headers).toEqual({ 'X-Trace': 't1' });
    expect(cookies).toEqual([
      { name: 'sid', value: 'abc', domain: 'shop.example', path: '/', secure: true },
      { name: 'theme', value: 'light', domain: 'shop.example', path: '/', secure: true },
      { name: 'eq', value: 'a=b', domain: 'shop.example', path: '/', secure: true },
      { name: 'lang', value: 'de', domain: 'shop.example', path: '/', secure: true },
    ]);
  });

  it('leaves headers alone when there are no cookies', () => {
    expect(splitCookies('http://h.example/', { Accept: 'x' }, undefined)).toEqual({
      headers: { Accept: 'x' },
      cookies: [],
    });
  });
});

describe('browser page options: cookies, headers, mobile, location', () => {
  let site: PageOptionsSite;
  let engine: BrowserEngine;
  let baseline: ClientReport;

  beforeAll(async () => {
    site = await startPageOptionsSite();
    engine = pageOptionsEngine();
    baseline = client(await engine.render({ url: `${site.url}/echo` }, testContext(15_000)));
  });
  afterAll(async () => {
    await engine.close();
    await site.close();
  });

  /** Renders on the one idle slot, so what a render leaves behind is seen by the next. */
  const renderOnReusedSlot = async (req: Parameters<BrowserEngine['render']>[0]) => {
    expect(await poolIdle(engine)).toEqual({ idle: 1 });
    return engine.render(req, testContext(10_000));
  };

  it('desktop by default: 1280×720, the configured user agent, no touch', () => {
    expect(baseline).toMatchObject({
      innerWidth: 1280,
      innerHeight: 720,
      devicePixelRatio: 1,
      maxTouchPoints: 0,
    });
    expect(baseline.userAgent).toBe(TEST_USER_AGENT);
  });

  it('sends a Cookie header and the cookies record as cookies of the target only, and forgets them', async () => {
    const res = await renderOnReusedSlot({
      url: `${site.url}/echo`,
      headers: { 'X-Legacy': 'l1' },
      request: {
        headers: { cookie: 'sid=abc123; theme=dark', 'X-Custom': 'c1', authorization: 'Bearer t0k' },
        cookies: { lang: 'de' },
      },
    });
    const server = site.lastHeaders('/echo');
    expect(server?.cookie?.split('; ').sort()).toEqual(['lang=de', 'sid=abc123', 'theme=dark']);
    expect(server?.['x-custom']).toBe('c1');
    expect(server?.authorization).toBe('Bearer t0k');
    expect(server?.['x-legacy']).toBe('l1');
    // Real browser cookies: the page's own script sees them.
    expect(client(res).cookie.split('; ').sort()).toEqual(['lang=de', 'sid=abc123', 'theme=dark']);

    const after = await renderOnReusedSlot({ url: `${site.url}/echo` });
    const again = site.lastHeaders('/echo');
    expect(again?.cookie).toBeUndefined();
    expect(again?.['x-custom']).toBeUndefined();
    expect(again?.authorization).toBeUndefined();
    expect(client(after).cookie).toBe('');
  });

  it('does not send the cookies or the other headers to another host the page loads from', async () => {
    const res = await renderOnReusedSlot({
      url: `${site.url}/cross`,
      request: { headers: { Cookie: 'sid=abc123', 'X-Custom': 'c1' } },
    });
    expect(res.body).toContain('<title>probed</title>');
    expect(site.lastHeaders('/cross')).toMatchObject({ cookie: 'sid=abc123', 'x-custom': 'c1' });
    expect(site.lastHeaders('/probe.js')?.cookie).toBeUndefined();
    expect(site.lastHeaders('/probe.js')?.['x-custom']).toBeUndefined();
  });

  it('sends Authorization to the target origin only: not on a redirect to another origin, nor to its subresources', async () => {
    const port = new URL(site.url).port;
    const headers = { Authorization: 'Bearer s3cret', Cookie: 'sid=abc123' };
    const cross = `http://localhost:${port}/echo`;
    const away = await renderOnReusedSlot({
      url: `${site.url}/redirect?to=${encodeURIComponent(cross)}`,
      request: { headers },
    });
    expect(away.finalUrl).toBe(cross);
    expect(site.lastHeaders('/redirect')).toMatchObject({
      authorization: 'Bearer s3cret',
      cookie: 'sid=abc123',
    });
    expect(site.lastHeaders('/echo')?.host).toBe(`localhost:${port}`);
    expect(site.lastHeaders('/echo')?.authorization).toBeUndefined();
    expect(site.lastHeaders('/echo')?.cookie).toBeUndefined();

    const same = await renderOnReusedSlot({
      url: `${site.url}/redirect?to=${encodeURIComponent('/echo')}`,
      request: { headers },
    });
    expect(same.finalUrl).toBe(`${site.url}/echo`);
    expect(site.lastHeaders('/echo')).toMatchObject({ authorization: 'Bearer s3cret', cookie: 'sid=abc123' });

    await renderOnReusedSlot({ url: `${site.url}/cross`, request: { headers } });
    expect(site.lastHeaders('/cross')).toMatchObject({
      authorization: 'Bearer s3cret',
      cookie: 'sid=abc123',
    });
    expect(site.lastHeaders('/probe.js')?.authorization).toBeUndefined();
    expect(site.lastHeaders('/probe.js')?.cookie).toBeUndefined();
  });

  it('never sends a caller’s Proxy-Authorization (the browser’s proxies are ours) and does not stall on it', async () => {
    // A stall would end in the render's own budget (TIMEOUT thrown), not in a 200.
    const res = await renderOnReusedSlot({
      url: `${site.url}/echo`,
      request: { headers: { 'Proxy-Authorization': 'Basic Y2FsbGVyOnNlY3JldA==', 'X-Custom': 'c2' } },
    });
    expect(res.statusCode).toBe(200);
    expect(site.lastHeaders('/echo')?.['proxy-authorization']).toBeUndefined();
    expect(site.lastHeaders('/echo')?.['x-custom']).toBe('c2');
  });

  it('location: Accept-Language, navigator.language and the timezone, reset for the next render', async () => {
    const res = await renderOnReusedSlot({ url: `${site.url}/echo`, location: { country: 'DE' } });
    expect(site.lastHeaders('/echo')?.['accept-language']).toBe('de-DE,de;q=0.9');
    expect(client(res)).toMatchObject({
      language: 'de-DE',
      languages: ['de-DE', 'de'],
      timeZone: 'Europe/Berlin',
    });

    const ja = await renderOnReusedSlot({
      url: `${site.url}/echo`,
      location: { country: 'JP', languages: ['ja-JP', 'en-US'] },
    });
    expect(site.lastHeaders('/echo')?.['accept-language']).toBe('ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7');
    expect(client(ja)).toMatchObject({ language: 'ja-JP', timeZone: 'Asia/Tokyo' });

    const plain = await renderOnReusedSlot({ url: `${site.url}/echo` });
    expect(client(plain)).toEqual(baseline);
    expect(site.lastHeaders('/echo')?.['accept-language']).not.toMatch(/de|ja/);
  });

  it('mobile: user agent, 412-px viewport, touch, and a 1082×2402 viewport screenshot; desktop after', async () => {
    const res = await renderOnReusedSlot({
      url: `${site.url}/echo`,
      mobile: true,
      location: { country: 'FR' },
      screenshot: 'viewport',
    });
    expect(client(res)).toMatchObject({
      userAgent: MOBILE_USER_AGENT,
      innerWidth: 412,
      innerHeight: 915,
      devicePixelRatio: 2.625,
      maxTouchPoints: 5,
      language: 'fr-FR',
      timeZone: 'Europe/Paris',
    });
    const server = site.lastHeaders('/echo');
    expect(server?.['user-agent']).toBe(MOBILE_USER_AGENT);
    expect(server?.['sec-ch-ua-mobile']).toBe('?1');
    expect(server?.['accept-language']).toBe('fr-FR,fr;q=0.9');
    expect(res.screenshot).toBeInstanceOf(Buffer);
    // 412 × 2.625 = 1081.5 and 915 × 2.625 = 2401.875: Chromium rounds up.
    expect(pngSize(res.screenshot as Buffer)).toEqual({ width: 1082, height: 2402 });

    const desktop = await renderOnReusedSlot({ url: `${site.url}/echo`, screenshot: 'viewport' });
    expect(client(desktop)).toEqual(baseline);
    expect(site.lastHeaders('/echo')?.['user-agent']).toBe(TEST_USER_AGENT);
    expect(pngSize(desktop.screenshot as Buffer)).toEqual({ width: 1280, height: 720 });
  });

  it('full-page screenshots cover the page, capped at 16,384 CSS px (fewer on mobile)', async () => {
    const short = await engine.render(
      { url: `${site.url}/tall?h=3000`, screenshot: 'fullPage' },
      testContext(15_000),
    );
    // The 3000-px block plus the body's 8-px margins.
    expect(pngSize(short.screenshot as Buffer)).toEqual({ width: 1280, height: 3016 });

    // The budgets are safety nets (a render past its budget throws TIMEOUT); how long a capped
    // full-page shot takes is printed by `pnpm bench:scrape`, not asserted.
    const huge = await engine.render(
      { url: `${site.url}/tall?h=100000`, screenshot: 'fullPage' },
      testContext(30_000),
    );
    expect(pngSize(huge.screenshot as Buffer)).toEqual({ width: 1280, height: 16_384 });
    const mobile = await engine.render(
      { url: `${site.url}/tall?h=100000`, screenshot: 'fullPage', mobile: true },
      testContext(30_000),
    );
    // 1280 × 16,384 device pixels at most: 412 CSS px wide at 2.625 → 7,387 CSS px tall.
    const { width, height } = pngSize(mobile.screenshot as Buffer);
    expect(width).toBe(1082);
    expect(Math.abs(height - 7_387 * 2.625)).toBeLessThan(1);
  });

  it('loads images only for renders that take a screenshot', async () => {
    const before = site.hits('/pixel.png');
    await engine.render({ url: `${site.url}/pictures` }, testContext(10_000));
    expect(site.hits('/pixel.png')).toBe(before);
    const shot = await engine.render(
      { url: `${site.url}/pictures`, screenshot: 'viewport' },
      testContext(10_000),
    );
    expect(site.hits('/pixel.png')).toBe(before + 1);
    expect(shot.body).toContain('Pictures');
    await engine.render(
      { url: `${site.url}/pictures`, actions: [{ type: 'screenshot' }] },
      testContext(10_000),
    );
    expect(site.hits('/pixel.png')).toBe(before + 2);
  });
});
