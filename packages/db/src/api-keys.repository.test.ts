import { AccountsRepository } from './accounts.repository';
import { hashApiKey } from './api-key';
import { ApiKeysRepository } from './api-keys.repository';
import type { Db } from './db';
import { openTestDb } from './test-support/test-database';

let db: Db;
let accounts: AccountsRepository;
let keys: ApiKeysRepository;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  keys = new ApiKeysRepository(db);
});
afterAll(() => db.close());

describe('AccountsRepository', () => {
  test('create grants the plan credits as a ledger row', async () => {
    const a = await accounts.create({ plan: 'pro', name: 'Acme' });
    expect(a).toEqual({ accountId: expect.any(String), plan: 'pro', balance: 50_000 });
    const got = await accounts.get(a.accountId);
    expect(got).toMatchObject({ accountId: a.accountId, plan: 'pro', balance: 50_000, name: 'Acme' });
    expect(got?.createdAt).toBeInstanceOf(Date);
    const ledger = await db.prisma.creditLedger.findMany({ where: { accountId: a.accountId } });
    expect(ledger.map((l) => [l.reason, l.amount, l.balanceAfter])).toEqual([['grant', 50_000, 50_000]]);
  });

  test('credits override, enterprise default and validation', async () => {
    expect((await accounts.create({ plan: 'free', credits: 7 })).balance).toBe(7);
    expect((await accounts.create({ plan: 'enterprise' })).balance).toBe(0);
    await expect(accounts.create({ plan: 'free', credits: -1 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  test('get returns null for unknown and malformed ids', async () => {
    expect(await accounts.get('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await accounts.get('not-a-uuid')).toBeNull();
  });
});

describe('ApiKeysRepository', () => {
  test('create returns the plaintext once; only its hash and prefix are stored', async () => {
    const { accountId } = await accounts.create({ plan: 'hobby' });
    const k = await keys.create(accountId, { name: 'ci' });
    expect(k.apiKey).toMatch(/^wcs_[0-9A-Za-z]{40}$/);
    expect(k.prefix).toBe(k.apiKey.slice(0, 12));
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: k.keyId } });
    expect(row.keyHash).toBe(hashApiKey(k.apiKey));
    expect(JSON.stringify(row)).not.toContain(k.apiKey);
  });

  test('verify resolves the account and plan; touches lastUsedAt at most once a minute', async () => {
    const { accountId } = await accounts.create({ plan: 'scale' });
    const k = await keys.create(accountId);
    expect(await keys.verify(k.apiKey)).toEqual({ keyId: k.keyId, accountId, plan: 'scale' });
    const first = (await db.prisma.apiKey.findUniqueOrThrow({ where: { id: k.keyId } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await keys.verify(k.apiKey);
    const second = (await db.prisma.apiKey.findUniqueOrThrow({ where: { id: k.keyId } })).lastUsedAt;
    expect(second?.getTime()).toBe(first?.getTime());
  });

  test('unknown, malformed and revoked keys do not verify', async () => {
    const { accountId } = await accounts.create({ plan: 'free' });
    const k = await keys.create(accountId);
    expect(await keys.verify(`${k.apiKey.slice(0, -1)}${k.apiKey.endsWith('a') ? 'b' : 'a'}`)).toBeNull();
    expect(await keys.verify('garbage')).toBeNull();
    expect(await keys.revoke(k.keyId)).toBe(true);
    expect(await keys.revoke(k.keyId)).toBe(false);
    expect(await keys.revoke('nope')).toBe(false);
    expect(await keys.verify(k.apiKey)).toBeNull();
  });

  test('list shows prefixes and revocation, oldest first', async () => {
    const { accountId } = await accounts.create({ plan: 'free' });
    const a = await keys.create(accountId, { name: 'a' });
    const b = await keys.create(accountId);
    await keys.revoke(a.keyId);
    const list = await keys.list(accountId);
    expect(list.map((k) => [k.keyId, k.prefix, k.name, k.revokedAt !== null])).toEqual([
      [a.keyId, a.prefix, 'a', true],
      [b.keyId, b.prefix, null, false],
    ]);
    expect(JSON.stringify(list)).not.toContain(a.apiKey);
  });

  test('maxActive caps the active keys, also under concurrent creates; revoked keys do not count', async () => {
    const { accountId } = await accounts.create({ plan: 'free' });
    const first = await keys.create(accountId, { maxActive: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => keys.create(accountId, { maxActive: 3 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(4);
    for (const r of refused) {
      expect(r.reason).toMatchObject({
        code: 'CONFLICT',
        status: 409,
        details: { activeKeys: 3, maxActiveKeys: 3 },
      });
    }
    await keys.revoke(first.keyId);
    await expect(keys.create(accountId, { maxActive: 3 })).resolves.toMatchObject({
      keyId: expect.any(String),
    });
    // Without a cap (the first key of a new account, tests), nothing is counted.
    await expect(keys.create(accountId)).resolves.toMatchObject({ keyId: expect.any(String) });
    expect((await keys.list(accountId)).filter((k) => k.revokedAt === null)).toHaveLength(4);
  });

  test('creating a key for an unknown account fails', async () => {
    await expect(keys.create('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(keys.create('not-a-uuid', { maxActive: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
