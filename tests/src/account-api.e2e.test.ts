import { Writable } from 'node:stream';
import { createDb, type Db } from '@wcs/db';
import { loadGatewayEnv, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import request from 'supertest';
import { createTestAccount, type Stack, startStack, TEST_DATABASE_URL, type TestAccount } from './harness';

/**
 * The account endpoints behind the dashboard, through HTTP against the real stores:
 * sessions and CSRF, usage equal to the ledger, ledger paging/filter/CSV, keys, listings, monitor
 * pause/resume. The browser tests (tests/src/dashboard) drive the page on top of these.
 */
let stack: Stack;
let db: Db;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE: '3' } });
  db = createDb(TEST_DATABASE_URL);
});
afterAll(async () => {
  await db.close();
  await stack.close();
});

/** Ledger rows written as the service writes them (balance_after consistent), at chosen times. */
async function seedLedger(
  accountId: string,
  rows: Array<{ reason: string; amount: number; daysAgo: number; reference?: string }>,
): Promise<void> {
  for (const [i, r] of rows.entries()) {
    await db.prisma.$executeRaw`
      WITH a AS (UPDATE accounts SET balance = balance + ${r.amount} WHERE id = ${accountId}::uuid RETURNING balance)
      INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference, created_at)
      SELECT ${accountId}::uuid, ${r.amount}, a.balance, ${r.reason}, ${r.reference ?? `seed-${i}`},
             now() - make_interval(secs => ${r.daysAgo * 86_400})
      FROM a`;
  }
}

async function signIn(apiKey: string): Promise<{ cookie: string; csrf: string }> {
  const res = await request(stack.url).post('/dashboard/api/session').send({ apiKey }).expect(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.find((c) => c.startsWith('wcs_session='))!;
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/Max-Age=\d+/);
  expect(cookie).not.toMatch(/Secure/);
  return { cookie: cookie.split(';')[0]!, csrf: res.body.data.csrfToken as string };
}

describe('dashboard sessions', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createTestAccount({ credits: 50 });
  });

  it('a key is exchanged for an HttpOnly SameSite=Strict session that authenticates /v1 calls', async () => {
    const { cookie, csrf } = await signIn(account.apiKey);
    const me = await request(stack.url).get('/dashboard/api/session').set('Cookie', cookie).expect(200);
    expect(me.body.data).toMatchObject({
      accountId: account.accountId,
      keyId: account.keyId,
      csrfToken: csrf,
    });
    expect(me.body.data.keyPrefix).toBe(account.apiKey.slice(0, 12));
    const acct = await request(stack.url).get('/v1/account').set('Cookie', cookie).expect(200);
    expect(acct.body.data.accountId).toBe(account.accountId);
    // Over TLS (as a proxy reports it) the cookie is Secure.
    const tls = await request(stack.url)
      .post('/dashboard/api/session')
      .set('X-Forwarded-Proto', 'https')
      .send({ apiKey: account.apiKey })
      .expect(200);
    expect(String(tls.headers['set-cookie'])).toMatch(/; Secure/);
  });

  it('state changes need the CSRF token; sign-out ends the session', async () => {
    const { cookie, csrf } = await signIn(account.apiKey);
    const noToken = await request(stack.url).post('/v1/keys').set('Cookie', cookie).send({}).expect(403);
    expect(noToken.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    await request(stack.url)
      .post('/v1/keys')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', 'x'.repeat(43))
      .send({})
      .expect(403);
    const ok = await request(stack.url)
      .post('/v1/keys')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .send({ name: 'from the dashboard' })
      .expect(201);
    expect(ok.body.data.key).toMatch(/^wcs_/);
    // A request another site makes the browser send is refused, token or not.
    await request(stack.url)
      .post('/v1/keys')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .set('Sec-Fetch-Site', 'cross-site')
      .send({})
      .expect(403);
    await request(stack.url)
      .get('/v1/account')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .expect(403);
    await request(stack.url)
      .post('/dashboard/api/session')
      .set('Origin', 'https://evil.example')
      .send({ apiKey: account.apiKey })
      .expect(403);
    await request(stack.url)
      .get('/v1/account')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .expect(200);
    await request(stack.url).delete('/dashboard/api/session').set('Cookie', cookie).expect(403);
    const out = await request(stack.url)
      .delete('/dashboard/api/session')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .expect(200);
    expect(String(out.headers['set-cookie'])).toMatch(/wcs_session=;/);
    await request(stack.url).get('/v1/account').set('Cookie', cookie).expect(401);
    await request(stack.url).get('/dashboard/api/session').set('Cookie', cookie).expect(401);
  });

  it("revoking a key ends its sessions at once; the account's last active key cannot be revoked", async () => {
    const a = await createTestAccount({ credits: 5 });
    const second = await request(stack.url).post('/v1/keys').set(a.auth).send({ name: 'second' }).expect(201);
    const { cookie } = await signIn(second.body.data.key);
    await request(stack.url).get('/v1/keys').set('Cookie', cookie).expect(200);
    const revoked = await request(stack.url)
      .delete(`/v1/keys/${second.body.data.id}`)
      .set(a.auth)
      .expect(200);
    expect(revoked.body.data.id).toBe(second.body.data.id);
    await request(stack.url).get('/v1/keys').set('Cookie', cookie).expect(401);
    await request(stack.url)
      .get('/v1/account')
      .set({ Authorization: `Bearer ${second.body.data.key}` })
      .expect(401);
    const last = await request(stack.url).delete(`/v1/keys/${a.keyId}`).set(a.auth).expect(409);
    expect(last.body.code).toBe('CONFLICT');
    const keys = await request(stack.url).get('/v1/keys').set(a.auth).expect(200);
    expect(
      keys.body.data.map((k: { id: string; current: boolean; revokedAt: string | null }) => [
        k.id,
        k.current,
        k.revokedAt !== null,
      ]),
    ).toEqual([
      [a.keyId, true, false],
      [second.body.data.id, false, true],
    ]);
    // Another account's key is "not found", never revoked.
    const other = await createTestAccount();
    await request(stack.url).delete(`/v1/keys/${other.keyId}`).set(a.auth).expect(404);
    await request(stack.url).get('/v1/account').set(other.auth).expect(200);
  });
});

describe('secrets stay out of the logs', () => {
  it('a sign-in, a session call and a sign-out log neither the key, nor the cookie token, nor the CSRF token', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    // A gateway of its own that logs everything (debug), requests included.
    const gateway = await startGateway(
      loadGatewayEnv({ ...stack.env, PORT: '0', LOG_LEVEL: 'debug' }),
      createLogger({ service: 'gateway', level: 'debug' }, destination),
    );
    try {
      const url = `http://127.0.0.1:${gateway.port}`;
      const account = await createTestAccount();
      const res = await request(url)
        .post('/dashboard/api/session')
        .send({ apiKey: account.apiKey })
        .expect(200);
      const token = String(res.headers['set-cookie']).split(';')[0]!.split('=')[1]!;
      const csrf = res.body.data.csrfToken as string;
      const cookie = `wcs_session=${token}`;
      await request(url).get('/v1/account').set('Cookie', cookie).expect(200);
      await request(url)
        .post('/v1/keys')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', csrf)
        .send({})
        .expect(201);
      await request(url).post('/v1/keys').set('Cookie', cookie).send({}).expect(403);
      await request(url)
        .delete('/dashboard/api/session')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', csrf)
        .expect(200);
      const log = lines.join('');
      // The requests were logged (so the check below looks at real lines)…
      expect(log).toContain('/dashboard/api/session');
      expect(log).toContain('/v1/account');
      // …and none of the secrets is in them.
      expect(log).not.toContain(account.apiKey);
      expect(log).not.toContain(token);
      expect(log).not.toContain(csrf);
    } finally {
      await gateway.close();
    }
  });
});

describe('usage and ledger', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createTestAccount({ credits: 1_000 });
    await seedLedger(account.accountId, [
      { reason: 'scrape', amount: -1, daysAgo: 0 },
      { reason: 'scrape', amount: -1, daysAgo: 0 },
      { reason: 'scrape_refund', amount: 1, daysAgo: 0 },
      { reason: 'batch', amount: -10, daysAgo: 3 },
      { reason: 'batch_refund', amount: 2, daysAgo: 3 },
      { reason: 'crawl', amount: -4, daysAgo: 29 },
      { reason: 'extract', amount: -5, daysAgo: 1 },
      { reason: 'search', amount: -6, daysAgo: 1 },
      { reason: 'map', amount: -1, daysAgo: 2 },
      { reason: 'monitor_check', amount: -1, daysAgo: 2 },
      { reason: 'topup', amount: 500, daysAgo: 2 },
      { reason: 'crawl', amount: -100, daysAgo: 31 },
      { reason: 'adjustment', amount: -3, daysAgo: 0, reference: '=HYPERLINK("x")' },
    ]);
  });

  it('usage per UTC day and operation equals the ledger, and the account repeats its 30-day total', async () => {
    const usage = await request(stack.url).get('/v1/usage?days=30').set(account.auth).expect(200);
    const days = usage.body.data.days as Array<Record<string, number | string>>;
    expect(days).toHaveLength(30);
    expect(days[29]!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.body.data.totals).toEqual({
      scrape: 1,
      batch: 8,
      crawl: 4,
      map: 1,
      search: 6,
      extract: 5,
      monitor: 1,
      total: 26,
    });
    // Cross-check against the ledger itself, summed here per day.
    const rows = await db.prisma.creditLedger.findMany({ where: { accountId: account.accountId } });
    const from = Date.parse(`${days[0]!.date}T00:00:00Z`);
    for (const day of days) {
      const spent = rows
        .filter((r) => r.createdAt.toISOString().slice(0, 10) === day.date && r.createdAt.getTime() >= from)
        .filter((r) => !['grant', 'topup', 'monthly', 'adjustment'].includes(r.reason))
        .reduce((s, r) => s - r.amount, 0);
      expect([day.date, day.total]).toEqual([day.date, spent]);
    }
    const acct = await request(stack.url).get('/v1/account').set(account.auth).expect(200);
    expect(acct.body.data).toMatchObject({
      balance: 1_000 - 1 - 1 + 1 - 10 + 2 - 4 - 5 - 6 - 1 - 1 + 500 - 100 - 3,
      plan: { id: 'free', name: 'Free', monthlyCredits: 500, priceUsd: 0 },
      usedLast30Days: 26,
    });
    expect(acct.body.data.rateLimit).toMatchObject({ limit: 1000, windowSeconds: 60 });
    expect(acct.body.data.rateLimit.remaining).toBeLessThan(1000);
    await request(stack.url).get('/v1/usage?days=0').set(account.auth).expect(400);
    await request(stack.url).get('/v1/usage?dayz=3').set(account.auth).expect(400);
  });

  it('the ledger pages newest first with a cursor, filters by reason, and exports the same rows as CSV', async () => {
    const all = await db.prisma.creditLedger.findMany({
      where: { accountId: account.accountId },
      orderBy: { id: 'desc' },
    });
    const seen: string[] = [];
    let next: string | undefined = '/v1/ledger?limit=4';
    while (next) {
      const page: request.Response = await request(stack.url).get(next).set(account.auth).expect(200);
      expect(page.body.total).toBe(all.length);
      seen.push(...page.body.data.map((r: { id: string }) => r.id));
      next = page.body.next;
    }
    expect(seen).toEqual(all.map((r) => r.id.toString()));
    const scrapes = await request(stack.url)
      .get('/v1/ledger?reason=scrape,scrape_refund')
      .set(account.auth)
      .expect(200);
    expect(scrapes.body.total).toBe(3);
    expect(new Set(scrapes.body.data.map((r: { reason: string }) => r.reason))).toEqual(
      new Set(['scrape', 'scrape_refund']),
    );
    const bad = await request(stack.url).get('/v1/ledger?reason=bogus').set(account.auth).expect(400);
    expect(bad.body.error).toMatch(/unknown reason bogus/);
    await request(stack.url).get('/v1/ledger?cursor=abc').set(account.auth).expect(400);

    const csv = await request(stack.url).get('/v1/ledger.csv').set(account.auth).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain(`ledger-${account.accountId}.csv`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,time,reason,amount,reference,balance_after');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(all.map((r) => r.id.toString()));
    // A reference a spreadsheet would run as a formula is neutralised.
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);
    const filtered = await request(stack.url)
      .get('/v1/ledger.csv?reason=topup')
      .set(account.auth)
      .expect(200);
    expect(filtered.text.trimEnd().split('\r\n')).toHaveLength(2);
  });
});

describe('listings and monitor pause/resume', () => {
  it("lists only the caller's batches and crawls; results and documents of other accounts are 404", async () => {
    const a = await createTestAccount({ credits: 10 });
    const b = await createTestAccount({ credits: 10 });
    const batch = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(a.auth)
      .send({ urls: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'] })
      .expect(202);
    const list = await request(stack.url).get('/v1/batch/scrape').set(a.auth).expect(200);
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: batch.body.id, total: 2 });
    expect((await request(stack.url).get('/v1/batch/scrape').set(b.auth).expect(200)).body.total).toBe(0);
    const results = await request(stack.url)
      .get(`/v1/batch/scrape/${batch.body.id}/results`)
      .set(a.auth)
      .expect(200);
    expect(results.body.data.map((r: { position: number; url: string }) => [r.position, r.url])).toEqual([
      [0, 'http://127.0.0.1:9/a'],
      [1, 'http://127.0.0.1:9/b'],
    ]);
    const itemId = results.body.data[0].itemId as string;
    const item = await request(stack.url)
      .get(`/v1/batch/scrape/${batch.body.id}/results/${itemId}`)
      .set(a.auth)
      .expect(200);
    expect(item.body.data).toMatchObject({ itemId, document: null });
    await request(stack.url).get(`/v1/batch/scrape/${batch.body.id}/results`).set(b.auth).expect(404);
    await request(stack.url)
      .get(`/v1/batch/scrape/${batch.body.id}/results/${itemId}`)
      .set(b.auth)
      .expect(404);

    const crawl = await request(stack.url)
      .post('/v1/crawl')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/' })
      .expect(202);
    const crawls = await request(stack.url).get('/v1/crawl').set(a.auth).expect(200);
    expect(crawls.body.data.map((c: { id: string }) => c.id)).toEqual([crawl.body.id]);
    expect((await request(stack.url).get('/v1/crawl').set(b.auth).expect(200)).body.total).toBe(0);
    await request(stack.url).get(`/v1/crawl/${crawl.body.id}/results`).set(b.auth).expect(404);
    await request(stack.url).get('/v1/crawl?limit=1000').set(a.auth).expect(400);
  });

  it('a user pause keeps the monitor paused until the user resumes it; cancelled ones are 409', async () => {
    const a = await createTestAccount({ credits: 10 });
    const m = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/' })
      .expect(201);
    const paused = await request(stack.url)
      .post(`/v1/monitor/${m.body.data.id}/pause`)
      .set(a.auth)
      .expect(200);
    expect(paused.body.data).toMatchObject({ status: 'paused', pausedBy: 'user' });
    // The credit sweep resumes only monitors paused for credits.
    const { MonitorsRepository } = await import('@wcs/db');
    expect(await new MonitorsRepository(db).resumeFunded()).not.toContain(m.body.data.id);
    const resumed = await request(stack.url)
      .post(`/v1/monitor/${m.body.data.id}/resume`)
      .set(a.auth)
      .expect(200);
    expect(resumed.body.data).toMatchObject({ status: 'active', pausedBy: null });
    await request(stack.url).delete(`/v1/monitor/${m.body.data.id}`).set(a.auth).expect(200);
    const conflict = await request(stack.url)
      .post(`/v1/monitor/${m.body.data.id}/resume`)
      .set(a.auth)
      .expect(409);
    expect(conflict.body.error).toMatch(/cancelled/);
    await request(stack.url).post(`/v1/monitor/${m.body.data.id}/pause`).set(a.auth).expect(409);
    const other = await createTestAccount();
    await request(stack.url).post(`/v1/monitor/${m.body.data.id}/pause`).set(other.auth).expect(404);
  });
});

// Last: after it, this address is throttled for the rest of the minute.
describe('sign-in throttle', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createTestAccount();
  });

  it('a wrong key is 401 with a message; repeated failures from one address are 429, a right key still signs in', async () => {
    const wrong = await request(stack.url)
      .post('/dashboard/api/session')
      .send({ apiKey: `wcs_${'A'.repeat(40)}` })
      .expect(401);
    expect(wrong.body).toEqual({ success: false, error: 'Invalid API key', code: 'UNAUTHORIZED' });
    // 3 failures a minute are allowed (env above); the window is a fixed minute, so one may roll
    // over: a round proves the rule when the right key's 200 sits between two 429s (one window).
    const wrongKey = () => request(stack.url).post('/dashboard/api/session').send({ apiKey: 'nope' });
    let proved = false;
    for (let round = 0; round < 3 && !proved; round++) {
      const statuses: number[] = [];
      let limited: request.Response | undefined;
      for (let i = 0; i < 9 && !limited; i++) {
        const r = await wrongKey();
        statuses.push(r.status);
        if (r.status === 429) limited = r;
      }
      expect(limited?.headers['retry-after']).toBe('60');
      expect(limited?.body.code).toBe('RATE_LIMITED');
      expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(2);
      // The throttle counts failures: the right key is checked first and signs in...
      const right = await request(stack.url).post('/dashboard/api/session').send({ apiKey: account.apiKey });
      expect(right.status).toBe(200);
      expect(right.body.data.keyId).toBe(account.keyId);
      // ...while wrong keys stay refused (a success does not reset the count).
      proved = (await wrongKey()).status === 429;
    }
    expect(proved).toBe(true);
  });
});
