import { testCrawlOptions } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import { CrawlsRepository } from './crawls.repository';
import { CreditsRepository } from './credits.repository';
import type { Db } from './db';
import { PageHistoryRepository } from './page-history.repository';
import { openTestDb } from './test-support/test-database';

// completePage is one statement under the crawl and account row locks; these pin down the
// guarantees it has to keep under concurrency: billed once, maxPages exact, closes exactly once.

let db: Db;
let accounts: AccountsRepository;
let credits: CreditsRepository;
let crawls: CrawlsRepository;
// Crawls left `processing` with queued pages would be picked up by the reconciler of any crawl
// worker on this database (the e2e stacks) and enqueued there: every test's crawl is stopped.
const created: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  credits = new CreditsRepository(db);
  crawls = new CrawlsRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  await db.close();
});

const SITE = 'https://site.test';

async function startCrawl(balance: number, maxPages: number, seeds: string[]) {
  const { accountId } = await accounts.create({ plan: 'free', credits: balance });
  const options = testCrawlOptions({ maxPages, maxDepth: 5 });
  const { crawlId } = await crawls.create({ accountId, url: `${SITE}/`, options });
  created.push(crawlId);
  const pages = await crawls.seed(crawlId, {
    robotsTxt: null,
    crawlDelayMs: null,
    pages: seeds.map((u) => ({ url: `${SITE}${u}`, key: `${SITE}${u}`, depth: 0 })),
  });
  // In the seeds' order: the tests name pages by position, and RETURNING promises no order.
  const at = (p: { url: string }) => seeds.indexOf(p.url.slice(SITE.length));
  return { accountId, crawlId, pages: (pages ?? []).sort((x, y) => at(x) - at(y)) };
}

async function ledgerRows(accountId: string): Promise<Array<{ reference: string; amount: number }>> {
  return db.prisma.$queryRaw`
    SELECT reference, amount FROM credit_ledger WHERE account_id = ${accountId}::uuid AND reason = 'crawl'`;
}

/** The crawl's kept count of spare rows, and the rows themselves counted. */
async function spareCount(crawlId: string): Promise<{ kept: number; rows: number }> {
  const [r] = await db.prisma.$queryRaw<Array<{ kept: number; rows: number }>>`
    SELECT spare_pages AS kept,
           (SELECT count(*)::int FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND status = 'spare') AS rows
    FROM crawls WHERE id = ${crawlId}::uuid`;
  return r ?? { kept: -1, rows: -1 };
}

/** The frontier's rows (`spare` ones too with `spares`: links past maxPages, kept for failed pages). */
async function frontier(crawlId: string, spares = false): Promise<Array<{ url: string; status: string }>> {
  return db.prisma.$queryRaw`
    SELECT url, status FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND (${spares} OR status <> 'spare')`;
}

const links = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `${SITE}/p${from + i}`,
    key: `${SITE}/p${from + i}`,
    depth: 1,
  }));

describe('CrawlsRepository.completePage', () => {
  test('concurrent completions: each page billed once, frontier filled to exactly maxPages, no URL twice', async () => {
    const seeds = Array.from({ length: 6 }, (_, i) => `/s${i}`);
    const { accountId, crawlId, pages } = await startCrawl(100, 20, seeds);
    expect(pages).toHaveLength(6);
    // Every page offers overlapping links (14 slots left, 30 distinct candidates), and each page is
    // completed three times at once (a redelivered job racing the original).
    const results = await Promise.all(
      pages.flatMap((p, i) =>
        [0, 1, 2].map(() =>
          crawls.completePage(crawlId, p.pageId, {
            result: { markdown: 'x' },
            statusCode: 200,
            finalKey: p.url,
            links: links(i * 5, 10),
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.outcome === 'done')).toHaveLength(6);
    expect(results.filter((r) => r.outcome === 'skipped')).toHaveLength(12);
    const added = results.flatMap((r) => (r.outcome === 'done' ? r.newPages : []));
    expect(added).toHaveLength(14);

    const rows = await frontier(crawlId);
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.url)).size).toBe(20);
    const ledger = await ledgerRows(accountId);
    expect(ledger.map((l) => l.reference).sort()).toEqual(pages.map((p) => p.pageId).sort());
    expect(ledger.every((l) => l.amount === -1)).toBe(true);
    expect(await credits.balance(accountId)).toBe(94);
    const crawl = await crawls.getById(crawlId);
    expect(crawl).toMatchObject({
      status: 'processing',
      discovered: 20,
      completed: 6,
      creditsUsed: 6,
      stopReason: 'max_pages',
    });
  });

  test('capped says whether every link sent is in the frontier after the completion', async () => {
    const { crawlId, pages } = await startCrawl(100, 4, ['/a', '/b']);
    const [a, b] = pages;
    if (!a || !b) throw new Error('seed failed');
    // Room for 2 more: p0 and p1 join, p2..p4 are left out.
    const first = await crawls.completePage(crawlId, a.pageId, {
      result: {},
      statusCode: 200,
      finalKey: a.url,
      links: [...links(0, 5), { url: b.url, key: b.url, depth: 1 }],
    });
    expect(first).toMatchObject({ outcome: 'done', capped: true });
    expect(first.outcome === 'done' && first.newPages.map((p) => p.url)).toEqual([
      `${SITE}/p0`,
      `${SITE}/p1`,
    ]);
    // Every link is in the frontier already (as a row or where this page ended): nothing capped.
    const second = await crawls.completePage(crawlId, b.pageId, {
      result: {},
      statusCode: 200,
      finalKey: b.url,
      links: [...links(0, 2), { url: a.url, key: a.url, depth: 1 }, { url: b.url, key: b.url, depth: 1 }],
    });
    expect(second).toMatchObject({ outcome: 'done', newPages: [], capped: false });
  });

  test('a failed page gives its room back: a spare link (one the cap left out) takes its place, up to maxPages of them', async () => {
    const { crawlId, pages } = await startCrawl(100, 3, ['/a', '/b']);
    const [a, b] = pages;
    if (!a || !b) throw new Error('seed failed');
    // Room for 1: p0 is queued; p1..p3 wait as spares (at most maxPages of them), p4 is left out.
    const first = await crawls.completePage(crawlId, a.pageId, {
      result: {},
      statusCode: 200,
      finalKey: a.url,
      links: links(0, 5),
    });
    expect(first).toMatchObject({ outcome: 'done', capped: true });
    expect(first.outcome === 'done' && first.newPages.map((p) => p.url)).toEqual([`${SITE}/p0`]);
    const spareCounts = [(await spareCount(crawlId)).kept];
    const statusOf = async () =>
      Object.fromEntries((await frontier(crawlId, true)).map((r) => [r.url.slice(SITE.length), r.status]));
    expect(await statusOf()).toEqual({
      '/a': 'done',
      '/b': 'queued',
      '/p0': 'queued',
      '/p1': 'spare',
      '/p2': 'spare',
      '/p3': 'spare',
    });
    // b fails (a soft 404): the oldest spare is queued in its place, counted, and returned to be enqueued.
    const failed = await crawls.failPage(crawlId, b.pageId, {
      error: 'soft 404',
      code: 'TARGET_HTTP_ERROR',
      statusCode: 404,
    });
    expect(failed).toMatchObject({ applied: true, crawlFinished: false });
    expect(failed.promoted.map((p) => p.url)).toEqual([`${SITE}/p1`]);
    expect((await statusOf())['/p1']).toBe('queued');
    spareCounts.push((await spareCount(crawlId)).kept);
    // Four pages that did not fail would pass maxPages: a completion adds nothing more.
    const p0 = first.outcome === 'done' ? first.newPages[0] : undefined;
    if (!p0) throw new Error('p0 missing');
    const next = await crawls.completePage(crawlId, p0.pageId, {
      result: {},
      statusCode: 200,
      finalKey: p0.url,
      links: links(5, 2),
    });
    expect(next).toMatchObject({ outcome: 'done', newPages: [], capped: true });
    const counts = await db.prisma.$queryRaw<Array<{ discovered: number; failed: number }>>`
      SELECT discovered, failed FROM crawls WHERE id = ${crawlId}::uuid`;
    expect(counts[0]).toEqual({ discovered: 4, failed: 1 });
    // The crawl's count of spares (what a completion reads instead of counting them) followed every
    // step: 3 after the first completion, 2 after the promotion, one more spare (p5) after this one.
    expect(spareCounts).toEqual([3, 2]);
    expect(await spareCount(crawlId)).toEqual({ kept: 3, rows: 3 });
  });

  test('without spares, a failure leaves its room to the next completion', async () => {
    const { crawlId, pages } = await startCrawl(100, 2, ['/a', '/b']);
    const [a, b] = pages;
    if (!a || !b) throw new Error('seed failed');
    expect(
      (await crawls.failPage(crawlId, b.pageId, { error: 'x', code: 'TARGET_HTTP_ERROR', statusCode: 404 }))
        .promoted,
    ).toEqual([]);
    const done = await crawls.completePage(crawlId, a.pageId, {
      result: {},
      statusCode: 200,
      finalKey: a.url,
      links: links(0, 2),
    });
    expect(done.outcome === 'done' && done.newPages.map((p) => p.url)).toEqual([`${SITE}/p0`]);
  });

  test('a large result is stored compressed with LZ4 where the server has it', async () => {
    const { crawlId, pages } = await startCrawl(10, 5, ['/big']);
    const [page] = pages;
    if (!page) throw new Error('seed failed');
    const markdown = Array.from({ length: 4_000 }, (_, i) => `Line ${i} of a long page.`).join('\n');
    await crawls.completePage(crawlId, page.pageId, {
      result: { markdown },
      statusCode: 200,
      finalKey: page.url,
      links: [],
    });
    const [row] = await db.prisma.$queryRaw<Array<{ method: string | null; lz4: boolean }>>`
      SELECT pg_column_compression(result) AS method,
             (SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression') AS lz4
      FROM crawl_pages WHERE id = ${page.pageId}::uuid`;
    expect(row?.method).toBe(row?.lz4 ? 'lz4' : 'pglz');
  });

  test('the last page to finish closes the crawl once; a page billed before is not billed again', async () => {
    const { accountId, crawlId, pages } = await startCrawl(10, 5, ['/a', '/b']);
    const [a, b] = pages;
    if (!a || !b) throw new Error('seed failed');
    // A ledger row for this page already exists (e.g. a commit whose answer was lost).
    await credits.charge(accountId, 1, { reason: 'crawl', reference: b.pageId });
    const first = await crawls.completePage(crawlId, a.pageId, {
      result: {},
      statusCode: 200,
      finalKey: a.url,
      links: [],
    });
    expect(first).toEqual({ outcome: 'done', newPages: [], capped: false, crawlFinished: false });
    const last = await crawls.completePage(crawlId, b.pageId, {
      result: {},
      statusCode: 200,
      finalKey: b.url,
      links: [],
    });
    expect(last).toEqual({ outcome: 'done', newPages: [], capped: false, crawlFinished: true });
    expect(
      await crawls.completePage(crawlId, b.pageId, {
        result: {},
        statusCode: 200,
        finalKey: b.url,
        links: [],
      }),
    ).toEqual({
      outcome: 'skipped',
    });
    expect(await ledgerRows(accountId)).toHaveLength(2);
    expect(await credits.balance(accountId)).toBe(8);
    expect(await crawls.getById(crawlId)).toMatchObject({
      status: 'done',
      stopReason: 'completed',
      completed: 2,
    });
  });

  test('out of credits: nothing of the unpaid page is kept and the crawl stops out_of_credits', async () => {
    const { accountId, crawlId, pages } = await startCrawl(2, 10, ['/a', '/b', '/c']);
    const outcomes = [];
    for (const p of pages) {
      outcomes.push(
        await crawls.completePage(crawlId, p.pageId, {
          result: {},
          statusCode: 200,
          finalKey: p.url,
          links: links(100, 3),
        }),
      );
    }
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'out_of_credits']);
    expect(await credits.balance(accountId)).toBe(0);
    expect(await ledgerRows(accountId)).toHaveLength(2);
    const rows = await frontier(crawlId);
    // 3 seeds + the 3 links of the first page; the unpaid page and the queued links are skipped.
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(2);
    expect(rows.filter((r) => r.status === 'skipped')).toHaveLength(4);
    expect(await crawls.getById(crawlId)).toMatchObject({
      status: 'failed',
      stopReason: 'out_of_credits',
      completed: 2,
      creditsUsed: 2,
    });
  });

  test('a redirect records where it ended: links to either URL are not added, a later row for it is a duplicate', async () => {
    const { accountId, crawlId, pages } = await startCrawl(10, 10, ['/docs/', '/moved']);
    const [docs, moved] = pages;
    if (!docs || !moved) throw new Error('seed failed');
    // /moved redirected to /docs/ — the page /docs/ already is a row of its own (queued).
    const first = await crawls.completePage(crawlId, moved.pageId, {
      result: {},
      statusCode: 200,
      finalKey: `${SITE}/new-home`,
      links: [
        { url: `${SITE}/new-home`, key: `${SITE}/new-home`, depth: 1 },
        { url: `${SITE}/docs`, key: `${SITE}/docs`, depth: 1 },
      ],
    });
    // The page's own final URL is not a new page; /docs (no slash) is another resource than /docs/.
    expect(first).toMatchObject({ outcome: 'done', newPages: [{ url: `${SITE}/docs` }] });
    // A later link to where /moved ended is not added either.
    const second = await crawls.completePage(crawlId, docs.pageId, {
      result: {},
      statusCode: 200,
      finalKey: docs.url,
      links: [{ url: `${SITE}/new-home`, key: `${SITE}/new-home`, depth: 1 }],
    });
    expect(second).toMatchObject({ outcome: 'done', newPages: [] });
    const noSlash = (await frontier(crawlId)).find((r) => r.url === `${SITE}/docs`);
    expect(noSlash?.status).toBe('queued');
    const [row] = await db.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND url = ${`${SITE}/docs`}`;
    if (!row) throw new Error('row missing');
    // /docs redirects to /docs/ (done already): a duplicate, neither billed nor counted; the crawl closes.
    const started = await crawls.startPage(row.id);
    expect(started?.duplicateOf ?? null).toBeNull();
    const dup = await crawls.completePage(crawlId, row.id, {
      result: {},
      statusCode: 200,
      finalKey: docs.url,
      links: [],
    });
    expect(dup).toEqual({ outcome: 'duplicate', crawlFinished: true });
    expect(await ledgerRows(accountId)).toHaveLength(2);
    expect(await crawls.getById(crawlId)).toMatchObject({ status: 'done', discovered: 2, completed: 2 });
  });

  test('startPage names the done page whose redirect already ended at this URL', async () => {
    const { crawlId, pages } = await startCrawl(10, 10, ['/old', '/new']);
    const [old, neu] = pages;
    if (!old || !neu) throw new Error('seed failed');
    await crawls.completePage(crawlId, old.pageId, {
      result: {},
      statusCode: 200,
      finalKey: neu.url,
      links: [],
    });
    const task = await crawls.startPage(neu.pageId);
    expect(task?.duplicateOf).toBe(old.url);
    expect(await crawls.markDuplicate(crawlId, neu.pageId)).toEqual({ applied: true, crawlFinished: true });
    expect(await crawls.getById(crawlId)).toMatchObject({ status: 'done', discovered: 1, completed: 1 });
  });

  test("startPageOf: the page's own columns, guarded like startPage, and only for a page of that crawl", async () => {
    const { crawlId, pages } = await startCrawl(10, 10, ['/a', '/b']);
    const other = await startCrawl(10, 10, ['/c']);
    const [a, b] = pages;
    const [c] = other.pages;
    if (!a || !b || !c) throw new Error('seed failed');
    const started = await crawls.startPageOf(crawlId, a.pageId);
    expect(started).toMatchObject({ pageId: a.pageId, crawlId, url: a.url, attempts: 1, duplicateOf: null });
    expect(started).not.toHaveProperty('options');
    expect(started).not.toHaveProperty('robotsTxt');
    expect(started).not.toHaveProperty('pageSecrets');
    // A page of another crawl is not started under this one.
    expect(await crawls.startPageOf(crawlId, c.pageId)).toBeNull();
    expect((await frontier(other.crawlId))[0]?.status).toBe('queued');
    // Finished pages and stopped crawls start nothing.
    await crawls.completePage(crawlId, a.pageId, { result: {}, statusCode: 200, finalKey: a.url, links: [] });
    expect(await crawls.startPageOf(crawlId, a.pageId)).toBeNull();
    await crawls.stop(crawlId, 'cancelled', 'test');
    expect(await crawls.startPageOf(crawlId, b.pageId)).toBeNull();
  });

  test("startPageWithHistory: the account's row under the page's key and tag, read with the guarded start", async () => {
    const { accountId, crawlId, pages } = await startCrawl(10, 10, ['/a', '/b', '/c']);
    const [a, b, c] = pages;
    if (!a || !b || !c) throw new Error('seed failed');
    const history = new PageHistoryRepository(db);
    const scrapedAt = new Date('2026-12-01T10:00:00.123Z');
    const row = {
      accountId,
      urlKey: a.url,
      tag: 'daily',
      url: a.url,
      markdown: '# A\n\nSome text',
      contentHash: 'h-a',
      statusCode: 200,
      etag: '"v1"',
      lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT',
      metadata: { title: 'A' },
      links: [{ url: `${SITE}/x`, key: `${SITE}/x`, nofollow: false }],
      variant: 'main',
      scrapedAt,
    };
    await history.put(row);
    // Another tag's and another account's rows of the same URL are not this start's.
    await history.put({ ...row, tag: '', contentHash: 'h-untagged' });
    const other = await accounts.create({ plan: 'free', credits: 1 });
    await history.put({ ...row, accountId: other.accountId, urlKey: b.url, url: b.url });

    const started = await crawls.startPageWithHistory(crawlId, a.pageId, { accountId, tag: 'daily' });
    expect(started).toMatchObject({ pageId: a.pageId, crawlId, url: a.url, attempts: 1, duplicateOf: null });
    // The same record the history's own read returns (times as Dates, links and metadata parsed).
    expect(started?.history).toEqual(await history.get(accountId, a.url, 'daily'));
    expect(started?.history?.scrapedAt).toEqual(scrapedAt);
    expect(
      (await crawls.startPageWithHistory(crawlId, b.pageId, { accountId, tag: 'daily' }))?.history,
    ).toBeNull();
    // Guarded like startPageOf: a finished page and a stopped crawl start nothing.
    await crawls.completePage(crawlId, a.pageId, { result: {}, statusCode: 200, finalKey: a.url, links: [] });
    expect(await crawls.startPageWithHistory(crawlId, a.pageId, { accountId, tag: 'daily' })).toBeNull();
    await crawls.stop(crawlId, 'cancelled', 'test');
    expect(await crawls.startPageWithHistory(crawlId, c.pageId, { accountId, tag: 'daily' })).toBeNull();
  });

  test('unstartPage: a start that waited for its host slot is not an attempt; a finished page stays finished', async () => {
    const { crawlId, pages } = await startCrawl(10, 10, ['/a']);
    const [a] = pages;
    if (!a) throw new Error('seed failed');
    expect((await crawls.startPage(a.pageId))?.attempts).toBe(1);
    await crawls.unstartPage(a.pageId);
    expect(await frontier(crawlId)).toEqual([{ url: `${SITE}/a`, status: 'queued' }]);
    expect((await crawls.startPage(a.pageId))?.attempts).toBe(1);
    await crawls.completePage(crawlId, a.pageId, { result: {}, statusCode: 200, finalKey: a.url, links: [] });
    await crawls.unstartPage(a.pageId);
    expect(await frontier(crawlId)).toEqual([{ url: `${SITE}/a`, status: 'done' }]);
  });
});
