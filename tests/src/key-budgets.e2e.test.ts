import { createDb } from '@wcs/db';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
} from './harness';

/** Per-key daily/monthly credit limits through the real gateway, workers and monitor scheduler. */

let stack: Stack;
let site: FixtureSite;
const monitors: Array<{ auth: { Authorization: string }; id: string }> = [];

beforeAll(async () => {
  site = await startFixtureSite({ pages: 3 });
  stack = await startStack({
    monitorScheduler: true,
    crawlWorker: true,
    env: {
      WORKER_CONCURRENCY: '8',
      // hourly = 1 s here; the resume sweep every 300 ms.
      MONITOR_INTERVAL_SCALE: String(1_000 / 3_600_000),
      MONITOR_RESUME_SWEEP_MS: '300',
      // A model the gateway counts as configured (Firecrawl's extract start below); never called.
      ANTHROPIC_API_KEY: 'sk-ant-never-called',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    },
  });
});
afterAll(async () => {
  for (const m of monitors) await request(stack?.url).delete(`/v1/monitor/${m.id}`).set(m.auth);
  await stack?.close();
  await site?.close();
});

/** The next 00:00 UTC after now (the daily limit's reset). */
function nextUtcMidnight(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
}

async function keyLedgerSum(keyId: string): Promise<number> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    const rows = await db.prisma.$queryRaw<Array<{ s: number }>>`
      SELECT COALESCE(SUM(amount), 0)::int AS s FROM credit_ledger WHERE api_key_id = ${keyId}::uuid`;
    return rows[0]!.s;
  } finally {
    await db.close();
  }
}

async function newKey(
  owner: { Authorization: string },
  body: Record<string, unknown>,
): Promise<{ id: string; auth: { Authorization: string }; body: Record<string, unknown> }> {
  const res = await request(stack.url).post('/v1/keys').set(owner).send(body);
  expect(res.status).toBe(201);
  return {
    id: res.body.data.id,
    auth: { Authorization: `Bearer ${res.body.data.key}` },
    body: res.body.data,
  };
}

async function listed(owner: { Authorization: string }, id: string): Promise<Record<string, unknown>> {
  const res = await request(stack.url).get('/v1/keys').set(owner).expect(200);
  return (res.body.data as Array<Record<string, unknown>>).find((k) => k.id === id)!;
}

describe('per-key credit budgets', () => {
  it('60 parallel scrapes on a key limited to 20 a day: 20 pass, 40 are 402 KEY_BUDGET_EXCEEDED', async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { name: 'agent', dailyCreditLimit: 20 });
    expect(key.body).toMatchObject({ name: 'agent', dailyCreditLimit: 20, monthlyCreditLimit: null });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(stack.url)
          .post('/v1/scrape')
          .set(key.auth)
          .send({ url: `${site.url}/article/${i % 3}?n=${i}`, engine: 'fetch' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    for (const r of responses.filter((x) => x.status === 402)) {
      expect(r.body).toMatchObject({ success: false, code: 'KEY_BUDGET_EXCEEDED' });
      expect(r.body.details).toMatchObject({
        period: 'day',
        limit: 20,
        required: 1,
        resetsAt: nextUtcMidnight(),
      });
      expect(r.body.error).toContain('daily credit limit (20)');
    }
    expect(await balanceOf(account.accountId)).toBe(80);
    expect(await keyLedgerSum(key.id)).toBe(-20);
    expect(await listed(account.auth, key.id)).toMatchObject({
      dailyCreditLimit: 20,
      spentToday: 20,
      spentThisMonth: 20,
      dayResetsAt: nextUtcMidnight(),
    });
    // The account's other key is not limited by it.
    await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/article/0`, engine: 'fetch' })
      .expect(200);
  });

  it('an upload (POST /v1/parse) counts against the key too: the second past a limit of 1 is 402', async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { dailyCreditLimit: 1 });
    const html =
      '<html><head><title>Uploaded</title></head><body><main><h1>Uploaded</h1>' +
      '<p>An HTML file sent by its owner, with enough words in it to count as the content of a page.</p>' +
      '</main></body></html>';
    const upload = () =>
      request(stack.url).post('/v1/parse').set(key.auth).set('Content-Type', 'text/html').send(html);
    expect((await upload()).status).toBe(200);
    const refused = await upload();
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ code: 'KEY_BUDGET_EXCEEDED', details: { period: 'day', limit: 1 } });
    expect(await keyLedgerSum(key.id)).toBe(-1);
    expect(await balanceOf(account.accountId)).toBe(99);
  });

  it("Firecrawl's extract start charges against the key: past its limit it is 402, nothing charged", async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { dailyCreditLimit: 4 });
    const start = await request(stack.url)
      .post('/firecrawl/v2/extract')
      .set(key.auth)
      .send({ urls: [`${site.url}/`], prompt: 'The title' });
    expect(start.status).toBe(402);
    expect(start.body).toMatchObject({
      code: 'KEY_BUDGET_EXCEEDED',
      details: { period: 'day', limit: 4, required: 5 },
    });
    expect(await keyLedgerSum(key.id)).toBe(0);
    expect(await balanceOf(account.accountId)).toBe(100);
  });

  it('a refunded failure gives its credit back to the key; a raised limit lets it spend again', async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { dailyCreditLimit: 1 });
    const failed = await request(stack.url)
      .post('/v1/scrape')
      .set(key.auth)
      .send({ url: `${site.url}/404`, engine: 'fetch' });
    expect(failed.status).toBe(502);
    expect(await listed(account.auth, key.id)).toMatchObject({ spentToday: 0 });
    await request(stack.url)
      .post('/v1/scrape')
      .set(key.auth)
      .send({ url: `${site.url}/article/1`, engine: 'fetch' })
      .expect(200);
    const refused = await request(stack.url).post('/v1/map').set(key.auth).send({ url: site.url });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('KEY_BUDGET_EXCEEDED');
    // A key at its limit cannot start a crawl either (its pages count against the key too).
    const crawl = await request(stack.url)
      .post('/v1/crawl')
      .set(key.auth)
      .send({ url: site.url, maxPages: 2 });
    expect(crawl.status).toBe(402);
    expect(crawl.body).toMatchObject({
      code: 'KEY_BUDGET_EXCEEDED',
      details: { period: 'day', limit: 1, spent: 1 },
    });

    // A capped key cannot lift its own cap, nor mint an uncapped key.
    const self = await request(stack.url)
      .patch(`/v1/keys/${key.id}`)
      .set(key.auth)
      .send({ dailyCreditLimit: null });
    expect(self.status).toBe(403);
    expect((await request(stack.url).post('/v1/keys').set(key.auth).send({})).status).toBe(403);
    // It may still rename itself.
    await request(stack.url).patch(`/v1/keys/${key.id}`).set(key.auth).send({ name: 'renamed' }).expect(200);

    const raised = await request(stack.url)
      .patch(`/v1/keys/${key.id}`)
      .set(account.auth)
      .send({ dailyCreditLimit: 2, monthlyCreditLimit: 50 });
    expect(raised.status).toBe(200);
    expect(raised.body.data).toMatchObject({
      name: 'renamed',
      dailyCreditLimit: 2,
      monthlyCreditLimit: 50,
      spentToday: 1,
    });
    const scrape = () =>
      request(stack.url)
        .post('/v1/scrape')
        .set(key.auth)
        .send({ url: `${site.url}/article/2`, engine: 'fetch' });
    expect((await scrape()).status).toBe(200);
    expect((await scrape()).status).toBe(402);
    // Bad limits are 400s; another account's key is 404.
    for (const body of [
      { dailyCreditLimit: -1 },
      { monthlyCreditLimit: 1.5 },
      { dailyCreditLimit: '3' },
      {},
    ]) {
      expect((await request(stack.url).patch(`/v1/keys/${key.id}`).set(account.auth).send(body)).status).toBe(
        400,
      );
    }
    const stranger = await createTestAccount({ credits: 1 });
    expect(
      (await request(stack.url).patch(`/v1/keys/${key.id}`).set(stranger.auth).send({ name: 'x' })).status,
    ).toBe(404);
  });

  it('a batch past the key budget is refused whole; its failed items give back to the key', async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { monthlyCreditLimit: 3 });
    const big = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(key.auth)
      .send({ urls: [0, 1, 2, 0].map((i) => `${site.url}/article/${i}?b=${i}`) });
    expect(big.status).toBe(402);
    expect(big.body).toMatchObject({ code: 'KEY_BUDGET_EXCEEDED', details: { period: 'month', limit: 3 } });
    const ok = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(key.auth)
      .send({ urls: [`${site.url}/article/0`, `${site.url}/404`, `${site.url}/article/2`] });
    expect(ok.status).toBe(202);
    const done = await pollUntil(async () => {
      const s = await request(stack.url).get(`/v1/batch/scrape/${ok.body.id}`).set(key.auth);
      return s.body.status === 'done' ? s.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ completed: 2, failed: 1, creditsUsed: 2 });
    expect(await listed(account.auth, key.id)).toMatchObject({ spentThisMonth: 2 });
    expect(await keyLedgerSum(key.id)).toBe(-2);
  });

  it("a crawl's pages count against the key that started it: the crawl stops key_budget_exceeded at the limit", async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { dailyCreditLimit: 6 });
    // A tree of 3 children per node, 3 levels (40 pages): far more than the key allows.
    const id = await startCrawl(stack.url, key.auth, {
      url: `${site.url}/tree`,
      maxDepth: 3,
      includePaths: ['^/tree'],
    });
    // Scrapes of the same key race the crawl's pages for the same 6 credits.
    const scrapes = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        request(stack.url)
          .post('/v1/scrape')
          .set(key.auth)
          .send({ url: `${site.url}/article/${i}?race=${i}`, engine: 'fetch' }),
      ),
    );
    const scraped = scrapes.filter((r) => r.status === 200).length;
    for (const r of scrapes) expect([200, 402]).toContain(r.status);
    const done = await waitForCrawl(stack.url, id, key.auth);
    expect(done).toMatchObject({ status: 'failed', stopReason: 'key_budget_exceeded' });
    expect(done.error).toMatch(/credit limit/);
    // Exactly the key's limit was spent, never more, split between the crawl and the scrapes.
    expect(done.completed + scraped).toBe(6);
    expect(done.creditsUsed).toBe(done.completed);
    expect(done.pages).toHaveLength(done.completed);
    expect(await keyLedgerSum(key.id)).toBe(-6);
    expect(await balanceOf(account.accountId)).toBe(94);
    expect(await listed(account.auth, key.id)).toMatchObject({ spentToday: 6, spentThisMonth: 6 });

    // The account's own (unlimited) key crawls on: its pages are not counted against the other key.
    const free = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 1,
      includePaths: ['^/tree'],
    });
    const freeDone = await waitForCrawl(stack.url, free, account.auth);
    expect(freeDone).toMatchObject({ status: 'done', completed: 4 });
    expect(await keyLedgerSum(key.id)).toBe(-6);
    expect(await balanceOf(account.accountId)).toBe(90);
  });

  it("a monitor pauses at its key's limit (like out of credits) and resumes when the limit is raised", async () => {
    const account = await createTestAccount({ credits: 100 });
    const key = await newKey(account.auth, { dailyCreditLimit: 1 });
    const created = await request(stack.url)
      .post('/v1/monitor')
      .set(key.auth)
      .send({ url: `${site.url}/article/0`, interval: 'hourly' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    monitors.push({ auth: account.auth, id });
    type Detail = { status: string; checks: Array<{ hash?: string; code?: string }> };
    const detail = async () =>
      (await request(stack.url).get(`/v1/monitor/${id}`).set(account.auth).expect(200)).body.data as Detail;
    const paused = await pollUntil(async () => {
      const d = await detail();
      return d.status === 'paused' ? d : undefined;
    }, 30_000);
    expect(paused.checks[0]?.code).toBe('KEY_BUDGET_EXCEEDED');
    expect(paused.checks.filter((c) => c.hash)).toHaveLength(1);
    expect(await balanceOf(account.accountId)).toBe(99);

    await request(stack.url)
      .patch(`/v1/keys/${key.id}`)
      .set(account.auth)
      .send({ dailyCreditLimit: 3 })
      .expect(200);
    const again = await pollUntil(async () => {
      const d = await detail();
      return d.status === 'paused' && d.checks.filter((c) => c.hash).length === 3 ? d : undefined;
    }, 30_000);
    expect(again.checks[0]?.code).toBe('KEY_BUDGET_EXCEEDED');
    expect(await balanceOf(account.accountId)).toBe(97);
    expect(await listed(account.auth, key.id)).toMatchObject({ spentToday: 3 });
  });
});
