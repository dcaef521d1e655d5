/**
 * The Node client's account methods (account, usage, ledger, ledgerCsv, keys, job listings,
 * monitor pause/resume) against the real service. Each test runs on its own fresh account, so its
 * ledger, keys and job lists hold exactly what the test did.
 */
import { ServiceClient, ServiceError } from '@wcs/client-node';
import { createTestAccount } from '../harness';
import { type ClientStack, startClientStack } from './client-stack';

const TITLE = 'Understanding Web Content Extraction';
const CSV_HEADER = 'id,time,reason,amount,reference,balance_after';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Catches the ServiceError a call must throw. */
async function serviceError(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError, the call succeeded');
}

describe('Node client: account endpoints', () => {
  let s: ClientStack;

  beforeAll(async () => {
    s = await startClientStack();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** A client on a new hobby account holding `credits`. */
  async function freshClient(credits = 1_000): Promise<{ client: ServiceClient; apiKey: string }> {
    const account = await createTestAccount({ plan: 'hobby', credits });
    return {
      client: new ServiceClient({ apiKey: account.apiKey, baseUrl: s.baseUrl }),
      apiKey: account.apiKey,
    };
  }

  it('account: the balance is the ledger newest balanceAfter after a charge; usage counts it', async () => {
    const { client } = await freshClient(1_000);
    const before = await client.account();
    expect(before.data.balance).toBe(1_000);
    expect(before.data.usedLast30Days).toBe(0);
    expect(before.data.plan.id).toBe('hobby');
    expect(before.data.rateLimit.limit).toBeGreaterThan(0);
    expect(before.data.rateLimit.remaining).toBeLessThanOrEqual(before.data.rateLimit.limit);

    await client.scrape(`${s.site.url}/`);

    const after = await client.account();
    expect(after.data.balance).toBe(999);
    const newest = (await client.ledger({ limit: 1 })).data[0]!;
    expect(newest).toMatchObject({ reason: 'scrape', amount: -1, balanceAfter: after.data.balance });
    expect(after.data.usedLast30Days).toBe(1);

    const usage = await client.usage({ days: 3 });
    expect(usage.data.days).toHaveLength(3);
    expect(usage.data.days.at(-1)).toMatchObject({
      date: newest.createdAt.slice(0, 10),
      scrape: 1,
      total: 1,
    });
    expect(usage.data.totals).toMatchObject({ scrape: 1, total: 1 });
    expect(usage.data.operations).toContain('scrape');
    const thirty = await client.usage();
    expect(thirty.data.days).toHaveLength(30);
    expect(thirty.data.totals.total).toBe(after.data.usedLast30Days);
  });

  it('ledger pages with the cursor, newest first, and filters by reason', async () => {
    const { client } = await freshClient(100);
    for (const n of [1, 2, 3]) await client.scrape(`${s.site.url}/article/${n}`);

    const first = await client.ledger({ limit: 2 });
    expect(first.total).toBe(4); // the grant + 3 scrapes
    expect(first.data).toHaveLength(2);
    const lastOfFirst = first.data[1]!;
    expect(first.next).toContain(`cursor=${lastOfFirst.id}`);
    const second = await client.ledger({ limit: 2, cursor: lastOfFirst.id });
    expect(second.data).toHaveLength(2);
    expect(second.next).toBeUndefined();
    const all = [...first.data, ...second.data];
    const ids = all.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))); // newest first, no repeat
    expect(new Set(ids).size).toBe(4);
    expect(all.map((e) => e.reason)).toEqual(['scrape', 'scrape', 'scrape', 'grant']);
    expect(all.map((e) => e.balanceAfter)).toEqual([97, 98, 99, 100]);

    expect((await client.ledger({ reason: 'grant' })).total).toBe(1);
    expect((await client.ledger({ reason: ['scrape'] })).total).toBe(3);
    expect((await client.ledger({ reason: ['grant', 'scrape_refund'] })).total).toBe(1);
    const bad = await serviceError(client.ledger({ reason: ['scrape', 'nope'] }));
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/nope/);
  });

  it('ledgerCsv returns the CSV text: header first, one line per row, filtered by reason', async () => {
    const { client } = await freshClient(50);
    await client.scrape(`${s.site.url}/`);
    const csv = await client.ledgerCsv();
    const lines = csv.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(3);
    const newest = (await client.ledger({ limit: 1 })).data[0]!;
    expect(lines[1]!.startsWith(`${newest.id},${newest.createdAt},scrape,-1,`)).toBe(true);
    expect(lines[1]!.endsWith(',49')).toBe(true);

    const grants = (await client.ledgerCsv({ reason: ['grant'] })).trimEnd().split(/\r?\n/);
    expect(grants).toHaveLength(2);
    expect(grants[1]).toMatch(/,grant,50,.*,50$/);
    const bad = await serviceError(client.ledgerCsv({ reason: 'nope' }));
    expect(bad.status).toBe(400);
  });

  it('keys: create, list, revoke; the revoked key then gets 401; the last active key cannot go', async () => {
    const { client, apiKey } = await freshClient(10);
    const initial = await client.listKeys();
    expect(initial.data).toHaveLength(1);
    expect(initial.data[0]).toMatchObject({ current: true, revokedAt: null });
    expect(apiKey.startsWith(initial.data[0]!.prefix)).toBe(true);

    const created = await client.createKey({ name: 'ci runner' });
    expect(created.data.name).toBe('ci runner');
    expect(created.data.key.startsWith(created.data.prefix)).toBe(true);

    const second = new ServiceClient({ apiKey: created.data.key, baseUrl: s.baseUrl, maxRetries: 0 });
    const seenBySecond = await second.listKeys();
    expect(seenBySecond.data.map((k) => [k.id, k.current])).toEqual([
      [initial.data[0]!.id, false],
      [created.data.id, true],
    ]);

    const revoked = await client.revokeKey(created.data.id);
    expect(revoked.data.id).toBe(created.data.id);
    expect(Date.parse(revoked.data.revokedAt)).not.toBeNaN();
    const denied = await serviceError(second.account());
    expect(denied.status).toBe(401);
    const listed = await client.listKeys();
    expect(listed.data.find((k) => k.id === created.data.id)?.revokedAt).toBe(revoked.data.revokedAt);

    const last = await serviceError(client.revokeKey(initial.data[0]!.id));
    expect([last.status, last.code]).toEqual([409, 'CONFLICT']);
    expect((await serviceError(client.revokeKey(UNKNOWN_ID))).status).toBe(404);
  });

  it('keys with credit limits: createKey and updateKey; a call past the limit is KEY_BUDGET_EXCEEDED', async () => {
    const { client } = await freshClient(100);
    const created = await client.createKey({ name: 'agent', dailyCreditLimit: 1 });
    expect(created.data).toMatchObject({ dailyCreditLimit: 1, monthlyCreditLimit: null });
    const capped = new ServiceClient({ apiKey: created.data.key, baseUrl: s.baseUrl, maxRetries: 0 });
    expect(capped.lastCredits).toBeNull();
    await capped.scrape(`${s.site.url}/article/1`, { engine: 'fetch' });
    // The cost headers of the last billable answer.
    expect(capped.lastCredits).toEqual({ used: 1, remaining: 99 });
    const over = await serviceError(capped.scrape(`${s.site.url}/article/1`, { engine: 'fetch' }));
    expect([over.status, over.code]).toEqual([402, 'KEY_BUDGET_EXCEEDED']);
    expect(over.details).toMatchObject({ period: 'day', limit: 1, spent: 1, required: 1 });
    expect((await serviceError(capped.updateKey(created.data.id, { dailyCreditLimit: 5 }))).status).toBe(403);
    const raised = await client.updateKey(created.data.id, { dailyCreditLimit: 2, monthlyCreditLimit: 40 });
    expect(raised.data).toMatchObject({
      dailyCreditLimit: 2,
      monthlyCreditLimit: 40,
      spentToday: 1,
      name: 'agent',
    });
    await capped.scrape(`${s.site.url}/article/1`, { engine: 'fetch' });
    const lifted = await client.updateKey(created.data.id, { dailyCreditLimit: null });
    expect(lifted.data).toMatchObject({ dailyCreditLimit: null, spentToday: 2, spentThisMonth: 2 });
  });

  it('pauseMonitor and resumeMonitor; a cancelled monitor is a 409', async () => {
    const { client } = await freshClient(100);
    const { data: monitor } = await client.createMonitor(`${s.site.url}/article/2`, { interval: 'weekly' });
    const paused = await client.pauseMonitor(monitor.id);
    expect(paused.data).toMatchObject({ id: monitor.id, status: 'paused', pausedBy: 'user' });
    expect((await client.getMonitor(monitor.id)).data.status).toBe('paused');
    const resumed = await client.resumeMonitor(monitor.id);
    expect(resumed.data).toMatchObject({ id: monitor.id, status: 'active', pausedBy: null });
    await client.deleteMonitor(monitor.id);
    const conflict = await serviceError(client.pauseMonitor(monitor.id));
    expect([conflict.status, conflict.code]).toEqual([409, 'CONFLICT']);
    expect((await serviceError(client.resumeMonitor(UNKNOWN_ID))).status).toBe(404);
  });

  it('listBatches, batchResults and batchResult show a finished batch item by item', async () => {
    const { client } = await freshClient(100);
    const batch = await client.batchScrapeAndWait([`${s.site.url}/`, `${s.site.url}/404`], {
      pollIntervalMs: 100,
    });
    const list = await client.listBatches({ limit: 10 });
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: batch.id, status: 'done', total: 2, completed: 1, failed: 1 });
    expect(list.data[0]!.finishedAt).not.toBeNull();

    const rows = await client.batchResults(batch.id);
    expect(rows.total).toBe(2);
    expect(rows.data.map((r) => [r.position, r.url, r.status])).toEqual([
      [0, `${s.site.url}/`, 'done'],
      [1, `${s.site.url}/404`, 'failed'],
    ]);
    expect(rows.data[0]!.title).toBe(TITLE);
    const onePerPage = await client.batchResults(batch.id, { skip: 1, limit: 1 });
    expect(onePerPage.data.map((r) => r.position)).toEqual([1]);

    const done = await client.batchResult(batch.id, rows.data[0]!.itemId);
    expect(String(done.data.document?.markdown)).toContain(TITLE);
    const failed = await client.batchResult(batch.id, rows.data[1]!.itemId);
    expect(failed.data.document).toBeNull();
    expect(failed.data.error).toMatch(/404/);
    expect((await serviceError(client.batchResults(UNKNOWN_ID))).status).toBe(404);
  });

  it('cancelBatchScrape fails every unfinished item CANCELLED and refunds its credit', async () => {
    const { client } = await freshClient(100);
    // Each page answers after 5 s: cancelled at once, the items are still queued or running.
    const urls = Array.from({ length: 6 }, (_, i) => `${s.site.url}/article/${i}?delay=5000`);
    const { id, total } = await client.startBatchScrape(urls);
    expect(total).toBe(6);
    expect((await client.account()).data.balance).toBe(94); // 1 credit per URL up front

    const res = await client.cancelBatchScrape(id);
    expect(res).toMatchObject({ success: true, id, status: 'done', total: 6 });
    expect(res.cancelled).toBeGreaterThanOrEqual(1);
    expect(res.completed + res.failed).toBe(6);
    expect(res.cancelled).toBeLessThanOrEqual(res.failed);
    expect(res.creditsUsed).toBe(res.completed); // only the items that finished cost a credit
    expect((await client.account()).data.balance).toBe(100 - res.creditsUsed);

    const status = await client.getBatchScrapeStatus(id);
    const cancelledItems = status.results.filter((r) => r.code === 'CANCELLED');
    expect(cancelledItems).toHaveLength(res.cancelled);
    expect(cancelledItems.every((r) => r.status === 'failed')).toBe(true);

    const again = await client.cancelBatchScrape(id); // idempotent: nothing left to stop
    expect(again).toMatchObject({ cancelled: 0, creditsUsed: res.creditsUsed, completed: res.completed });
    expect((await serviceError(client.cancelBatchScrape(UNKNOWN_ID))).status).toBe(404);
  });

  it('listCrawls, crawlResults and crawlResult show a finished crawl page by page', async () => {
    const { client } = await freshClient(100);
    const first = await client.crawlAndWait(`${s.site.url}/`, {
      maxDepth: 0,
      maxPages: 1,
      pollIntervalMs: 100,
    });
    const crawl = await client.crawlAndWait(`${s.site.url}/`, {
      maxDepth: 1,
      maxPages: 3,
      pollIntervalMs: 100,
    });
    expect(crawl.status).toBe('done');

    const list = await client.listCrawls();
    expect(list.total).toBe(2);
    expect(list.data.map((c) => c.id)).toEqual([crawl.id, first.id]); // newest first
    expect(list.data[0]).toMatchObject({ status: 'done', completed: crawl.completed });
    const paged = await client.listCrawls({ limit: 1 });
    expect(paged.data.map((c) => c.id)).toEqual([crawl.id]);
    expect(paged.next).toBeDefined();

    const pages = await client.crawlResults(crawl.id, { limit: 500 });
    expect(pages.total).toBeGreaterThanOrEqual(crawl.completed);
    const root = pages.data[0]!;
    expect(root).toMatchObject({ depth: 0, status: 'done', statusCode: 200, title: TITLE });
    expect(pages.data.filter((p) => p.status === 'done')).toHaveLength(crawl.completed);

    const detail = await client.crawlResult(crawl.id, root.pageId);
    expect(detail.data.pageId).toBe(root.pageId);
    expect(String(detail.data.document?.markdown)).toContain(TITLE);
    expect((await serviceError(client.crawlResult(crawl.id, UNKNOWN_ID))).status).toBe(404);
  });
});
