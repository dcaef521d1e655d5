import { randomUUID } from 'node:crypto';
import { testCrawlOptions } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import type { FrontierCandidate } from './crawl.types';
import { CrawlsRepository } from './crawls.repository';
import type { Db } from './db';
import { PageCacheRepository, type PageCacheRow } from './page-cache.repository';
import { openTestDb } from './test-support/test-database';

// A crawl page's page-cache copy is written by its completion's own statement (one commit with
// the page it lists), and never fails the page: a copy that cannot be written is left out.

let db: Db;
let accounts: AccountsRepository;
let crawls: CrawlsRepository;
let cache: PageCacheRepository;
const created: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  crawls = new CrawlsRepository(db);
  cache = new PageCacheRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  await db.close();
});

async function startCrawl(paths: string[]) {
  const site = `https://cache-${randomUUID()}.test`;
  const { accountId } = await accounts.create({ plan: 'free', credits: 100 });
  const { crawlId } = await crawls.create({
    accountId,
    url: `${site}/`,
    options: testCrawlOptions({ maxPages: 10, maxDepth: 5 }),
  });
  created.push(crawlId);
  const seeds: FrontierCandidate[] = paths.map((p) => ({ url: `${site}${p}`, key: `${site}${p}`, depth: 0 }));
  const pages = (await crawls.seed(crawlId, { robotsTxt: null, crawlDelayMs: null, pages: seeds })) ?? [];
  pages.sort((x, y) => x.url.localeCompare(y.url));
  return { site, crawlId, pages };
}

async function rowFor(
  key: string,
  url: string,
  fetchedAt: Date,
  body = `<p>${key}</p>`,
): Promise<PageCacheRow> {
  const row = await cache.row(key, {
    url,
    finalUrl: url,
    statusCode: 200,
    contentType: 'text/html',
    engine: 'fetch',
    body,
    headers: { etag: '"v1"', 'set-cookie': 'secret=1' },
    redirects: [],
    fetchedAt,
  });
  if (!row) throw new Error('no row');
  return row;
}

type Page = { pageId: string; url: string };

const completion = (url: string, cacheRow?: PageCacheRow) => ({
  result: { markdown: `# ${url}`, metadata: {} },
  statusCode: 200,
  finalKey: url,
  links: [],
  ...(cacheRow ? { cacheRow } : {}),
});

describe('a crawl page completion writes its page-cache copy', () => {
  it('alone: the copy is there once the page is done, readable like any entry', async () => {
    const { crawlId, pages } = await startCrawl(['/a']);
    const [a] = pages as Page[] as [Page];
    const key = `k-${randomUUID()}`;
    const at = new Date(Date.now() - 1_000);
    const done = await crawls.completePage(
      crawlId,
      a.pageId,
      completion(a.url, await rowFor(key, a.url, at)),
    );
    expect(done.outcome).toBe('done');
    const entry = await cache.latest(key);
    expect(entry?.body).toBe(`<p>${key}</p>`);
    expect(entry?.fetchedAt.getTime()).toBe(at.getTime());
    expect(entry?.headers).toEqual({ etag: '"v1"' }); // cookies are never shared
  });

  it('grouped: each page its copy, one key once (the latest fetch), a newer stored copy kept', async () => {
    const { crawlId, pages } = await startCrawl(['/a', '/b', '/c']);
    const [a, b, c] = pages as Array<{ pageId: string; url: string }> as [Page, Page, Page];
    const shared = `k-${randomUUID()}`;
    const newer = `k-${randomUUID()}`;
    const t = Date.now() - 60_000;
    // A copy fetched later than the crawl's is already stored: it stays.
    await cache.put(newer, keptEntry(c.url, new Date(t + 50_000)));
    const outcomes = await crawls.completeEach(crawlId, [
      { pageId: a.pageId, ...completion(a.url, await rowFor(shared, a.url, new Date(t + 1_000), 'older')) },
      { pageId: b.pageId, ...completion(b.url, await rowFor(shared, b.url, new Date(t + 2_000), 'later')) },
      { pageId: c.pageId, ...completion(c.url, await rowFor(newer, c.url, new Date(t), 'stale')) },
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'done']);
    expect((await cache.latest(shared))?.body).toBe('later');
    expect((await cache.latest(newer))?.body).toBe('kept');
  });

  it('a copy that cannot be written is left out; the page completes all the same', async () => {
    const { crawlId, pages } = await startCrawl(['/a']);
    const [a] = pages as Page[] as [Page];
    const key = `k-${randomUUID()}`;
    const broken = { ...(await rowFor(key, a.url, new Date())), meta: '{not json' };
    const done = await crawls.completePage(crawlId, a.pageId, completion(a.url, broken));
    expect(done.outcome).toBe('done');
    expect(await cache.latest(key)).toBeUndefined();
    const [row] = await db.prisma.$queryRaw<Array<{ status: string }>>`
      SELECT status FROM crawl_pages WHERE id = ${a.pageId}::uuid`;
    expect(row?.status).toBe('done');
  });
});

/** A stored entry fetched at `fetchedAt` whose body is 'kept'. */
function keptEntry(url: string, fetchedAt: Date) {
  return {
    url,
    finalUrl: url,
    statusCode: 200,
    contentType: 'text/html',
    engine: 'fetch' as const,
    body: 'kept',
    headers: {},
    redirects: [],
    fetchedAt,
  };
}
