/**
 * The `changeTracking` format through the real stack (gateway, scrape and crawl workers, the
 * page_history table): new → same → markup-only same → changed with a git diff → removed on a 404,
 * history per account and per tag, batch items, a recrawl's per-page status and `removed` list,
 * the Firecrawl routes, and the refusals of bad options. The site is a local server whose pages
 * the test rewrites between scrapes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SearxngFixture, startSearxngFixture } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

/** Path → HTML body; a path that is absent answers 404. */
const pages = new Map<string, string>();
/** Served at /sitemap.xml (404 while empty). */
let sitemapXml = '';
let server: Server;
let searxng: SearxngFixture;
let base: string;
let stack: Stack;
let account: TestAccount;

function article(words: string, o: { markup?: boolean; links?: string[] } = {}): string {
  const paragraphs = [
    `The harbour town keeps its ${words} beside the old stone pier, where the ferries leave at dawn.`,
    'Fishermen mend their nets on the quay while the market opens and the bakers sell warm bread.',
    'Visitors walk the cliff path to the lighthouse and watch the seabirds circle over the bay.',
    'In winter the storms close the harbour for days, and the town waits for calmer weather.',
  ];
  // The markup-only variant wraps the same words differently: emphasis, extra containers, classes.
  const body = o.markup
    ? paragraphs
        .map(
          (p, i) => `<div class="wrap-${i}"><section><p class="t"><strong>${p}</strong></p></section></div>`,
        )
        .join('\n')
    : paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  const links = (o.links ?? []).map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
  return `<!doctype html><html><head><title>Harbour notes</title></head><body><main>
<h1>Harbour notes</h1>
${body}
${links ? `<ul>${links}</ul>` : ''}
</main></body></html>`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/sitemap.xml' && sitemapXml) {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemapXml);
      return;
    }
    const html = pages.get(path);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    const etag = `"${createHash('sha256').update(html).digest('hex').slice(0, 16)}"`;
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        etag,
        'last-modified': 'Wed, 02 Dec 2026 10:00:00 GMT',
      })
      .end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  searxng = await startSearxngFixture();
  stack = await startStack({
    crawlWorker: true,
    env: { BROWSER_ENABLED: 'false', SEARCH_PROVIDER: 'searxng', SEARXNG_URL: searxng.url },
  });
  account = await createTestAccount({ credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await searxng?.close();
});

const tracked = (url: string, who: TestAccount = account, extra: Record<string, unknown> = {}) =>
  request(stack.url)
    .post('/v1/scrape')
    .set(who.auth)
    .send({ url, formats: ['markdown', 'changeTracking'], ...extra });

const fresh = () => `/p/${randomUUID()}`;

describe('scrape with the changeTracking format', () => {
  it('new, same, markup-only same, changed with a diff, removed on a 404', async () => {
    const path = fresh();
    pages.set(path, article('blue boats'));
    const first = await tracked(base + path, account, { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(first.status).toBe(200);
    expect(first.body.data.changeTracking).toEqual({
      previousScrapeAt: null,
      changeStatus: 'new',
      visibility: 'visible',
    });
    expect(first.body.data.markdown).toContain('blue boats');

    const second = await tracked(base + path, account, { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(second.status).toBe(200);
    expect(second.body.data.changeTracking.changeStatus).toBe('same');
    expect(Date.parse(second.body.data.changeTracking.previousScrapeAt)).not.toBeNaN();
    expect(second.body.data.changeTracking.diff).toEqual({ text: '', json: { files: [] } });

    pages.set(path, article('blue boats', { markup: true }));
    const markup = await tracked(base + path);
    expect(markup.status).toBe(200);
    expect(markup.body.data.changeTracking.changeStatus).toBe('same');
    // No git-diff mode asked: no diff.
    expect(markup.body.data.changeTracking.diff).toBeUndefined();

    pages.set(path, article('red boats'));
    const changed = await tracked(base + path, account, { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(changed.status).toBe(200);
    const ct = changed.body.data.changeTracking;
    expect(ct.changeStatus).toBe('changed');
    expect(ct.previousScrapeAt >= second.body.data.changeTracking.previousScrapeAt).toBe(true);
    const lines: string[] = ct.diff.text.split('\n');
    expect(lines.some((l) => l.startsWith('-') && l.includes('blue boats'))).toBe(true);
    expect(lines.some((l) => l.startsWith('+') && l.includes('red boats'))).toBe(true);
    const changes = ct.diff.json.files[0].chunks.flatMap((c: { changes: unknown[] }) => c.changes);
    expect(changes).toContainEqual(
      expect.objectContaining({ type: 'add', content: expect.stringContaining('red boats') }),
    );

    pages.delete(path);
    const removed = await tracked(base + path, account, { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(removed.status).toBe(200);
    expect(removed.body.data.changeTracking.changeStatus).toBe('removed');
    expect(removed.body.data.metadata.statusCode).toBe(404);
    expect(removed.body.data.changeTracking.diff.text).toContain('-');

    // Gone and already recorded as removed: nothing to compare with, the 404 fails as any 404.
    const again = await tracked(base + path);
    expect(again.status).toBe(502);
    expect(again.body.code).toBe('TARGET_HTTP_ERROR');
  });

  it('a tag starts its own history; another account has its own', async () => {
    const path = fresh();
    pages.set(path, article('green nets'));
    expect((await tracked(base + path)).body.data.changeTracking.changeStatus).toBe('new');
    expect((await tracked(base + path)).body.data.changeTracking.changeStatus).toBe('same');
    const tagged = await tracked(base + path, account, { changeTrackingOptions: { tag: 'weekly' } });
    expect(tagged.body.data.changeTracking.changeStatus).toBe('new');
    pages.set(path, article('yellow nets'));
    // The untagged history still holds the first version; the tagged one too, each on its own.
    expect((await tracked(base + path)).body.data.changeTracking.changeStatus).toBe('changed');
    const taggedAgain = await tracked(base + path, account, { changeTrackingOptions: { tag: 'weekly' } });
    expect(taggedAgain.body.data.changeTracking.changeStatus).toBe('changed');

    const other = await createTestAccount({ credits: 50 });
    const theirs = await tracked(base + path, other);
    expect(theirs.body.data.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
  });

  it('the same URL with a tracking parameter shares its history (the crawl frontier’s URL key)', async () => {
    const path = fresh();
    pages.set(path, article('white sails'));
    expect((await tracked(`${base}${path}`)).body.data.changeTracking.changeStatus).toBe('new');
    expect((await tracked(`${base}${path}?gclid=abc`)).body.data.changeTracking.changeStatus).toBe('same');
  });

  it('refuses bad options with a 400 naming the field', async () => {
    const url = `${base}${fresh()}`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { mode: ['git-diff'] } },
        'changeTrackingOptions',
      ],
      [
        { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { modes: ['svn'] } },
        'changeTrackingOptions.modes',
      ],
      [
        { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: '' } },
        'changeTrackingOptions.tag',
      ],
      [{ formats: ['changeTracking'] }, 'formats'],
      [{ formats: ['markdown'], changeTrackingOptions: { tag: 'x' } }, 'changeTrackingOptions'],
      [
        { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { modes: ['json'] } },
        'changeTrackingOptions.modes',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await request(stack.url)
        .post('/v1/scrape')
        .set(account.auth)
        .send({ url, ...body });
      expect({ status: res.status, body }).toEqual({ status: 400, body });
      expect(res.body.error).toContain(field);
    }
  });
});

describe('batch and crawl', () => {
  it('batch items carry their change status', async () => {
    const path = fresh();
    pages.set(path, article('grey gulls'));
    await tracked(base + path).expect(200);
    pages.set(path, article('black gulls'));
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [base + path], formats: ['markdown', 'changeTracking'] });
    expect(start.status).toBe(202);
    const done = await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    expect(done.results[0].data.changeTracking.changeStatus).toBe('changed');
  });

  it("a recrawl lists each page's status and the previous crawl's pages it no longer reached", async () => {
    const dir = `/site/${randomUUID()}`;
    const set = (b: string, links: string[]) => pages.set(`${dir}/`, article(b, { links }));
    set('the index', [`${dir}/a`, `${dir}/b`, `${dir}/c`]);
    pages.set(`${dir}/a`, article('page a'));
    pages.set(`${dir}/b`, article('page b'));
    pages.set(`${dir}/c`, article('page c'));
    const crawl = async () => {
      const id = await startCrawl(stack.url, account.auth, {
        url: `${base}${dir}/`,
        maxDepth: 1,
        maxPages: 10,
        sitemap: 'skip',
        scrapeOptions: { formats: ['markdown', 'changeTracking'] },
      });
      return waitForCrawl(stack.url, id, account.auth);
    };
    const statusOf = (c: Awaited<ReturnType<typeof crawl>>) =>
      Object.fromEntries(
        c.pages.map((p) => [new URL(p.url).pathname.slice(dir.length), p.changeTracking?.changeStatus]),
      );

    const first = await crawl();
    expect(first.status).toBe('done');
    expect(statusOf(first)).toEqual({ '/': 'new', '/a': 'new', '/b': 'new', '/c': 'new' });
    // The first crawl of this start URL: nothing to compare with.
    expect(first.removed).toEqual([]);

    set('the index', [`${dir}/a`, `${dir}/b`]);
    pages.set(`${dir}/b`, article('page b, rewritten'));
    pages.delete(`${dir}/c`);
    const second = await crawl();
    expect(second.status).toBe('done');
    // The index's link list is navigation, left out by the main-content step: its text is the same.
    expect(statusOf(second)).toEqual({ '/': 'same', '/a': 'same', '/b': 'changed' });
    expect(second.removed).toEqual([`${base}${dir}/c`]);

    // The Firecrawl crawl status lists it too.
    const fc = await request(stack.url).get(`/firecrawl/v2/crawl/${second.id}`).set(account.auth);
    expect(fc.status).toBe(200);
    expect(fc.body.removed).toEqual([`${base}${dir}/c`]);
    expect(
      fc.body.data
        .map((d: { changeTracking: { changeStatus: string } }) => d.changeTracking.changeStatus)
        .sort(),
    ).toEqual(['changed', 'same', 'same']);

    // Later pages of results do not repeat the list.
    const later = await request(stack.url).get(`/v1/crawl/${second.id}?skip=1&limit=1`).set(account.auth);
    expect(later.body.removed).toBeUndefined();
  });

  it('a crawl page only the sitemap led to is hidden; linked pages are visible', async () => {
    const dir = `/hid/${randomUUID()}`;
    pages.set(`${dir}/`, article('the start', { links: [`${dir}/linked`] }));
    pages.set(`${dir}/linked`, article('a linked page'));
    pages.set(`${dir}/orphan`, article('an orphan page'));
    sitemapXml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}${dir}/orphan</loc></url></urlset>`;
    try {
      const id = await startCrawl(stack.url, account.auth, {
        url: `${base}${dir}/`,
        maxDepth: 2,
        maxPages: 10,
        scrapeOptions: { formats: ['markdown', 'changeTracking'] },
      });
      const done = await waitForCrawl(stack.url, id, account.auth);
      expect(done.status).toBe('done');
      const visibility = Object.fromEntries(
        done.pages.map((p) => [new URL(p.url).pathname.slice(dir.length), p.changeTracking?.visibility]),
      );
      expect(visibility).toEqual({ '/': 'visible', '/linked': 'visible', '/orphan': 'hidden' });
    } finally {
      sitemapXml = '';
    }
  });
});

describe('search hits', () => {
  it('native changeTracking: true and the Firecrawl v2 format compare each hit with its history', async () => {
    const path = fresh();
    pages.set(path, article('purple crabs'));
    searxng.configure({ results: [{ url: base + path, title: 'Crabs', content: 'about crabs' }] });
    const search = () =>
      request(stack.url)
        .post('/v1/search')
        .set(account.auth)
        .send({ query: 'crabs', num_results: 1, changeTracking: true, changeTrackingOptions: { tag: 's' } });
    const first = await search();
    expect(first.status).toBe(200);
    expect(first.body.data[0].changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    pages.set(path, article('orange crabs'));
    const fc = await request(stack.url)
      .post('/firecrawl/v2/search')
      .set(account.auth)
      .send({
        query: 'crabs',
        limit: 1,
        scrapeOptions: { formats: ['markdown', { type: 'changeTracking', tag: 's', modes: ['git-diff'] }] },
      });
    expect(fc.status).toBe(200);
    expect(fc.body.data.web[0].changeTracking.changeStatus).toBe('changed');
    expect(fc.body.data.web[0].changeTracking.diff.text).toContain('+');
    expect((await search()).body.data[0].changeTracking.changeStatus).toBe('same');

    const bad = await request(stack.url)
      .post('/v1/search')
      .set(account.auth)
      .send({ query: 'crabs', changeTrackingOptions: { tag: 's' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('changeTrackingOptions');
  });
});

describe('Firecrawl routes', () => {
  it('v2 takes the format object (modes, tag); v1 takes changeTrackingOptions', async () => {
    const path = fresh();
    pages.set(path, article('silver fish'));
    const v2 = (b: Record<string, unknown> = {}) =>
      request(stack.url)
        .post('/firecrawl/v2/scrape')
        .set(account.auth)
        .send({
          url: base + path,
          formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'fc' }],
          ...b,
        });
    const first = await v2();
    expect(first.status).toBe(200);
    expect(first.body.data.changeTracking).toEqual({
      previousScrapeAt: null,
      changeStatus: 'new',
      visibility: 'visible',
    });
    pages.set(path, article('golden fish'));
    // Firecrawl's default maxAge (2 days) is not applied to a tracked scrape: the page is fetched.
    const second = await v2();
    expect(second.body.data.changeTracking.changeStatus).toBe('changed');
    expect(second.body.data.changeTracking.diff.text).toContain('+');
    expect(second.body.data.changeTracking.diff.json.files).toHaveLength(1);

    const v1 = await request(stack.url)
      .post('/firecrawl/v1/scrape')
      .set(account.auth)
      .send({
        url: base + path,
        formats: ['markdown', 'changeTracking'],
        changeTrackingOptions: { modes: ['git-diff'], tag: 'fc' },
      });
    expect(v1.status).toBe(200);
    expect(v1.body.data.changeTracking.changeStatus).toBe('same');

    const bad = await v2({
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], colour: 1 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('formats.1.colour');
  });
});
