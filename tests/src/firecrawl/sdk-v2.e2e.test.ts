/**
 * The official JS SDK (`@mendable/firecrawl-js` 4.42.0, its v2 client `Firecrawl`) pointed at
 * `<gateway>/firecrawl`, unchanged: scrape in every format, map, search, extract, credit
 * usage, and the 401/402 the SDK turns into `SdkError`s. Jobs (batch, crawl, webhooks) are in
 * sdk-v2-jobs.e2e.test.ts.
 */
import { Firecrawl, SdkError } from '@mendable/firecrawl-js';
import {
  type PageOptionsSite,
  PO_CLICK_TEXT,
  PO_GATE_HEADER,
  PO_GATE_VALUE,
  PO_GATED_TEXT,
  PO_SIGN_IN_TEXT,
  PO_TAGGED,
  startPageOptionsSite,
} from '@wcs/testing';
import { FAKE_EXTRACTION } from '../clients/client-stack';
import { balanceOf, pollUntil, startStack } from '../harness';
import {
  accountWithCredits,
  type FirecrawlStack,
  HOME_TABLE_CELL,
  HOME_TITLE,
  startFirecrawlStack,
} from './firecrawl-stack';

let s: FirecrawlStack;
let fc: Firecrawl;

beforeAll(async () => {
  s = await startFirecrawlStack({ browser: true }); // screenshots need Chromium
  fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
});
afterAll(async () => {
  await s?.close();
});

/** The SdkError a call rejects with (fails the test if it resolves or throws something else). */
async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  const err = await call.then(
    (v) => {
      throw new Error(`expected an SdkError, the call resolved: ${JSON.stringify(v).slice(0, 300)}`);
    },
    (e: unknown) => e,
  );
  if (!(err instanceof SdkError)) throw new Error(`expected an SdkError, got: ${String(err)}`);
  return err;
}

describe('v2 scrape', () => {
  it('markdown, html, rawHtml, links and images of the home page, 1 credit', async () => {
    const before = await balanceOf(s.account.accountId);
    const doc = await fc.scrape(`${s.site.url}/`, {
      formats: ['markdown', 'html', 'rawHtml', 'links', 'images'],
    });
    expect(doc.markdown).toContain(HOME_TITLE);
    expect(doc.markdown).toContain(HOME_TABLE_CELL);
    // Main content only by default: the cookie banner is boilerplate.
    expect(doc.markdown).not.toContain('We use cookies');
    expect(doc.html).toMatch(/<h1[^>]*>Understanding Web Content Extraction<\/h1>/);
    expect(doc.rawHtml).toContain('id="cookie-banner"');
    expect(doc.links).toEqual(expect.arrayContaining([`${s.site.url}/article/0`, `${s.site.url}/article/1`]));
    expect(doc.images).toEqual(expect.arrayContaining([`${s.site.url}/assets/hero.png`]));
    expect(doc.metadata).toMatchObject({ title: HOME_TITLE, statusCode: 200 });
    expect(doc.metadata?.sourceURL ?? doc.metadata?.url).toMatch(new RegExp(`^${s.site.url}/?$`));
    expect(await balanceOf(s.account.accountId)).toBe(before - 1);
  });

  it('markdown is the default format; onlyMainContent: false keeps the boilerplate', async () => {
    const doc = await fc.scrape(`${s.site.url}/article/3`);
    expect(doc.markdown).toContain('Tidal Energy');
    expect(doc.html).toBeUndefined();
    const full = await fc.scrape(`${s.site.url}/article/3`, {
      formats: ['markdown'],
      onlyMainContent: false,
    });
    expect(full.markdown).toContain('Fixture Journal');
  });

  it('screenshot is a URL that serves a PNG', async () => {
    const doc = await fc.scrape(`${s.site.url}/`, { formats: ['screenshot'] });
    expect(doc.screenshot).toMatch(/^https?:\/\//);
    // A capability URL: no key, as an <img> on a web page would fetch it.
    const img = await fetch(String(doc.screenshot));
    expect(img.status).toBe(200);
    const bytes = Buffer.from(await img.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('json with a schema comes back as doc.json (the model answer, shaped by the schema)', async () => {
    const doc = await fc.scrape(`${s.site.url}/`, {
      formats: [
        {
          type: 'json',
          prompt: 'The article title',
          schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        },
      ],
    });
    expect(doc.json).toEqual(FAKE_EXTRACTION);
  });

  it('includeTags narrows the content to the selected elements', async () => {
    const doc = await fc.scrape(`${s.site.url}/`, { formats: ['markdown'], includeTags: ['table'] });
    expect(doc.markdown).toContain(HOME_TABLE_CELL);
    expect(doc.markdown).not.toContain('Extracting the main content');
  });
});

describe('v2 page options reach the native fetch', () => {
  let po: PageOptionsSite;
  beforeAll(async () => {
    po = await startPageOptionsSite();
  });
  afterAll(async () => {
    await po?.close();
  });

  it('headers are sent to the target', async () => {
    const open = await fc.scrape(`${po.url}/gated`, { headers: { [PO_GATE_HEADER]: PO_GATE_VALUE } });
    expect(open.markdown).toContain(PO_GATED_TEXT);
    const closed = await fc.scrape(`${po.url}/gated`);
    expect(closed.markdown).toContain(PO_SIGN_IN_TEXT);
  });

  it('excludeTags removes the selected elements', async () => {
    const doc = await fc.scrape(`${po.url}/tagged`, {
      onlyMainContent: false,
      excludeTags: ['aside', 'nav'],
    });
    expect(doc.markdown).toContain(PO_TAGGED.article);
    expect(doc.markdown).not.toContain(PO_TAGGED.aside);
    expect(doc.markdown).not.toContain(PO_TAGGED.nav);
  });

  it('actions run in the browser before the content is read', async () => {
    const doc = await fc.scrape(`${po.url}/click`, {
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait', milliseconds: 200 },
      ],
    });
    expect(doc.markdown).toContain(PO_CLICK_TEXT);
  });

  it('maxAge serves the second scrape from the page cache (metadata.cacheState)', async () => {
    const url = `${po.url}/counter?sdk-v2=${Date.now()}`;
    const first = await fc.scrape(url, { maxAge: 600_000 });
    expect(first.metadata?.cacheState).toBe('miss');
    const second = await fc.scrape(url, { maxAge: 600_000 });
    expect(second.metadata?.cacheState).toBe('hit');
    expect(second.markdown).toBe(first.markdown);
  });
});

describe('v2 map, search, extract, credit usage', () => {
  it('map lists the site as { url } objects; search filters them', async () => {
    const res = await fc.map(`${s.site.url}/`, { limit: 200 });
    const urls = res.links.map((l) => l.url);
    expect(urls).toEqual(expect.arrayContaining([`${s.site.url}/article/0`, `${s.site.url}/about`]));
    for (const link of res.links) expect(typeof link.url).toBe('string');
    const filtered = await fc.map(`${s.site.url}/`, { limit: 200, search: 'article' });
    expect(filtered.links.length).toBeGreaterThan(0);
    expect(filtered.links.every((l) => l.url.includes('article'))).toBe(true);
    const capped = await fc.map(`${s.site.url}/`, { limit: 2 });
    expect(capped.links).toHaveLength(2);
  });

  it('search finds a scraped page in data.web (with its markdown when asked)', async () => {
    await fc.scrape(`${s.site.url}/article/7`, { formats: ['markdown'] });
    // The search index is written just behind the scrape's answer.
    const found = await pollUntil(async () => {
      const r = await fc.search('roasting', { limit: 5, scrapeOptions: { formats: ['markdown'] } });
      const hit = (r.web ?? []).find((w) => 'url' in w && w.url === `${s.site.url}/article/7`);
      return hit ? { r, hit } : undefined;
    }, 20_000);
    expect(found.hit).toMatchObject({ url: `${s.site.url}/article/7` });
    // Billed like the native search: 2 credits per result returned.
    const before = await balanceOf(s.account.accountId);
    const again = await fc.search('roasting', { limit: 3 });
    expect(again.web?.length).toBeGreaterThan(0);
    expect(await balanceOf(s.account.accountId)).toBe(before - 2 * (again.web?.length ?? 0));
    expect((found.hit as { markdown?: string }).markdown).toContain('Coffee Roasting');
  });

  it('extract (start + wait) returns the schema-shaped data, 5 credits', async () => {
    const before = await balanceOf(s.account.accountId);
    const res = await fc.extract({
      urls: [`${s.site.url}/`],
      prompt: 'The title of the article',
      schema: { type: 'object', properties: { title: { type: 'string' } } },
      pollInterval: 1,
      timeout: 30,
    });
    expect(res.status).toBe('completed');
    expect(res.data).toEqual(FAKE_EXTRACTION);
    expect(await balanceOf(s.account.accountId)).toBe(before - 5); // the native extract price
  });

  it('getCreditUsage reports the account balance', async () => {
    const usage = await fc.getCreditUsage();
    expect(usage.remainingCredits).toBe(await balanceOf(s.account.accountId));
    await fc.scrape(`${s.site.url}/article/1`);
    expect((await fc.getCreditUsage()).remainingCredits).toBe(usage.remainingCredits - 1);
  });
});

describe('v2 errors as the SDK surfaces them', () => {
  it('a bad key is an SdkError with status 401 and the server message', async () => {
    const bad = new Firecrawl({ apiKey: 'fc-not-a-real-key', apiUrl: s.apiUrl });
    const err = await sdkError(bad.scrape(`${s.site.url}/`));
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/key|auth/i);
    expect((await sdkError(bad.map(`${s.site.url}/`))).status).toBe(401);
  });

  it('an account without credits gets 402 with a message naming credits, and is not charged', async () => {
    const broke = await accountWithCredits(0);
    const fc0 = new Firecrawl({ apiKey: broke.apiKey, apiUrl: s.apiUrl });
    const err = await sdkError(fc0.scrape(`${s.site.url}/`));
    expect(err.status).toBe(402);
    expect(err.message).toMatch(/credit/i);
    const crawlErr = await sdkError(fc0.startCrawl(`${s.site.url}/tree`, { limit: 3 }));
    expect(crawlErr.status).toBe(402);
    expect(await balanceOf(broke.accountId)).toBe(0);
  });

  it('an invalid request is a 400 SdkError naming the field', async () => {
    const err = await sdkError(fc.scrape('not a url'));
    expect(err.status).toBe(400);
    expect(err.message.length).toBeGreaterThan(0);
  });

  it('an option the service cannot honour is refused by name, not silently ignored', async () => {
    const err = await sdkError(fc.scrape(`${s.site.url}/`, { proxy: 'stealth' }));
    expect([400, 501]).toContain(err.status);
    expect(err.message).toMatch(/proxy|stealth/i);
  });

  it('an endpoint the service does not offer is a 501 naming it', async () => {
    const err = await sdkError(fc.getConcurrency());
    expect(err.status).toBe(501);
    expect(err.message).toMatch(/concurrency-check/);
    expect(err.code).toBe('NOT_SUPPORTED');
  });

  it('extract of several URLs is a 400 saying it takes one page (nothing is charged)', async () => {
    const before = await balanceOf(s.account.accountId);
    const err = await sdkError(
      fc.startExtract({ urls: [`${s.site.url}/`, `${s.site.url}/about`], prompt: 'titles' }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^urls: /);
    expect(await balanceOf(s.account.accountId)).toBe(before);
  });

  it('over the rate limit: a 429 SdkError, and the answer carries Retry-After', async () => {
    // A second gateway on the same stores with a plan limit of 2 requests per window.
    const limited = await startStack({ worker: false, env: { RATE_LIMIT_HOBBY: '2' } });
    try {
      const account = await accountWithCredits(10);
      const fcl = new Firecrawl({ apiKey: account.apiKey, apiUrl: `${limited.url}/firecrawl` });
      // Fixed windows: two calls pass per window, so the third or (across a boundary) the fifth fails.
      let passed = 0;
      let err: unknown;
      while (passed < 5 && err === undefined) {
        await fcl.getCreditUsage().then(
          () => passed++,
          (e: unknown) => (err = e),
        );
      }
      expect(err).toBeInstanceOf(SdkError);
      if (!(err instanceof SdkError)) return;
      expect(passed).toBeGreaterThanOrEqual(2);
      expect(passed).toBeLessThanOrEqual(4);
      expect(err.status).toBe(429);
      expect(err.message).toMatch(/rate limit/i);
      const raw = await fetch(`${limited.url}/firecrawl/v2/team/credit-usage`, { headers: account.auth });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await raw.json()).toMatchObject({ success: false, error: expect.stringMatching(/rate limit/i) });
    } finally {
      await limited.close();
    }
  });

  it('a page slower than `timeout` is a 408/504 SdkError saying so, refunded', async () => {
    const before = await balanceOf(s.account.accountId);
    const err = await sdkError(fc.scrape(`${s.site.url}/slow`, { timeout: 1500 }));
    expect([408, 504]).toContain(err.status);
    expect(err.message).toMatch(/longer than 1500 ms|timed? ?out/i);
    expect(await balanceOf(s.account.accountId)).toBe(before);
  });
});
