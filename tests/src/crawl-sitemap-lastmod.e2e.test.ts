/**
 * `trustSitemapLastmod`: a tracked recrawl does not ask for a sitemap page whose `<lastmod>` is not
 * after the account's copy of it — the copy is the page (`same`, `metadata.revalidatedBy:
 * "sitemap-lastmod"`), billed as a 304 reuse is (1 credit). A page whose lastmod moved is asked
 * conditionally as before; a page changed without its lastmod moving stays `same` (the documented
 * limitation) until a crawl without the option asks for it. A date-only lastmod is the end of its
 * day: a page changed again later that day is asked. Invalid combinations are 400s.
 */
import { type ConditionalSite, startConditionalSite } from '@wcs/testing';
import request from 'supertest';
import { type CrawlStatusBody, ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

const PAGES = 8;
let site: ConditionalSite;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  // The sitemap gzipped with Content-Encoding: gzip, as real servers (and the recrawl bench) send it.
  site = await startConditionalSite({ pages: PAGES, links: 2, tree: true, sitemap: { gzip: true } });
  stack = await startStack({ crawlWorker: true, env: { BROWSER_ENABLED: 'false' } });
  account = await createTestAccount({ credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const crawlBody = (trust: boolean) => ({
  url: `${site.url}/page/0`,
  maxDepth: 5,
  maxPages: PAGES,
  ...(trust ? { trustSitemapLastmod: true } : {}),
  scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { modes: ['git-diff'] } },
});
const crawl = async (trust: boolean) =>
  waitForCrawl(stack.url, await startCrawl(stack.url, account.auth, crawlBody(trust)), account.auth);
const byPath = (c: CrawlStatusBody) => new Map(c.pages.map((p) => [new URL(p.url).pathname, p]));
const statusOf = (c: CrawlStatusBody) =>
  Object.fromEntries(c.pages.map((p) => [new URL(p.url).pathname, p.changeTracking?.changeStatus]));
/** Requests for pages (not robots.txt or the sitemap) since `from`, per path. */
const pageVisits = (from: number, on: ConditionalSite = site) =>
  on.requests.slice(from).filter((r) => r.path.startsWith('/page/'));

describe('crawl with trustSitemapLastmod', () => {
  it('skips the pages whose sitemap lastmod did not move: no request, the copy as `same`, billed as a 304', async () => {
    const first = await crawl(true);
    expect(first.status).toBe('done');
    expect(first.completed).toBe(PAGES);
    expect(new Set(Object.values(statusOf(first)))).toEqual(new Set(['new']));
    for (const p of first.pages) expect(p.metadata).not.toHaveProperty('revalidatedBy');
    const firstMarkdown = new Map([...byPath(first)].map(([path, p]) => [path, p.markdown]));

    // Two pages change and the sitemap says so; a third changes behind the sitemap's back.
    site.change(3);
    site.change(6);
    site.change(5, { lastmod: false });
    const from = site.requests.length;
    const balance = await balanceOf(account.accountId);
    const ledgerBefore = (await ledgerOf(account.accountId)).length;
    const asked = Date.now();
    const id = await startCrawl(stack.url, account.auth, crawlBody(true));
    const created = Date.now();
    const second = await waitForCrawl(stack.url, id, account.auth);
    expect(second.status).toBe('done');
    expect(second.completed).toBe(PAGES);
    // The start page finished after the seeds the sitemap vouched for (completed together while it
    // held the queue window: lastmod-pass.ts) and before the two pages it had to ask for. The list
    // is in the order pages finished.
    const order = second.pages.map((p) => new URL(p.url).pathname);
    expect(new Set(order.slice(0, 5))).toEqual(
      new Set(['/page/1', '/page/2', '/page/4', '/page/5', '/page/7']),
    );
    expect(order[5]).toBe('/page/0');
    const statuses = statusOf(second);
    expect(statuses['/page/3']).toBe('changed');
    expect(statuses['/page/6']).toBe('changed');
    expect(Object.entries(statuses).filter(([, s]) => s === 'same')).toHaveLength(PAGES - 2);

    // The site was asked for the two pages whose lastmod moved (conditionally, as before) and for
    // nothing else: the other six, the start page included, were not requested at all.
    const visits = pageVisits(from);
    expect(visits.map((r) => r.path).sort()).toEqual(['/page/3', '/page/6']);
    for (const r of visits) {
      expect(r.status).toBe(200);
      expect(r.ifNoneMatch).toBeDefined();
    }
    expect(site.requests.slice(from).some((r) => r.path === '/sitemap.xml')).toBe(true);

    const pages = byPath(second);
    for (const [path, p] of pages) {
      if (path === '/page/3' || path === '/page/6') {
        expect(p.metadata).not.toHaveProperty('revalidatedBy');
        expect(p.changeTracking?.diff?.text).toContain(`+Version 1 of page ${path.split('/').at(-1)}.`);
        continue;
      }
      expect(p.metadata).toMatchObject({ revalidatedBy: 'sitemap-lastmod', statusCode: 200 });
      expect(p.changeTracking).toMatchObject({ changeStatus: 'same', diff: { text: '' } });
      expect(p.markdown).toBe(firstMarkdown.get(path));
    }
    // The limitation: page 5 changed but its lastmod did not move, so it was trusted — old text.
    expect(pages.get('/page/5')?.markdown).toContain('Version 0 of page 5.');

    // Billed as a 304 reuse is: 1 credit per page, skipped or not, nothing else on the ledger.
    expect(await balanceOf(account.accountId)).toBe(balance - PAGES);
    expect(second.creditsUsed).toBe(PAGES);
    const ledger = await ledgerOf(account.accountId);
    const added = ledger.slice(0, ledger.length - ledgerBefore);
    expect(added.map((e) => ({ reason: e.reason, amount: e.amount }))).toEqual(
      Array.from({ length: PAGES }, () => ({ reason: 'crawl', amount: -1 })),
    );

    // A crawl without the option asks for every page: the skipped copies answer 304 (their time
    // had moved to the second crawl's creation, not past it), and page 5 is found `changed`.
    const from3 = site.requests.length;
    const balance3 = await balanceOf(account.accountId);
    const third = await crawl(false);
    expect(third.completed).toBe(PAGES);
    const statuses3 = statusOf(third);
    expect(statuses3['/page/5']).toBe('changed');
    expect(Object.entries(statuses3).filter(([, s]) => s === 'same')).toHaveLength(PAGES - 1);
    const visits3 = pageVisits(from3);
    expect(visits3).toHaveLength(PAGES);
    expect(visits3.filter((r) => r.status === 200).map((r) => r.path)).toEqual(['/page/5']);
    expect(visits3.filter((r) => r.status === 304)).toHaveLength(PAGES - 1);
    for (const [path, p] of byPath(third)) {
      if (path === '/page/5') continue;
      expect(p.metadata).toMatchObject({ revalidatedBy: 'not-modified' });
      const previous = Date.parse(p.changeTracking?.previousScrapeAt ?? '');
      if (path === '/page/3' || path === '/page/6') expect(previous).toBeGreaterThan(created);
      else {
        // Moved to when the second crawl was created (before its sitemap was read).
        expect(previous).toBeGreaterThanOrEqual(asked - 1);
        expect(previous).toBeLessThanOrEqual(created + 1);
      }
    }
    expect(await balanceOf(account.accountId)).toBe(balance3 - PAGES);
  });

  it('a date-only lastmod is the end of its day: a page changed again the same day is asked, not trusted', async () => {
    const dated = await startConditionalSite({ pages: 4, links: 2, tree: true, sitemap: { dateOnly: true } });
    try {
      const body = { ...crawlBody(true), url: `${dated.url}/page/0`, maxPages: 4 };
      const run = async () =>
        waitForCrawl(stack.url, await startCrawl(stack.url, account.auth, body), account.auth);
      const first = await run();
      expect(first.completed).toBe(4);
      // Page 2 changes: its lastmod becomes today's date, after the copy (stored at the latest today).
      dated.change(2);
      expect(dated.lastmod(2)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      let from = dated.requests.length;
      const second = await run();
      expect(statusOf(second)['/page/2']).toBe('changed');
      expect(pageVisits(from, dated).map((r) => r.path)).toEqual(['/page/2']);
      // Changed again the same day: the lastmod reads the same date, but that date ends after the
      // copy the second crawl stored, so the page is asked (and found changed), not trusted.
      dated.change(2);
      from = dated.requests.length;
      const third = await run();
      expect(statusOf(third)['/page/2']).toBe('changed');
      expect(byPath(third).get('/page/2')?.markdown).toContain('Version 2 of page 2.');
      expect(pageVisits(from, dated).map((r) => r.path)).toEqual(['/page/2']);
      for (const [path, p] of byPath(third))
        if (path !== '/page/2') expect(p.metadata).toMatchObject({ revalidatedBy: 'sitemap-lastmod' });
    } finally {
      await dated.close();
    }
  });

  it('a recrawl whose account runs out of credits among the vouched pages stops there, each page billed once', async () => {
    // Enough for the first crawl and three more pages.
    const poor = await createTestAccount({ credits: PAGES + 3 });
    const asPoor = (trust: boolean) =>
      startCrawl(stack.url, poor.auth, crawlBody(trust)).then((id) => waitForCrawl(stack.url, id, poor.auth));
    expect((await asPoor(true)).completed).toBe(PAGES);
    expect(await balanceOf(poor.accountId)).toBe(3);
    const from = site.requests.length;
    const again = await asPoor(true);
    // Every page is vouched for (nothing changed): three are completed with the credits left, then
    // the crawl stops; nothing was asked of the site.
    expect(again).toMatchObject({ status: 'failed', stopReason: 'out_of_credits', completed: 3 });
    expect(pageVisits(from)).toHaveLength(0);
    expect(await balanceOf(poor.accountId)).toBe(0);
    const ledger = await ledgerOf(poor.accountId);
    const crawlRows = ledger.filter((e) => e.reason === 'crawl');
    expect(crawlRows).toHaveLength(PAGES + 3);
    expect(new Set(crawlRows.map((e) => e.reference)).size).toBe(PAGES + 3);
  });

  it('refuses the option without the changeTracking format or with sitemap "skip" (400 naming it)', async () => {
    const post = (body: Record<string, unknown>) =>
      request(stack.url).post('/v1/crawl').set(account.auth).send(body);
    const untracked = await post({ url: `${site.url}/page/0`, trustSitemapLastmod: true });
    expect(untracked.status).toBe(400);
    expect(untracked.body.code).toBe('VALIDATION_FAILED');
    expect(untracked.body.error).toMatch(/^trustSitemapLastmod: needs "changeTracking"/);
    const plainFormats = await post({
      url: `${site.url}/page/0`,
      trustSitemapLastmod: true,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(plainFormats.status).toBe(400);
    expect(plainFormats.body.error).toMatch(/^trustSitemapLastmod: needs "changeTracking"/);
    const noSitemap = await post({ ...crawlBody(true), sitemap: 'skip' });
    expect(noSitemap.status).toBe(400);
    expect(noSitemap.body.error).toMatch(/^trustSitemapLastmod: needs the sitemap/);
    const notBoolean = await post({ ...crawlBody(true), trustSitemapLastmod: 'yes' });
    expect(notBoolean.status).toBe(400);
    // false is the default and needs nothing.
    const off = await post({ url: `${site.url}/page/0`, trustSitemapLastmod: false, sitemap: 'skip' });
    expect(off.status).toBe(202);
    await waitForCrawl(stack.url, off.body.id as string, account.auth);
  });
});
