import { CreditsRepository, createDb, migrateDatabase } from '@wcs/db';
import {
  type FixtureSite,
  pgbouncerBinary,
  type RunningPgBouncer,
  startFixtureSite,
  startPgBouncer,
} from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack, TEST_DATABASE_URL } from './harness';

/**
 * The stack with DATABASE_URL through a real PgBouncer (Debian's 1.18) in transaction mode, as
 * docs/operations.md "Behind PgBouncer" sets it up: `?pgbouncer=true` and nothing else. Fewer
 * server connections than the services' pools hold, so transactions of different clients share them.
 */
const BIN = pgbouncerBinary();
if (!BIN) {
  console.warn(
    '[pgbouncer.e2e] SKIPPED: pgbouncer is not installed (scripts/ensure-tools.sh installs it: apt-get install -y pgbouncer)',
  );
}

(BIN ? describe : describe.skip)('the stack behind PgBouncer in transaction mode', () => {
  let bouncer: RunningPgBouncer;
  let pooledUrl: string;
  let stack: Stack;
  let site: FixtureSite;

  beforeAll(async () => {
    // Migrations take the direct URL (they hold a session-level advisory lock).
    await migrateDatabase(TEST_DATABASE_URL);
    bouncer = await startPgBouncer({ upstreamUrl: TEST_DATABASE_URL, poolMode: 'transaction', poolSize: 3 });
    pooledUrl = bouncer.url(new URL(TEST_DATABASE_URL).pathname.slice(1), { pgbouncer: 'true' });
    site = await startFixtureSite({ pages: 5 });
    stack = await startStack({
      crawlWorker: true,
      env: { DATABASE_URL: pooledUrl, WORKER_CONCURRENCY: '8', CRAWL_PAGE_TIMEOUT_MS: '5000' },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await bouncer?.stop();
  });

  const ledgerSum = async (accountId: string) => {
    const db = createDb(pooledUrl);
    try {
      const rows = await new CreditsRepository(db).ledger(accountId, 1000);
      return {
        rows,
        sum: rows.reduce((acc, r) => acc + r.amount, 0),
        balance: await new CreditsRepository(db).balance(accountId),
      };
    } finally {
      await db.close();
    }
  };

  it('API keys authenticate; 30 parallel scrapes on 10 credits: exactly 10 succeed and the ledger matches', async () => {
    const account = await createTestAccount({ credits: 10, databaseUrl: pooledUrl });
    const wrong = await request(stack.url)
      .post('/v1/scrape')
      .set({ Authorization: `Bearer ${account.apiKey.slice(0, -4)}zzzz` })
      .send({ url: `${site.url}/article/0` });
    expect(wrong.status).toBe(401);

    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(stack.url)
          .post('/v1/scrape')
          .set(account.auth)
          .send({ url: `${site.url}/article/${i % 5}?n=${i}`, engine: 'fetch' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(20);
    const ok = responses.find((r) => r.status === 200);
    expect(ok?.body.data.markdown).toEqual(expect.any(String));

    const { rows, sum, balance } = await ledgerSum(account.accountId);
    expect(balance).toBe(0);
    expect(sum).toBe(0);
    expect(rows.filter((r) => r.reason === 'scrape')).toHaveLength(10);
  });

  it('a batch runs to done and bills one credit per URL', async () => {
    const account = await createTestAccount({ credits: 20, databaseUrl: pooledUrl });
    const urls = [0, 1, 2, 3].map((n) => `${site.url}/article/${n}?batch`);
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    const done = await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ status: 'done', total: 4, completed: 4, failed: 0, creditsUsed: 4 });
    const { balance, sum } = await ledgerSum(account.accountId);
    expect(balance).toBe(16);
    expect(sum).toBe(16);
  });

  it('a crawl runs to done and bills one credit per page', async () => {
    const account = await createTestAccount({ credits: 50, databaseUrl: pooledUrl });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 1,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    // /tree and its 3 children.
    expect(done).toMatchObject({
      status: 'done',
      stopReason: 'completed',
      total: 4,
      completed: 4,
      failed: 0,
    });
    expect(done.creditsUsed).toBe(4);
    const { balance, sum } = await ledgerSum(account.accountId);
    expect(balance).toBe(46);
    expect(sum).toBe(46);
  });
});
