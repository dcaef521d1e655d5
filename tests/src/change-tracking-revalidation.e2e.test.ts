/**
 * The `changeTracking` format revalidates: a tracked visit that asks only for markdown sends the
 * stored copy's validators (If-None-Match / If-Modified-Since) and a 304 returns that copy as
 * `same` — nothing downloaded or converted — on `/v1/scrape` and `/firecrawl/v2/scrape`; a changed
 * page is downloaded and diffed; history stays per account and per tag. A tracked recrawl does the
 * same per page (the content pool's task count shows what was converted) and follows the links the
 * history kept; a copy without links (a scrape's) is converted once and keeps them from then on.
 */
import { type ConditionalSite, startConditionalSite } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

let site: ConditionalSite;
/** The recrawl's own site: a tree of 8 pages from /page/0. */
let tree: ConditionalSite;
/** A tree of 4 pages whose start page a scrape tracked before any crawl. */
let mixed: ConditionalSite;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  site = await startConditionalSite({ pages: 6, links: 1 });
  tree = await startConditionalSite({ pages: 8, links: 2, tree: true });
  mixed = await startConditionalSite({ pages: 4, links: 2, tree: true });
  stack = await startStack({ crawlWorker: true, env: { BROWSER_ENABLED: 'false' } });
  account = await createTestAccount({ credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
  await tree?.close();
  await mixed?.close();
});

const url = (i: number) => `${site.url}/page/${i}`;
const tracked = (i: number, extra: Record<string, unknown> = {}, who: TestAccount = account) =>
  request(stack.url)
    .post('/v1/scrape')
    .set(who.auth)
    .send({ url: url(i), formats: ['markdown', 'changeTracking'], ...extra });
const lastRequest = (i: number) => site.requests.filter((r) => r.path === `/page/${i}`).at(-1);

describe('change tracking with conditional visits', () => {
  it('new → same from a 304 (the stored copy returned, billed as a scrape) → changed with a diff', async () => {
    const diff = { changeTrackingOptions: { modes: ['git-diff'] } };
    const first = await tracked(0, diff);
    expect(first.status).toBe(200);
    expect(first.body.data.changeTracking.changeStatus).toBe('new');
    expect(lastRequest(0)).toEqual({ path: '/page/0', status: 200 });

    const before = await balanceOf(account.accountId);
    const second = await tracked(0, diff);
    expect(second.status).toBe(200);
    expect(second.body.data.changeTracking).toMatchObject({ changeStatus: 'same', diff: { text: '' } });
    expect(second.body.data.markdown).toBe(first.body.data.markdown);
    expect(second.body.data.metadata).toMatchObject({
      title: 'Page 0',
      statusCode: 200,
      revalidatedBy: 'not-modified',
    });
    expect(first.body.data.metadata).not.toHaveProperty('revalidatedBy');
    expect(lastRequest(0)).toMatchObject({
      status: 304,
      ifNoneMatch: site.validators(0).etag,
      ifModifiedSince: site.validators(0).lastModified,
    });
    expect(await balanceOf(account.accountId)).toBe(before - 1);

    site.change(0);
    const third = await tracked(0, diff);
    expect(third.body.data.changeTracking.changeStatus).toBe('changed');
    expect(third.body.data.changeTracking.diff.text).toContain('-Version 0 of page 0.');
    expect(third.body.data.changeTracking.diff.text).toContain('+Version 1 of page 0.');
    expect(lastRequest(0)?.status).toBe(200);
    // The changed page's validators are the next visit's.
    const fourth = await tracked(0, diff);
    expect(fourth.body.data.changeTracking.changeStatus).toBe('same');
    expect(lastRequest(0)).toMatchObject({ status: 304, ifNoneMatch: site.validators(0).etag });
    expect(fourth.body.data.markdown).toContain('Version 1 of page 0.');
  });

  it('a tag or another account has a history of its own: its first visit is unconditional', async () => {
    await tracked(1);
    expect((await tracked(1)).body.data.changeTracking.changeStatus).toBe('same');
    expect(lastRequest(1)?.status).toBe(304);

    const tagged = await tracked(1, { changeTrackingOptions: { tag: 'weekly' } });
    expect(tagged.body.data.changeTracking.changeStatus).toBe('new');
    expect(lastRequest(1)).toEqual({ path: '/page/1', status: 200 });

    const other = await createTestAccount({ credits: 10 });
    const theirs = await tracked(1, {}, other);
    expect(theirs.body.data.changeTracking.changeStatus).toBe('new');
    expect(lastRequest(1)).toEqual({ path: '/page/1', status: 200 });
  });

  it('a visit that asks for more than the stored copy holds (html) is not conditional', async () => {
    await tracked(2);
    const withHtml = await tracked(2, { formats: ['markdown', 'html', 'changeTracking'] });
    expect(withHtml.body.data.changeTracking.changeStatus).toBe('same');
    expect(withHtml.body.data.html).toContain('Page 2');
    expect(lastRequest(2)).toEqual({ path: '/page/2', status: 200 });
  });

  it('a visit that makes its markdown another way (tag filters) is not conditional on a copy made the first way', async () => {
    const first = await tracked(4);
    expect(first.body.data.markdown).toContain('# Page 4');
    const filtered = await tracked(4, { excludeTags: ['h1'] });
    // A 304 would have returned the stored markdown, heading included.
    expect(lastRequest(4)).toEqual({ path: '/page/4', status: 200 });
    expect(filtered.body.data.markdown).not.toContain('# Page 4');
    expect(filtered.body.data.markdown).toContain('Version 0 of page 4.');
    expect(filtered.body.data.changeTracking.changeStatus).toBe('changed');
    // The copy stored now was made with the filter: the same visit again is a 304 and returns it.
    const again = await tracked(4, { excludeTags: ['h1'] });
    expect(lastRequest(4)).toMatchObject({ status: 304, ifNoneMatch: site.validators(4).etag });
    expect(again.body.data.changeTracking.changeStatus).toBe('same');
    expect(again.body.data.markdown).toBe(filtered.body.data.markdown);
    // And a visit with onlyMainContent off is not conditional on it either.
    await tracked(4, { excludeTags: ['h1'], onlyMainContent: false });
    expect(lastRequest(4)).toEqual({ path: '/page/4', status: 200 });
  });

  it('the Firecrawl v2 route revalidates the same way', async () => {
    const v2 = () =>
      request(stack.url)
        .post('/firecrawl/v2/scrape')
        .set(account.auth)
        .send({ url: url(3), formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] });
    const first = await v2();
    expect(first.status).toBe(200);
    expect(first.body.data.changeTracking.changeStatus).toBe('new');
    const second = await v2();
    expect(second.body.data.changeTracking.changeStatus).toBe('same');
    expect(second.body.data.markdown).toBe(first.body.data.markdown);
    expect(lastRequest(3)).toMatchObject({ status: 304, ifNoneMatch: site.validators(3).etag });
  });

  it('a recrawl: exactly the changed page is downloaded, converted and `changed`; the others are 304s answered from the history, not converted', async () => {
    const crawl = async () => {
      const id = await startCrawl(stack.url, account.auth, {
        url: `${tree.url}/page/0`,
        maxDepth: 5,
        maxPages: 8,
        sitemap: 'skip',
        scrapeOptions: {
          formats: ['markdown', 'changeTracking'],
          changeTrackingOptions: { modes: ['git-diff'] },
        },
      });
      return waitForCrawl(stack.url, id, account.auth);
    };
    const statusOf = (c: Awaited<ReturnType<typeof crawl>>) =>
      Object.fromEntries(c.pages.map((p) => [new URL(p.url).pathname, p.changeTracking?.changeStatus]));
    const pool = stack.crawlWorker?.contentPool;
    if (!pool) throw new Error('the stack has no crawl worker');
    const first = await crawl();
    expect(first.completed).toBe(8);
    expect(new Set(Object.values(statusOf(first)))).toEqual(new Set(['new']));
    const firstMarkdown = Object.fromEntries(first.pages.map((p) => [new URL(p.url).pathname, p.markdown]));

    tree.change(5);
    tree.resetCounts();
    const before = tree.requests.length;
    const converted = pool.stats().tasks;
    const balance = await balanceOf(account.accountId);
    const second = await crawl();
    expect(second.completed).toBe(8);
    const statuses = statusOf(second);
    expect(statuses['/page/5']).toBe('changed');
    expect(Object.entries(statuses).filter(([, s]) => s === 'same')).toHaveLength(7);
    // Only the changed page went through the content pool: the 304s are the history's copies.
    expect(pool.stats().tasks - converted).toBe(1);
    const visits = tree.requests.slice(before).filter((r) => r.path.startsWith('/page/'));
    expect(visits.filter((r) => r.status === 200).map((r) => r.path)).toEqual(['/page/5']);
    const revalidated = visits.filter((r) => r.status === 304);
    expect(revalidated).toHaveLength(7);
    // Asked with the history's validators (each page's own ETag).
    for (const r of revalidated) {
      const i = Number(r.path.split('/').at(-1));
      expect(r.ifNoneMatch).toBe(tree.validators(i).etag);
    }
    // The links the history kept led the recrawl through the whole tree; every page is billed.
    expect(await balanceOf(account.accountId)).toBe(balance - 8);
    for (const p of second.pages) {
      const path = new URL(p.url).pathname;
      if (path === '/page/5') {
        expect(p.changeTracking?.diff?.text).toContain('+Version 1 of page 5.');
        continue;
      }
      expect(p.markdown).toBe(firstMarkdown[path]);
      expect(p.metadata).toMatchObject({ title: `Page ${path.split('/').at(-1)}`, statusCode: 200 });
      expect(p.changeTracking).toMatchObject({ changeStatus: 'same', diff: { text: '' } });
    }

    // The history moved on: the next visit compares with the recrawl, not the first crawl (a 304
    // refreshed the row's time), and the changed page's new copy and validators are the ones stored.
    const firstVisits = Math.max(
      ...second.pages.map((p) => Date.parse(p.changeTracking?.previousScrapeAt ?? '')),
    );
    const third = await crawl();
    expect(third.completed).toBe(8);
    expect(new Set(Object.values(statusOf(third)))).toEqual(new Set(['same']));
    for (const p of third.pages)
      expect(Date.parse(p.changeTracking?.previousScrapeAt ?? '')).toBeGreaterThan(firstVisits);
    const page5 = tree.requests.filter((r) => r.path === '/page/5').at(-1);
    expect(page5).toMatchObject({ status: 304, ifNoneMatch: tree.validators(5).etag });
  });

  it('a copy a scrape stored kept no links: the crawl converts that page (its links followed), then keeps them for the next 304', async () => {
    const start = `${mixed.url}/page/0`;
    const scraped = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: start, formats: ['markdown', 'changeTracking'] });
    expect(scraped.status).toBe(200);
    const pool = stack.crawlWorker?.contentPool;
    if (!pool) throw new Error('the stack has no crawl worker');
    const crawl = async () => {
      const id = await startCrawl(stack.url, account.auth, {
        url: start,
        maxDepth: 3,
        maxPages: 4,
        sitemap: 'skip',
        scrapeOptions: { formats: ['markdown', 'changeTracking'] },
      });
      return waitForCrawl(stack.url, id, account.auth);
    };
    const statusOf = (c: Awaited<ReturnType<typeof crawl>>) =>
      Object.fromEntries(c.pages.map((p) => [new URL(p.url).pathname, p.changeTracking?.changeStatus]));

    let converted = pool.stats().tasks;
    const first = await crawl();
    expect(first.completed).toBe(4);
    expect(statusOf(first)).toEqual({
      '/page/0': 'same',
      '/page/1': 'new',
      '/page/2': 'new',
      '/page/3': 'new',
    });
    // The start page's copy had no links: it was converted (its links led to the others).
    expect(pool.stats().tasks - converted).toBe(4);

    const before = mixed.requests.length;
    converted = pool.stats().tasks;
    const second = await crawl();
    expect(second.completed).toBe(4);
    expect(new Set(Object.values(statusOf(second)))).toEqual(new Set(['same']));
    expect(pool.stats().tasks - converted).toBe(0);
    const visits = mixed.requests.slice(before).filter((r) => r.path.startsWith('/page/'));
    expect(visits.map((r) => r.status)).toEqual([304, 304, 304, 304]);
  });
});
