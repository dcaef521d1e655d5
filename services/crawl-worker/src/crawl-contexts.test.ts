import type { CrawlPageTask } from '@wcs/db';
import { createSafeDispatcher } from '@wcs/net';
import { testCrawlOptions } from '@wcs/testing';
import { CrawlContexts, isSitemapSeed, withCrawl } from './crawl-contexts';
import { RobotsCache } from './robots-cache';

const robots = new RobotsCache({
  dispatcher: createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 1_000 }),
  userAgent: 'test',
  timeoutMs: 1_000,
});

const options = testCrawlOptions({
  maxPages: 100,
  maxDepth: 3,
  includePaths: ['^/docs/'],
  ignoreRobotsTxt: false,
  page: { formats: ['markdown', 'links'], mobile: true },
});

function task(crawlId: string, over: Partial<CrawlPageTask> = {}): CrawlPageTask {
  return {
    pageId: `${crawlId}-p`,
    crawlId,
    url: 'https://a.test/docs/1',
    urlKey: 'https://a.test/docs/1',
    depth: 1,
    attempts: 1,
    pageStatus: 'running',
    crawlStatus: 'processing',
    accountId: 'acc-1',
    crawlUrl: 'https://a.test/docs/',
    options,
    robotsTxt: 'User-agent: *\nDisallow: /docs/private/\n',
    crawlDelayMs: 250,
    pageSecrets: { headers: { authorization: 'Bearer s3cret' } },
    ...over,
  };
}

describe('CrawlContexts', () => {
  it("prepares a crawl's request and link rules from its first task, and completes its next pages' tasks", async () => {
    const contexts = new CrawlContexts({ robots });
    expect(contexts.get('c1')).toBeUndefined();
    const first = task('c1');
    const ctx = contexts.fromTask(first);
    expect(contexts.get('c1')).toBe(ctx);
    // Options and secrets parsed once, at this boundary.
    expect(ctx.request.page).toMatchObject({ formats: ['markdown', 'links'], mobile: true });
    expect(ctx.request.secrets).toEqual({ headers: { authorization: 'Bearer s3cret' } });
    // The link rules: includePaths and the crawl's robots.txt.
    const link = (path: string) => ({ url: `https://a.test${path}`, key: `https://a.test${path}` });
    const accepted = await ctx.filter.accept(['/docs/2', '/blog/1', '/docs/private/x'].map(link), 10);
    expect(accepted.map((l) => l.url)).toEqual(['https://a.test/docs/2']);
    // A later page's own columns plus the crawl's part (from the first page) make its whole task.
    const later = task('c1', { pageId: 'c1-q', url: 'https://a.test/docs/3' });
    const {
      accountId: _a,
      crawlUrl: _u,
      options: _o,
      robotsTxt: _r,
      crawlDelayMs: _d,
      pageSecrets: _s,
      ...start
    } = later;
    expect(withCrawl(start, ctx)).toEqual(later);
  });

  it('rejects secrets of the wrong shape like the per-page parse did', () => {
    const contexts = new CrawlContexts({ robots });
    expect(() => contexts.fromTask(task('c2', { pageSecrets: { headers: 'not an object' } }))).toThrow();
    expect(contexts.get('c2')).toBeUndefined();
  });

  it('is bounded: the least recently used crawl goes first; a finished crawl is forgotten', () => {
    const contexts = new CrawlContexts({ robots }, 2);
    contexts.fromTask(task('a'));
    contexts.fromTask(task('b'));
    contexts.get('a');
    contexts.fromTask(task('c'));
    expect(contexts.get('b')).toBeUndefined();
    expect(contexts.get('a')).toBeDefined();
    contexts.forget('a');
    expect(contexts.get('a')).toBeUndefined();
    expect(contexts.get('c')).toBeDefined();
  });

  it('a sitemap seed shares the seeding time: read once per crawl, asked again after a failure', async () => {
    const contexts = new CrawlContexts({ robots });
    const ctx = contexts.fromTask(task('s1'));
    const seeded = new Date('2026-12-01T10:00:00.123Z');
    let reads = 0;
    let fail = true;
    const seededAt = async () => {
      reads++;
      if (fail) throw new Error('pg away');
      return seeded;
    };
    const seed = { crawlId: 's1', depth: 1, createdAt: new Date(seeded) };
    await expect(isSitemapSeed(ctx, seed, seededAt)).rejects.toThrow('pg away');
    fail = false;
    expect(await isSitemapSeed(ctx, seed, seededAt)).toBe(true);
    // A link found later joined the frontier after the seeding: visible.
    expect(await isSitemapSeed(ctx, { ...seed, createdAt: new Date(seeded.getTime() + 1) }, seededAt)).toBe(
      false,
    );
    // The start page shares the time but is never hidden; a task without its time is not either.
    expect(await isSitemapSeed(ctx, { ...seed, depth: 0 }, seededAt)).toBe(false);
    expect(await isSitemapSeed(ctx, { crawlId: 's1', depth: 2 }, seededAt)).toBe(false);
    expect(reads).toBe(2);
  });
});
