/**
 * POST /v1/map end to end: gateway + the crawl-worker's map worker in this process, real
 * PostgreSQL and Redis, local map fixture sites (robots.txt, sitemap index with gzipped children,
 * start page, hub page for the shallow crawl).
 */
import { MAP_SITE_PAGES, type MapSite, startMapSite } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

interface MapResponse {
  success: boolean;
  links: string[];
  total: number;
}

describe('POST /v1/map', () => {
  let stack: Stack;
  let site: MapSite;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({
      worker: false,
      mapWorker: true,
      env: { MAP_SHALLOW_PAGES: '10', BROWSER_ENABLED: 'false' },
    });
    site = await startMapSite({ sitemapUrls: 30, sitemapFiles: 3 });
    account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
  });
  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  const map = (body: Record<string, unknown>, auth = account.auth) =>
    request(stack.url).post('/v1/map').set(auth).send(body);

  it('merges robots sitemaps (index + gzip), start-page links and a shallow crawl; charges 1 credit', async () => {
    const before = await balanceOf(account.accountId);
    const res = await map({ url: site.url });
    expect(res.status).toBe(200);
    const body = res.body as MapResponse;
    // not wrapped in `data`
    expect(Object.keys(body).sort()).toEqual(['links', 'success', 'total']);
    expect(body.success).toBe(true);
    expect(body.total).toBe(body.links.length);

    const b = site.url;
    const expected = [
      `${b}/`,
      ...MAP_SITE_PAGES.startLinks.map((p) => `${b}${p}`),
      ...MAP_SITE_PAGES.sitemapDocs.map((p) => `${b}${p}`),
      ...MAP_SITE_PAGES.shallowOnly.map((p) => `${b}${p}`),
      ...Array.from({ length: 30 }, (_, i) => `${b}/p/${i}`),
    ];
    expect([...body.links].sort()).toEqual([...expected].sort());
    // start page first, then its links in document order
    expect(body.links.slice(0, 3)).toEqual([`${b}/`, `${b}/about`, `${b}/blog`]);
    // de-duplicated by key (tracking params, fragment); listed as first written (query order kept)
    expect(new Set(body.links).size).toBe(body.links.length);
    // robots.txt obeyed: disallowed URLs neither listed nor fetched
    expect(body.links.some((l) => l.includes('/private/'))).toBe(false);
    expect(site.accessLog.some((l) => l.includes('/private/'))).toBe(false);
    // every gzipped child sitemap was read; the shallow crawl fetched the hub
    for (const k of [0, 1, 2]) expect(site.hits(`/sitemaps/pages-${k}.xml.gz`)).toBe(1);
    expect(site.hits('/hub')).toBe(1);
    expect(site.hits('/sitemap.xml')).toBe(0); // robots named the index; nothing guessed

    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('sitemapOnly: the sitemap URLs alone, no page fetched; with ignoreSitemap a 400', async () => {
    const res = await map({ url: site.url, sitemapOnly: true });
    expect(res.status).toBe(200);
    const b = site.url;
    expect([...(res.body as MapResponse).links].sort()).toEqual(
      [
        ...MAP_SITE_PAGES.sitemapDocs.map((p) => `${b}${p}`),
        ...Array.from({ length: 30 }, (_, i) => `${b}/p/${i}`),
      ].sort(),
    );
    const both = await map({ url: site.url, sitemapOnly: true, ignoreSitemap: true });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/sitemapOnly/);
  });

  it('linkMetadata: pages lists the links in order with the title/description of the pages the map fetched', async () => {
    const plain = (await map({ url: site.url })).body as MapResponse;
    const res = await map({ url: site.url, linkMetadata: true });
    expect(res.status).toBe(200);
    const body = res.body as MapResponse & {
      pages: Array<{ url: string; title?: string; description?: string }>;
    };
    expect([...body.links].sort()).toEqual([...plain.links].sort());
    expect(body.pages.map((p) => p.url)).toEqual(body.links);
    const b = site.url;
    const byUrl = new Map(body.pages.map((p) => [p.url, p]));
    // The start page (fetched): title and meta description.
    expect(byUrl.get(`${b}/`)).toEqual({
      url: `${b}/`,
      title: 'Map fixture home',
      description: 'The home page of the map fixture',
    });
    // A page of the shallow crawl: its title (it has no description).
    expect(byUrl.get(`${b}/hub`)).toEqual({ url: `${b}/hub`, title: 'Hub' });
    // Known only from a sitemap, or from a link of a shallow page: nothing but the URL.
    expect(byUrl.get(`${b}/p/0`)).toEqual({ url: `${b}/p/0` });
    expect(byUrl.get(`${b}/hub/deep-1`)).toEqual({ url: `${b}/hub/deep-1` });
  });

  it('guesses /sitemap.xml when robots.txt names none; ignoreSitemap skips sitemaps', async () => {
    const bare = await startMapSite({ robotsSitemaps: false });
    try {
      const res = await map({ url: bare.url });
      expect(res.status).toBe(200);
      expect(res.body.links).toContain(`${bare.url}/guessed/from-sitemap-xml`);
      expect(res.body.links.filter((l: string) => l === `${bare.url}/about`)).toHaveLength(1);
      expect(bare.hits('/sitemap.xml')).toBe(1);
      expect(bare.hits('/sitemap-index.xml')).toBe(0);
    } finally {
      await bare.close();
    }
    const sitemapReads = site.hits('/sitemap-index.xml');
    const res = await map({ url: site.url, ignoreSitemap: true });
    expect(res.status).toBe(200);
    expect(site.hits('/sitemap-index.xml')).toBe(sitemapReads);
    expect(res.body.links.some((l: string) => l.includes('/p/'))).toBe(false);
    expect(res.body.links).toContain(`${site.url}/hub/deep-1`); // shallow crawl still runs
  });

  it('search keeps matching URLs (URL or link text) and ranks exact path segments first', async () => {
    const res = await map({ url: site.url, search: 'SEARCH' });
    expect(res.status).toBe(200);
    const b = site.url;
    expect(res.body.links).toEqual([
      `${b}/search`, // path segment equals the term
      `${b}/blog/search-tips`, // in the URL, shorter first
      `${b}/blog/research-notes`,
      `${b}/archive`, // only the link text ("Search our archive") matches
    ]);
    expect(res.body.total).toBe(4);
  });

  it('max_urls caps the answer', async () => {
    const res = await map({ url: site.url, max_urls: 5 });
    expect(res.status).toBe(200);
    expect(res.body.links).toHaveLength(5);
    expect(res.body.total).toBe(5);
  });

  it('returns what it found when the budget runs out in a sitemap', async () => {
    const slow = await startMapSite({ hangingSitemap: true });
    try {
      const res = await map({ url: slow.url, timeout: 3_000 });
      expect(res.status).toBe(200);
      expect(res.body.links).toContain(`${slow.url}/about`);
      expect(res.body.links).toContain(`${slow.url}/docs/api`); // from the child that answered
    } finally {
      await slow.close();
    }
  });

  it('a failing start page is a warning while the sitemaps give links; unreachable is an error, refunded', async () => {
    const missing = await map({ url: `${site.url}/does-not-exist` });
    expect(missing.status).toBe(200);
    expect(missing.body.warning).toMatch(/start page failed \(TARGET_HTTP_ERROR: .*404/);
    expect(missing.body.links).toContain(`${site.url}/docs/api`);

    const before = await balanceOf(account.accountId);
    const closed = await startMapSite();
    const deadUrl = closed.url;
    await closed.close();
    const unreachable = await map({ url: deadUrl });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.code).toBe('TARGET_UNREACHABLE');

    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('refuses private targets unless allowed, with the SSRF error', async () => {
    const strict = await startStack({
      worker: false,
      mapWorker: true,
      env: { ALLOW_PRIVATE_TARGETS: 'false' },
    });
    try {
      const before = site.accessLog.length;
      const res = await request(strict.url).post('/v1/map').set(account.auth).send({ url: site.url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('TARGET_FORBIDDEN');
      expect(site.accessLog.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('402 at zero balance, 400 on invalid bodies, 401 without a key', async () => {
    const broke = await createTestAccount({ credits: 0 });
    const poor = await map({ url: site.url }, broke.auth);
    expect(poor.status).toBe(402);
    expect(poor.body.code).toBe('INSUFFICIENT_CREDITS');

    for (const [body, code, field] of [
      [{}, 'VALIDATION_FAILED', /^url: /],
      [{ url: site.url, max_urls: 0 }, 'VALIDATION_FAILED', /^max_urls: /],
      [{ url: site.url, max_urls: 100_001 }, 'VALIDATION_FAILED', /^max_urls: /],
      [{ url: site.url, max_urls: 'ten' }, 'VALIDATION_FAILED', /^max_urls: /],
      [{ url: site.url, search: 42 }, 'VALIDATION_FAILED', /^search: /],
      [{ url: site.url, timeout: 10 }, 'VALIDATION_FAILED', /^timeout: /],
      [{ url: 'ftp://example.com/' }, 'INVALID_URL', /^url: /],
    ] as const) {
      const res = await map(body);
      expect([res.status, res.body.code]).toEqual([400, code]);
      expect(res.body.error).toMatch(field);
    }
    expect(await balanceOf(broke.accountId)).toBe(0);
    const anon = await request(stack.url).post('/v1/map').send({ url: site.url });
    expect(anon.status).toBe(401);
  });

  it('maps a 50k-URL sitemap (index of gzipped files) within the time budget', async () => {
    const big = await startMapSite({ sitemapUrls: 50_000, sitemapFiles: 5 });
    try {
      const res = await map({ url: big.url, max_urls: 100_000, timeout: 60_000 });
      expect(res.status).toBe(200);
      const generated = (res.body.links as string[]).filter((l) => l.startsWith(`${big.url}/p/`));
      expect(generated).toHaveLength(50_000);
      expect(res.body.total).toBe(res.body.links.length);
    } finally {
      await big.close();
    }
  });
});
