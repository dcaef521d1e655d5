import { testCrawlOptions } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import type { CompletePageOutcome, FrontierCandidate } from './crawl.types';
import { CrawlsRepository } from './crawls.repository';
import type { Db } from './db';
import {
  type PageHistoryRecord,
  PageHistoryRepository,
  type PageHistoryTouch,
} from './page-history.repository';
import { openTestDb } from './test-support/test-database';

// completeEach (a worker's group commit: several pages of a crawl in one call of
// complete_crawl_pages) must leave exactly what completing the same pages one by one leaves.

let db: Db;
let accounts: AccountsRepository;
let crawls: CrawlsRepository;
const created: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  crawls = new CrawlsRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  await db.close();
});

const SITE = 'https://each.test';
const link = (path: string, depth = 1): FrontierCandidate => ({
  url: `${SITE}${path}`,
  key: `${SITE}${path}`,
  depth,
});

async function startCrawl(balance: number, maxPages: number) {
  const { accountId } = await accounts.create({ plan: 'free', credits: balance });
  const { crawlId } = await crawls.create({
    accountId,
    url: `${SITE}/`,
    options: testCrawlOptions({ maxPages, maxDepth: 5 }),
  });
  created.push(crawlId);
  const seeds = ['/a', '/b', '/c', '/d'].map((p) => link(p, 0));
  const pages = (await crawls.seed(crawlId, { robotsTxt: null, crawlDelayMs: null, pages: seeds })) ?? [];
  // Seeded in one statement: the rows' order is the seeds' order only by URL.
  pages.sort((x, y) => x.url.localeCompare(y.url));
  return { accountId, crawlId, pages };
}

/** /a and /b find overlapping links; /c ended (a redirect) where /a is: a duplicate; /d finds one more. */
function completions(pages: Array<{ pageId: string }>) {
  const [a, b, c, d] = pages.map((p) => p.pageId) as [string, string, string, string];
  const page = (pageId: string, finalKey: string, links: FrontierCandidate[]) => ({
    pageId,
    result: { markdown: `# ${finalKey}`, metadata: {} },
    statusCode: 200,
    finalKey,
    links,
  });
  return [
    page(a, `${SITE}/a`, [link('/x1'), link('/x2'), link('/x3')]),
    page(b, `${SITE}/b`, [link('/x2'), link('/x4'), link('/x5')]),
    page(c, `${SITE}/a`, [link('/x6')]),
    page(d, `${SITE}/d`, [link('/x7')]),
  ];
}

/** What a crawl holds, comparable across crawls: rows by path, counters, the account's balance. */
async function state(crawlId: string, accountId: string) {
  const rows = await db.prisma.$queryRaw<Array<{ url: string; status: string }>>`
    SELECT url, status FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid ORDER BY url`;
  const [c] = await db.prisma.$queryRaw<Array<Record<string, unknown>>>`
    SELECT status, stop_reason, discovered, completed, failed, credits_used, spare_pages
    FROM crawls WHERE id = ${crawlId}::uuid`;
  const [a] = await db.prisma.$queryRaw<Array<{ balance: number; charges: number }>>`
    SELECT balance, (SELECT count(*)::int FROM credit_ledger WHERE account_id = ${accountId}::uuid
                     AND reason = 'crawl') AS charges
    FROM accounts WHERE id = ${accountId}::uuid`;
  return { rows: rows.map((r) => `${r.url.slice(SITE.length)} ${r.status}`), crawl: c, account: a };
}

/** An outcome with the new pages by path (their ids differ between crawls). */
const comparable = (o: CompletePageOutcome | undefined) =>
  o?.outcome === 'done' ? { ...o, newPages: o.newPages.map((p) => p.url.slice(SITE.length)).sort() } : o;

describe('CrawlsRepository.completeEach', () => {
  test('leaves what completing the same pages one by one leaves: billing, duplicates, the capped frontier', async () => {
    // maxPages 8: 4 seeds + 4 links fit; the rest wait as spares.
    const one = await startCrawl(100, 8);
    const each = await startCrawl(100, 8);
    for (const p of [...one.pages, ...each.pages]) await crawls.startPage(p.pageId);

    const alone: CompletePageOutcome[] = [];
    for (const { pageId, ...c } of completions(one.pages))
      alone.push(await crawls.completePage(one.crawlId, pageId, c));
    const together = await crawls.completeEach(each.crawlId, completions(each.pages));

    expect(together.map(comparable)).toEqual(alone.map(comparable));
    expect(together.map((o) => o.outcome)).toEqual(['done', 'done', 'duplicate', 'done']);
    const [s1, s2] = [await state(one.crawlId, one.accountId), await state(each.crawlId, each.accountId)];
    expect(s2).toEqual(s1);
    expect(s2.account).toEqual({ balance: 97, charges: 3 });
    expect(s2.rows.filter((r) => r.endsWith(' spare')).length).toBeGreaterThan(0);

    // Completed again (a redelivered batch): nothing changes, nothing is billed twice.
    const again = await crawls.completeEach(each.crawlId, completions(each.pages));
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(await state(each.crawlId, each.accountId)).toEqual(s2);
  });

  test('out of credits mid-batch: the pages paid for are kept, the others are not, the crawl stops', async () => {
    const { accountId, crawlId, pages } = await startCrawl(2, 20);
    for (const p of pages) await crawls.startPage(p.pageId);
    const all = completions(pages);
    const outcomes = await crawls.completeEach(
      crawlId,
      [0, 1, 3].map((i) => all[i] as (typeof all)[number]),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'out_of_credits']);
    const s = await state(crawlId, accountId);
    expect(s.account).toEqual({ balance: 0, charges: 2 });
    expect(s.crawl).toMatchObject({ status: 'failed', stop_reason: 'out_of_credits', completed: 2 });
    expect(s.rows).toContain('/d skipped');
  });

  test("a 304's history touch is written in the completion's statement, alone or grouped, and only over the copy it confirmed", async () => {
    const { accountId, crawlId, pages } = await startCrawl(100, 20);
    for (const p of pages) await crawls.startPage(p.pageId);
    const history = new PageHistoryRepository(db);
    const storedAt = new Date('2026-12-01T10:00:00.000Z');
    const rowOf = (path: string): PageHistoryRecord => ({
      accountId,
      urlKey: `${SITE}${path}`,
      tag: '',
      url: `${SITE}${path}`,
      markdown: `# ${path}`,
      contentHash: `h${path}`,
      statusCode: 200,
      etag: '"v1"',
      lastModified: null,
      scrapedAt: storedAt,
    });
    for (const path of ['/a', '/b', '/c', '/d']) await history.put(rowOf(path));
    const movedAt = new Date('2026-12-06T10:00:00.000Z');
    const touchOf = (path: string, was = storedAt): PageHistoryTouch => [
      { accountId, urlKey: `${SITE}${path}`, tag: '' },
      was,
      { etag: '"v2"', lastModified: null, scrapedAt: movedAt },
    ];
    const [a, b, , d] = completions(pages);
    if (!a || !b || !d) throw new Error('no completions');
    // Alone (complete_crawl_page), then two together (complete_crawl_pages); /d's touch names a
    // stored time its row no longer has (a newer copy replaced it): left alone.
    const { pageId: aId, ...aDone } = a;
    await crawls.completePage(crawlId, aId, { ...aDone, historyTouch: touchOf('/a') });
    const outcomes = await crawls.completeEach(crawlId, [
      { ...b, historyTouch: touchOf('/b') },
      { ...d, historyTouch: touchOf('/d', new Date('2026-11-01T00:00:00.000Z')) },
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done']);
    const moved = async (path: string) => {
      const r = await history.get(accountId, `${SITE}${path}`, '');
      return { etag: r?.etag, scrapedAt: r?.scrapedAt.toISOString() };
    };
    const movedRow = { etag: '"v2"', scrapedAt: movedAt.toISOString() };
    const keptRow = { etag: '"v1"', scrapedAt: storedAt.toISOString() };
    expect(await moved('/a')).toEqual(movedRow);
    expect(await moved('/b')).toEqual(movedRow);
    expect(await moved('/c')).toEqual(keptRow);
    expect(await moved('/d')).toEqual(keptRow);
    // A redelivered completion does not apply, but the site's confirmation still moves the row.
    await db.prisma.$executeRaw`
      UPDATE page_history SET etag = '"v1"', scraped_at = ${storedAt}
      WHERE account_id = ${accountId}::uuid AND url_key = ${`${SITE}/a`}`;
    expect(await moved('/a')).toEqual(keptRow);
    expect((await crawls.completeEach(crawlId, [{ ...a, historyTouch: touchOf('/a') }]))[0]?.outcome).toBe(
      'skipped',
    );
    expect(await moved('/a')).toEqual(movedRow);
  });
});
