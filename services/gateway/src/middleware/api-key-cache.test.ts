import { rawEnv } from '@wcs/config';
import { AccountsRepository, ApiKeysRepository, createDb, type Db } from '@wcs/db';
import { ApiKeyCache } from './api-key-cache';

/** The cache in front of the real repository (PostgreSQL), with a clock the test moves. */
let db: Db;
let accounts: AccountsRepository;
let keys: ApiKeysRepository;

beforeAll(() => {
  db = createDb(rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test');
  accounts = new AccountsRepository(db);
  keys = new ApiKeysRepository(db);
});

afterAll(async () => {
  await db.close();
});

async function freshKey(): Promise<{ apiKey: string; keyId: string; accountId: string }> {
  const account = await accounts.create({ plan: 'free', credits: 0 });
  const { apiKey, keyId } = await keys.create(account.accountId);
  return { apiKey, keyId, accountId: account.accountId };
}

describe('ApiKeyCache', () => {
  it('answers a verified key from memory until its TTL, then asks PostgreSQL again', async () => {
    let now = 1_000_000;
    const cache = new ApiKeyCache(keys, { ttlMs: 2_000, now: () => now });
    const k = await freshKey();
    expect(await cache.verify(k.apiKey)).toMatchObject({ keyId: k.keyId, accountId: k.accountId });
    // Revoked behind the gateway's back (the CLI): still taken on trust inside the TTL…
    await keys.revoke(k.keyId);
    now += 1_999;
    expect(await cache.verify(k.apiKey)).toMatchObject({ keyId: k.keyId });
    // …and refused once it ran out.
    now += 1;
    expect(await cache.verify(k.apiKey)).toBeNull();
  });

  it('forgets a key revoked through the gateway at once, even while a lookup of it is in flight', async () => {
    const cache = new ApiKeyCache(keys, { ttlMs: 60_000 });
    const k = await freshKey();
    expect(await cache.verify(k.apiKey)).not.toBeNull();
    await keys.revoke(k.keyId);
    cache.forget(k.keyId);
    expect(await cache.verify(k.apiKey)).toBeNull();

    const other = await freshKey();
    const inFlight = cache.verify(other.apiKey);
    cache.forget(other.keyId);
    expect(await inFlight).not.toBeNull();
    await keys.revoke(other.keyId);
    expect(await cache.verify(other.apiKey)).toBeNull();
  });

  it('never holds an unknown key (a key created after a failed try works at once), and stays bounded', async () => {
    const cache = new ApiKeyCache(keys, { ttlMs: 60_000, maxEntries: 2 });
    expect(await cache.verify('wcs_not_a_real_key_0123456789abcdef0123456789')).toBeNull();
    const a = await freshKey();
    const b = await freshKey();
    const c = await freshKey();
    for (const k of [a, b, c]) expect(await cache.verify(k.apiKey)).not.toBeNull();
    // `a` was pushed out by `c`: its revocation is seen at once, `c`'s is not (still held).
    await keys.revoke(a.keyId);
    await keys.revoke(c.keyId);
    expect(await cache.verify(a.apiKey)).toBeNull();
    expect(await cache.verify(c.apiKey)).not.toBeNull();
  });
});
