/**
 * Limits that hold per account, whatever the number of its keys: the plan's rate limit counts every
 * key (and dashboard session) of the account together, and an account holds at most
 * MAX_ACTIVE_KEYS_PER_ACCOUNT active keys.
 */
import request from 'supertest';
import { createTestAccount, type Stack, startStack } from './harness';

const LIMIT = 20;
const MAX_KEYS = 4;
const WINDOW_SECONDS = 86_400;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    worker: false,
    env: {
      RATE_LIMIT_FREE: String(LIMIT),
      // A day's window, so a run of the checks below straddles two windows only at midnight UTC.
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      RATE_LIMIT_HOBBY: '100000',
      MAX_ACTIVE_KEYS_PER_ACCOUNT: String(MAX_KEYS),
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * Runs `check` (which uses a fresh account) again if its run crossed into the next rate-limit
 * window, where the counts start over: at most once, around midnight UTC. The gateway runs in
 * this process, so it reads the same clock.
 */
async function inOneWindow(check: () => Promise<void>): Promise<void> {
  const windowOf = () => Math.floor(Date.now() / (WINDOW_SECONDS * 1000));
  for (;;) {
    const window = windowOf();
    const failure = await check().then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    if (windowOf() !== window) continue;
    if (failure) throw failure.err;
    return;
  }
}

describe('rate limit per account', () => {
  it('three keys of one free account get the plan limit once between them, not three times', () =>
    inOneWindow(async () => {
      // The two creations are requests of the account too.
      const account = await createTestAccount({ plan: 'free' });
      const keys = [account.apiKey];
      for (const name of ['second', 'third']) {
        const res = await request(stack.url).post('/v1/keys').set(account.auth).send({ name }).expect(201);
        keys.push(res.body.data.key as string);
      }
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        const res = await request(stack.url)
          .get('/v1/keys')
          .set(bearer(keys[i % 3] as string));
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.body.code).toBe('RATE_LIMITED');
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
      }
      // Two creations + 60 calls: the first 18 calls fit in the account's 20.
      const ok = statuses.filter((s) => s === 200).length;
      expect({ ok, limited: statuses.filter((s) => s === 429).length }).toEqual({
        ok: LIMIT - 2,
        limited: 60 - (LIMIT - 2),
      });
      expect(statuses.slice(0, LIMIT - 2).every((s) => s === 200)).toBe(true);
    }));

  it('every key sees the same window: headers and GET /v1/account count the account', () =>
    inOneWindow(async () => {
      const account = await createTestAccount({ plan: 'hobby' });
      const second = await request(stack.url).post('/v1/keys').set(account.auth).send({}).expect(201);
      const other = bearer(second.body.data.key as string);
      const a = await request(stack.url).get('/v1/keys').set(account.auth).expect(200);
      const b = await request(stack.url).get('/v1/keys').set(other).expect(200);
      // create, a, b: three requests of the account so far.
      expect([a.headers['x-ratelimit-remaining'], b.headers['x-ratelimit-remaining']]).toEqual([
        String(100_000 - 2),
        String(100_000 - 3),
      ]);
      const acct = await request(stack.url).get('/v1/account').set(other).expect(200);
      expect(acct.body.data.rateLimit).toMatchObject({ limit: 100_000, remaining: 100_000 - 4 });
    }));
});

describe('active keys per account', () => {
  it('past MAX_ACTIVE_KEYS_PER_ACCOUNT a new key is 409 CONFLICT; revoking one makes room', async () => {
    const account = await createTestAccount({ plan: 'hobby' });
    const created: string[] = [];
    for (let i = 1; i < MAX_KEYS; i++) {
      const res = await request(stack.url).post('/v1/keys').set(account.auth).send({}).expect(201);
      created.push(res.body.data.id as string);
    }
    const refused = await request(stack.url).post('/v1/keys').set(account.auth).send({ name: 'one more' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'CONFLICT' });
    expect(refused.body.error).toMatch(new RegExp(`${MAX_KEYS} active API keys`));
    const list = await request(stack.url).get('/v1/keys').set(account.auth).expect(200);
    expect(list.body.data).toHaveLength(MAX_KEYS);

    await request(stack.url).delete(`/v1/keys/${created[0]}`).set(account.auth).expect(200);
    await request(stack.url).post('/v1/keys').set(account.auth).send({}).expect(201);
    // Revoked keys stay listed but do not count.
    const after = await request(stack.url).get('/v1/keys').set(account.auth).expect(200);
    const rows = after.body.data as Array<{ revokedAt: string | null }>;
    expect(rows.filter((k) => k.revokedAt === null)).toHaveLength(MAX_KEYS);
    expect(rows).toHaveLength(MAX_KEYS + 1);
  });

  it('concurrent creates cannot pass the cap together', async () => {
    const account = await createTestAccount({ plan: 'hobby' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => request(stack.url).post('/v1/keys').set(account.auth).send({})),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_KEYS - 1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(8 - (MAX_KEYS - 1));
  });
});
