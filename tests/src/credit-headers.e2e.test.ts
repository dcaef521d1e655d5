import { createDb } from '@wcs/db';
import { type FakeLlmServer, type FixtureSite, startFakeAnthropic, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
} from './harness';

/** X-Credits-Used / X-Credits-Remaining on every billable answer, checked against the ledger. */

let stack: Stack;
let site: FixtureSite;
let fake: FakeLlmServer;

beforeAll(async () => {
  [site, fake] = await Promise.all([
    startFixtureSite({ pages: 3, tree: { branching: 2, depth: 1 } }),
    startFakeAnthropic(),
  ]);
  fake.script(() => ({ data: { title: 'A title' } }));
  stack = await startStack({
    crawlWorker: true,
    mapWorker: true,
    extractWorker: true,
    env: {
      WORKER_CONCURRENCY: '4',
      CRAWL_PAGE_TIMEOUT_MS: '5000',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: fake.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
    },
  });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), fake?.close()]);
});

const credits = (res: request.Response) => ({
  used: Number(res.headers['x-credits-used']),
  remaining: Number(res.headers['x-credits-remaining']),
});

/** The account's ledger total since (and including) the grant: what its balance must be. */
async function ledgerSum(accountId: string): Promise<number> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    const rows = await db.prisma.$queryRaw<Array<{ s: number }>>`
      SELECT COALESCE(SUM(amount), 0)::int AS s FROM credit_ledger WHERE account_id = ${accountId}::uuid`;
    return rows[0]!.s;
  } finally {
    await db.close();
  }
}

describe('credit headers', () => {
  it('scrape: 1 used and the balance after; a refunded failure says 0 used', async () => {
    const account = await createTestAccount({ credits: 10 });
    const ok = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/article/0`, engine: 'fetch' })
      .expect(200);
    expect(credits(ok)).toEqual({ used: 1, remaining: 9 });
    const failed = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/404`, engine: 'fetch' });
    expect(failed.status).toBe(502);
    expect(credits(failed)).toEqual({ used: 0, remaining: 9 });
    expect(await balanceOf(account.accountId)).toBe(9);
    expect(await ledgerSum(account.accountId)).toBe(9);
  });

  it('map, batch start, crawl start and status, and the Firecrawl routes', async () => {
    const account = await createTestAccount({ credits: 50 });
    const map = await request(stack.url)
      .post('/v1/map')
      .set(account.auth)
      .send({ url: site.url, maxUrls: 5 });
    expect(map.status).toBe(200);
    expect(credits(map)).toEqual({ used: 1, remaining: 49 });

    const batch = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${site.url}/article/0`, `${site.url}/article/1`, `${site.url}/article/2`] });
    expect(batch.status).toBe(202);
    expect(credits(batch)).toEqual({ used: 3, remaining: 46 });

    const fc = await request(stack.url)
      .post('/firecrawl/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/article/1` });
    expect(fc.status).toBe(200);
    expect(credits(fc)).toEqual({ used: 1, remaining: 45 });

    const crawl = await request(stack.url)
      .post('/v1/crawl')
      .set(account.auth)
      .send({ url: site.url, maxPages: 3 });
    expect(crawl.status).toBe(202);
    // A crawl pays per page as it goes: nothing at its start.
    expect(credits(crawl).used).toBe(0);
    const done = await pollUntil(async () => {
      const s = await request(stack.url).get(`/v1/crawl/${crawl.body.id}`).set(account.auth);
      return s.body.status === 'done' ? s : undefined;
    }, 60_000);
    expect(done.body.creditsUsed).toBeGreaterThan(0);
    expect(credits(done).used).toBe(done.body.creditsUsed);
    const balance = await balanceOf(account.accountId);
    expect(credits(done).remaining).toBe(balance);
    expect(await ledgerSum(account.accountId)).toBe(balance);

    const fcStatus = await request(stack.url).get(`/firecrawl/v2/crawl/${crawl.body.id}`).set(account.auth);
    expect(fcStatus.status).toBe(200);
    expect(credits(fcStatus)).toEqual({ used: done.body.creditsUsed, remaining: balance });
  });

  it('search, extract, parse and the Firecrawl v2 scrape, map, search, batch, parse and extract', async () => {
    const account = await createTestAccount({ credits: 100 });
    // Each answer's headers against the ledger: `used` is what its rows took, `remaining` the sum.
    let total = await ledgerSum(account.accountId);
    const expectLedgerMatches = async (res: request.Response, used?: number) => {
      const after = await ledgerSum(account.accountId);
      expect(credits(res)).toEqual({ used: total - after, remaining: after });
      if (used !== undefined) expect(credits(res).used).toBe(used);
      expect(await balanceOf(account.accountId)).toBe(after);
      total = after;
    };
    const post = (path: string, body: Record<string, unknown>) =>
      request(stack.url).post(path).set(account.auth).send(body);
    const html = Buffer.from(
      '<html><head><title>Notes</title></head><body><p>Words of a file.</p></body></html>',
    );

    // Indexed for the embedded search by being scraped.
    await expectLedgerMatches(await post('/v1/scrape', { url: `${site.url}/article/2` }).expect(200), 1);
    const search = await post('/v1/search', { query: 'article 2', num_results: 3 });
    expect(search.status).toBe(200);
    await expectLedgerMatches(search, search.body.creditsUsed);

    await expectLedgerMatches(
      await post('/v1/extract', { url: `${site.url}/article/1`, prompt: 'The title' }).expect(200),
      5,
    );
    await expectLedgerMatches(
      await request(stack.url)
        .post('/v1/parse')
        .set(account.auth)
        .attach('file', html, { filename: 'notes.html', contentType: 'text/html' })
        .expect(200),
      1,
    );

    await expectLedgerMatches(
      await post('/firecrawl/v2/scrape', { url: `${site.url}/article/0`, maxAge: 0 }).expect(200),
      1,
    );
    await expectLedgerMatches(await post('/firecrawl/v2/map', { url: site.url, limit: 5 }).expect(200), 1);
    const fcSearch = await post('/firecrawl/v2/search', {
      query: 'article 2',
      limit: 2,
      scrapeOptions: { formats: ['markdown'] },
    }).expect(200);
    await expectLedgerMatches(fcSearch, fcSearch.body.creditsUsed);
    const batch = await post('/firecrawl/v2/batch/scrape', {
      urls: [`${site.url}/article/0`, `${site.url}/article/1`],
    }).expect(200);
    await expectLedgerMatches(batch, 2);
    await expectLedgerMatches(
      await request(stack.url)
        .post('/firecrawl/v2/parse')
        .set(account.auth)
        .attach('file', html, { filename: 'notes.html', contentType: 'text/html' })
        .expect(200),
      1,
    );

    // Extract: the start says what it charged (the extract's 5), the status what it kept.
    const start = await post('/firecrawl/v2/extract', {
      urls: [`${site.url}/article/2`],
      prompt: 'The title',
    }).expect(200);
    await expectLedgerMatches(start, 5);
    const done = await pollUntil(async () => {
      const st = await request(stack.url).get(`/firecrawl/v2/extract/${start.body.id}`).set(account.auth);
      return st.body.status === 'processing' ? undefined : st;
    }, 30_000);
    expect(done.body).toMatchObject({ status: 'completed', creditsUsed: 5 });
    expect(credits(done)).toEqual({ used: 5, remaining: await ledgerSum(account.accountId) });

    // A batch's status shows its failed items' refunds: what it kept so far, and the balance now.
    const mixed = await post('/v1/batch/scrape', {
      urls: [`${site.url}/article/1`, `${site.url}/missing-page-404`],
    }).expect(202);
    expect(credits(mixed).used).toBe(2);
    const settled = await pollUntil(async () => {
      const st = await request(stack.url).get(`/v1/batch/scrape/${mixed.body.id}`).set(account.auth);
      return st.body.status === 'done' ? st : undefined;
    }, 60_000);
    expect(settled.body).toMatchObject({ completed: 1, failed: 1, creditsUsed: 1 });
    const balance = await ledgerSum(account.accountId);
    expect(credits(settled)).toEqual({ used: 1, remaining: balance });
    const fcStatus = await request(stack.url)
      .get(`/firecrawl/v2/batch/scrape/${mixed.body.id}`)
      .set(account.auth)
      .expect(200);
    expect(credits(fcStatus)).toEqual({ used: 1, remaining: balance });
    expect(await balanceOf(account.accountId)).toBe(balance);
  });
});
