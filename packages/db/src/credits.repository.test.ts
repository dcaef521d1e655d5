import { InsufficientCreditsError, NotFoundError } from '@wcs/errors';
import { AccountsRepository } from './accounts.repository';
import { chargeInTx } from './credits.ops';
import { CreditsRepository } from './credits.repository';
import type { Db } from './db';
import { sqlTransaction } from './sql-client';
import { openTestDb } from './test-support/test-database';

let db: Db;
let accounts: AccountsRepository;
let credits: CreditsRepository;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  credits = new CreditsRepository(db);
});
afterAll(() => db.close());

async function ledgerSum(accountId: string): Promise<number> {
  const rows = await credits.ledger(accountId, 1000);
  return rows.reduce((s, r) => s + r.amount, 0);
}

describe('CreditsRepository', () => {
  test('60 parallel charges of 1 on a 20-credit account: exactly 20 succeed', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        credits.charge(accountId, 1, { reason: 'scrape', reference: `job-${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(20);
    expect(rejected).toHaveLength(40);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await credits.balance(accountId)).toBe(0);
    expect(await ledgerSum(accountId)).toBe(0);
  });

  test('a charge is idempotent per (reason, reference), also when retried concurrently', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        credits.charge(accountId, 3, { reason: 'extract', reference: 'req-1' }),
      ),
    );
    for (const r of results) expect(r.balance).toBe(7);
    // Same reference under another reason is a different charge.
    await credits.charge(accountId, 1, { reason: 'scrape', reference: 'req-1' });
    expect(await credits.balance(accountId)).toBe(6);
    expect(await ledgerSum(accountId)).toBe(6);
  });

  test('insufficient credits leave balance and ledger untouched', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 4 });
    await expect(credits.charge(accountId, 5, { reason: 'extract', reference: 'x' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      status: 402,
    });
    expect(await credits.balance(accountId)).toBe(4);
    expect(await credits.ledger(accountId)).toHaveLength(1); // just the grant
  });

  test('credit is idempotent: the second refund with the same reference is not applied', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 5 });
    await credits.charge(accountId, 5, { reason: 'crawl', reference: 'c1' });
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () =>
        credits.credit(accountId, 2, { reason: 'crawl_refund', reference: 'c1' }),
      ),
    );
    expect(attempts.filter((a) => a.applied)).toHaveLength(1);
    expect(await credits.balance(accountId)).toBe(2);
    expect(await ledgerSum(accountId)).toBe(2);
  });

  test('a retried charge is a no-op even after the balance fell below its amount', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 4 });
    expect(await credits.charge(accountId, 3, { reason: 'scrape', reference: 'r1' })).toMatchObject({
      balance: 1,
    });
    // Not "insufficient": this charge went through before (a retry whose first answer was lost).
    expect(await credits.charge(accountId, 3, { reason: 'scrape', reference: 'r1' })).toMatchObject({
      balance: 1,
    });
    await expect(credits.charge(accountId, 3, { reason: 'scrape', reference: 'r2' })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    expect(await ledgerSum(accountId)).toBe(1);
  });

  test("a balance change in progress does not block a foreign-key check on the account (other inserts don't wait for it)", async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    const checker = await db.pool.connect();
    // What a row referencing the account (a job, a search document) takes while it is inserted.
    const keyShare = async () => {
      await checker.query('BEGIN');
      await checker.query("SET LOCAL lock_timeout = '5s'");
      await checker.query('SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE', [accountId]);
      await checker.query('COMMIT');
    };
    const rollback = new Error('roll back');
    try {
      await expect(
        sqlTransaction(db, async (tx) => {
          await tx.$queryRaw`SELECT * FROM change_balance(${accountId}::uuid, -1, 'scrape', 'held-1')`;
          await keyShare();
          await chargeInTx(tx, accountId, 1, { reason: 'batch', reference: 'held-2' });
          await keyShare();
          throw rollback;
        }),
      ).rejects.toBe(rollback);
    } finally {
      await checker.query('ROLLBACK').catch(() => undefined);
      checker.release();
    }
    expect(await credits.balance(accountId)).toBe(10);
  });

  test('topupUsd adds 100 credits per USD (10 USD buys 1,000)', async () => {
    const { accountId } = await accounts.create({ plan: 'hobby', credits: 0 });
    expect(await credits.topupUsd(accountId, 10)).toEqual({ balance: 1000 });
    expect(await credits.topupUsd(accountId, 2.5, 'pay-1')).toEqual({ balance: 1250 });
    expect(await credits.topupUsd(accountId, 2.5, 'pay-1')).toEqual({ balance: 1250 });
    const [latest] = await credits.ledger(accountId, 1);
    expect(latest).toMatchObject({ amount: 250, balanceAfter: 1250, reason: 'topup', reference: 'pay-1' });
  });

  test('ledger is newest first with running balances', async () => {
    const { accountId } = await accounts.create({ plan: 'free' });
    await credits.charge(accountId, 10, { reason: 'map', reference: 'm1' });
    await credits.charge(accountId, 2, { reason: 'search', reference: 's1' });
    const rows = await credits.ledger(accountId);
    expect(rows.map((r) => [r.reason, r.amount, r.balanceAfter])).toEqual([
      ['search', -2, 488],
      ['map', -10, 490],
      ['grant', 500, 500],
    ]);
  });

  test('unknown or malformed account ids', async () => {
    await expect(credits.charge('nope', 1, { reason: 'scrape', reference: 'r' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      credits.charge('00000000-0000-4000-8000-000000000000', 1, { reason: 'scrape', reference: 'r' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(credits.balance('nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(credits.charge('nope', 0, { reason: 'scrape', reference: 'r' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  test('the database refuses a negative balance even from raw SQL', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 1 });
    await expect(
      db.prisma.$executeRaw`UPDATE accounts SET balance = balance - 2 WHERE id = ${accountId}::uuid`,
    ).rejects.toThrow();
  });
});
