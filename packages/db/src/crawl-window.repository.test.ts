import { testCrawlOptions } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import { CrawlRecoveryRepository } from './crawl-recovery.repository';
import { CrawlWindowRepository } from './crawl-window.repository';
import { CrawlsRepository } from './crawls.repository';
import type { Db } from './db';
import { openTestDb } from './test-support/test-database';

let db: Db;
let crawls: CrawlsRepository;
let window: CrawlWindowRepository;
const created: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  crawls = new CrawlsRepository(db);
  window = new CrawlWindowRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  await db.close();
});

const SITE = 'https://window.test';

/** A running crawl with a start page (depth 0) and `n` seeds at depth 1 and 2. */
async function crawlWithFrontier(n: number) {
  const { accountId } = await new AccountsRepository(db).create({ plan: 'free', credits: 100 });
  const { crawlId } = await crawls.create({
    accountId,
    url: `${SITE}/`,
    options: testCrawlOptions({ maxPages: 100, maxDepth: 5 }),
  });
  created.push(crawlId);
  const pages = [
    { url: `${SITE}/`, key: `${SITE}/`, depth: 0 },
    ...Array.from({ length: n }, (_, i) => ({
      url: `${SITE}/p${i}`,
      key: `${SITE}/p${i}`,
      depth: 2 - (i % 2),
    })),
  ];
  const seeded = await crawls.seed(crawlId, { robotsTxt: null, crawlDelayMs: null, pages });
  if (!seeded) throw new Error('not seeded');
  return { crawlId, seeded };
}

describe('the crawl queue window', () => {
  it('claims up to its size, shallowest first, and again as claimed pages finish', async () => {
    const { crawlId, seeded } = await crawlWithFrontier(8);
    const first = await window.claim(crawlId, 3);
    expect(first.map((p) => p.depth)).toEqual([0, 1, 1]);
    expect(await window.claim(crawlId, 3)).toEqual([]);
    const start = seeded.find((p) => p.depth === 0);
    if (!start) throw new Error('no start page');
    // A claimed page that finished (done or failed) frees its place; a running one keeps it.
    await crawls.startPage(start.pageId);
    expect(await window.claim(crawlId, 3)).toEqual([]);
    await crawls.completePage(crawlId, start.pageId, {
      result: { markdown: 'start' },
      statusCode: 200,
      finalKey: `${SITE}/`,
      links: [],
    });
    const next = await window.claim(crawlId, 3);
    expect(next).toHaveLength(1);
    expect(next[0]?.depth).toBe(1);
    // A larger window takes every waiting row, depth 1 before depth 2, and no row twice.
    const rest = await window.claim(crawlId, 100);
    expect(rest.map((p) => p.depth)).toEqual([1, 2, 2, 2, 2]);
    const all = [...first, ...next, ...rest].map((p) => p.pageId);
    expect(new Set(all).size).toBe(9);
  });

  it('says how much room the window had while rows wait, and the whole size once none waits', async () => {
    const { crawlId } = await crawlWithFrontier(4);
    // 5 rows wait, the window has room for 2: full, not short.
    expect(await window.topUp(crawlId, 2)).toMatchObject({
      wanted: 2,
      claimed: [{ depth: 0 }, { depth: 1 }],
    });
    // Full now: rows wait, no room.
    expect(await window.topUp(crawlId, 2)).toEqual({ wanted: 0, claimed: [] });
    // Room for 3 more, and exactly 3 wait.
    expect((await window.topUp(crawlId, 5)).wanted).toBe(3);
    // Nothing waits: the window is not counted, and the answer reads short (0 claimed of 5).
    expect(await window.topUp(crawlId, 5)).toEqual({ wanted: 5, claimed: [] });
  });

  it('a stopped crawl names only its claimed pages as jobs to remove', async () => {
    const { crawlId } = await crawlWithFrontier(6);
    const claimed = await window.claim(crawlId, 2);
    const skipped = await crawls.stop(crawlId, 'cancelled', 'by the test');
    expect(skipped.sort()).toEqual(claimed.map((p) => p.pageId).sort());
  });

  it('the reconciler finds a crawl whose rows wait with none claimed, and not one that has claimed rows', async () => {
    const recovery = new CrawlRecoveryRepository(db);
    const starved = await crawlWithFrontier(3);
    const fed = await crawlWithFrontier(3);
    await window.claim(fed.crawlId, 1);
    const found = (await recovery.findStarvedCrawls(0, 1_000)).map((c) => c.crawlId);
    expect(found).toContain(starved.crawlId);
    expect(found).not.toContain(fed.crawlId);
    // Its unclaimed rows are no stranded pages (they have no job to lose); claimed ones are.
    const stranded = (await recovery.findStrandedPages(0, 100_000)).map((p) => p.crawlId);
    expect(stranded).not.toContain(starved.crawlId);
    expect(stranded).toContain(fed.crawlId);
  });

  it('marks the start page claimed on its own (markEnqueued)', async () => {
    const { crawlId, seeded } = await crawlWithFrontier(2);
    const start = seeded.filter((p) => p.depth === 0).map((p) => p.pageId);
    await window.markEnqueued(start);
    // The start page fills a window of one: nothing else is claimed while it runs.
    expect(await window.claim(crawlId, 1)).toEqual([]);
    expect((await window.claim(crawlId, 3)).map((p) => p.depth)).toEqual([1, 2]);
  });
});
