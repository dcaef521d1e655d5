/**
 * A URL is fetched exactly as given or discovered — `/docs/` and `/docs` are two
 * resources — and discovery survives a failing start page. Against a host that answers 404 for
 * the other slash form, with a real gateway, crawl-worker and map worker.
 */
import { type StrictSlashSite, startStrictSlashSite } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack } from './harness';

let stack: Stack;
const sites: StrictSlashSite[] = [];

async function site(sitemapPaths?: string[]): Promise<StrictSlashSite> {
  const s = await startStrictSlashSite(sitemapPaths ? { sitemapPaths } : {});
  sites.push(s);
  return s;
}

beforeAll(async () => {
  stack = await startStack({
    crawlWorker: true,
    mapWorker: true,
    env: { WORKER_CONCURRENCY: '4', CRAWL_PAGE_TIMEOUT_MS: '5000', BROWSER_ENABLED: 'false' },
  });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all(sites.map((s) => s.close()));
});

const paths = (urls: string[], base: string) => urls.map((u) => u.slice(base.length)).sort();

describe('crawl: fetched as given or discovered', () => {
  it('a crawl started at /docs/ on a strict host crawls /docs/ and its relative links, never a 404 spelling', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 50 });
    const id = await startCrawl(stack.url, account.auth, { url: `${s.url}/docs/`, maxDepth: 2 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done.url).toBe(`${s.url}/docs/`);
    expect(done.failedPages).toEqual([]);
    expect(s.notFound).toEqual(['/robots.txt', '/sitemap.xml']);
    // The start page is the first page fetched (after robots.txt and the sitemap probe).
    expect(s.requests.filter((r) => r !== '/robots.txt' && r !== '/sitemap.xml')[0]).toBe('/docs/');
    const got = paths(
      done.pages.map((p) => p.url),
      s.url,
    );
    // /docs/moved redirects to /docs/guide/: one of the two is a duplicate of the other, never both.
    expect(got.filter((p) => p === '/docs/moved' || p === '/docs/guide/')).toHaveLength(1);
    expect(got.filter((p) => p !== '/docs/moved' && p !== '/docs/guide/')).toEqual([
      '/about/',
      '/docs/',
      '/docs/api',
    ]);
    expect(done).toMatchObject({ status: 'done', completed: 4, total: 4, failed: 0, creditsUsed: 4 });
    expect(await balanceOf(account.accountId)).toBe(46);
    // Fragments and tracking parameters never made a page of their own.
    expect(s.requests.some((r) => r.includes('utm_'))).toBe(false);
  });

  it('sitemap URLs obey maxDepth by their path depth below the start URL', async () => {
    const sitemap = ['/docs/changelog', '/docs/deep/a/', '/docs/deep/a/b', '/about/'];
    const s = await site(sitemap);
    const account = await createTestAccount({ credits: 50 });
    const id = await startCrawl(stack.url, account.auth, { url: `${s.url}/docs/`, maxDepth: 1 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    const got = paths(
      done.pages.map((p) => p.url),
      s.url,
    );
    // depth 1 by path: /docs/changelog (sitemap only); /about/ is outside /docs/ but one segment deep.
    expect(got).toContain('/docs/changelog');
    expect(got).toContain('/about/');
    // /docs/deep/a/ is 2 below /docs/, /docs/deep/a/b 3: never requested.
    expect(s.requests.filter((r) => r.startsWith('/docs/deep'))).toEqual([]);
    expect(done.status).toBe('done');

    const zero = await startCrawl(stack.url, account.auth, { url: `${s.url}/docs/`, maxDepth: 0 });
    const only = await waitForCrawl(stack.url, zero, account.auth);
    expect(only.pages.map((p) => p.url)).toEqual([`${s.url}/docs/`]);
    expect(only).toMatchObject({ total: 1, completed: 1 });
  });

  it('a failing start page does not end a crawl that has sitemap URLs to visit', async () => {
    const s = await site(['/docs/guide/', '/docs/api']);
    const account = await createTestAccount({ credits: 50 });
    // The wrong spelling: /docs is a 404 on this host.
    const id = await startCrawl(stack.url, account.auth, { url: `${s.url}/docs`, maxDepth: 1 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done.status).toBe('done');
    expect(done.failedPages).toEqual([
      expect.objectContaining({ url: `${s.url}/docs`, code: 'TARGET_HTTP_ERROR' }),
    ]);
    expect(
      paths(
        done.pages.map((p) => p.url),
        s.url,
      ),
    ).toEqual(expect.arrayContaining(['/docs/api', '/docs/guide/']));
    expect(done.creditsUsed).toBe(done.completed);
    expect(done.completed).toBeGreaterThanOrEqual(2);
  });
});

describe('map: fetched as given; a failing start page is a warning when other sources give links', () => {
  const map = (auth: Record<string, string>, body: Record<string, unknown>) =>
    request(stack.url).post('/v1/map').set(auth).send(body);

  it('maps /docs/ on a strict host: the start page as given, links as written, no slash merged', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 10 });
    const res = await map(account.auth, { url: `${s.url}/docs/` });
    expect(res.status).toBe(200);
    expect(res.body.warning).toBeUndefined();
    expect(res.body.links[0]).toBe(`${s.url}/docs/`);
    expect(paths(res.body.links, s.url)).toEqual([
      '/about/',
      '/docs/',
      '/docs/api',
      '/docs/guide/',
      '/docs/moved',
    ]);
    expect(s.notFound.filter((r) => r.startsWith('/docs'))).toEqual([]);
  });

  it('start page 404/403/500/timeout/not HTML with a sitemap: 200 with the sitemap links and a warning', async () => {
    const s = await site(['/docs/guide/', '/docs/api']);
    const account = await createTestAccount({ credits: 10 });
    const cases: Array<[string, RegExp]> = [
      ['/docs', /404/],
      ['/blocked/', /403/],
      ['/error/', /500/],
      ['/hang/', /TIMEOUT/],
      ['/file.pdf', /not HTML \(application\/pdf\)/],
    ];
    for (const [start, why] of cases) {
      const res = await map(account.auth, { url: `${s.url}${start}`, timeout: 3_000 });
      expect({ start, status: res.status }).toEqual({ start, status: 200 });
      expect(res.body.warning).toMatch(why);
      expect(res.body.links).toEqual(expect.arrayContaining([`${s.url}/docs/guide/`, `${s.url}/docs/api`]));
      expect(res.body.total).toBe(res.body.links.length);
    }
    // A start page that failed is not listed.
    const missing = await map(account.auth, { url: `${s.url}/docs` });
    expect(missing.body.links).not.toContain(`${s.url}/docs`);
    expect(await balanceOf(account.accountId)).toBe(10 - cases.length - 1);
  });

  it('only when no source yields anything is it an error, refunded', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 10 });
    const res = await map(account.auth, { url: `${s.url}/docs` });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'TARGET_HTTP_ERROR' });
    const hang = await map(account.auth, { url: `${s.url}/hang/`, timeout: 1_500 });
    expect(hang.status).toBe(504);
    expect(hang.body.code).toBe('TIMEOUT');
    expect(await balanceOf(account.accountId)).toBe(10);
  });
});

describe('scrape, batch and monitors fetch the URL as sent', () => {
  it('/docs/ and /docs/api on a strict host: scrape, batch items and a monitor keep the slash as given', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 10 });
    const one = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${s.url}/docs/` });
    expect(one.status).toBe(200);
    expect(one.body.data.metadata.sourceURL).toBe(`${s.url}/docs/`);
    const batch = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${s.url}/docs/guide/`, `${s.url}/docs/api`] });
    expect(batch.status).toBe(202);
    const done = await pollUntil(async () => {
      const r = await request(stack.url).get(`/v1/batch/scrape/${batch.body.id}`).set(account.auth);
      return r.body.status === 'done' ? r.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ completed: 2, failed: 0 });
    const monitor = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({ url: `${s.url}/docs/`, interval: 'daily' });
    expect(monitor.status).toBe(201);
    expect(JSON.stringify(monitor.body)).toContain(`${s.url}/docs/"`);
    expect(s.notFound).toEqual([]);
  });
});
