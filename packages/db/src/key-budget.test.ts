import { InsufficientCreditsError, KeyBudgetExceededError } from '@wcs/errors';
import { AccountsRepository } from './accounts.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { CreditsRepository } from './credits.repository';
import type { Db } from './db';
import { openTestDb } from './test-support/test-database';

/** Per-key daily/monthly credit limits, counted by change_key_balance under the account's lock. */

let db: Db;
let accounts: AccountsRepository;
let keys: ApiKeysRepository;
let credits: CreditsRepository;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  keys = new ApiKeysRepository(db);
  credits = new CreditsRepository(db);
});
afterAll(() => db.close());

async function keyed(balance: number, limits: { daily?: number | null; monthly?: number | null }) {
  const { accountId } = await accounts.create({ plan: 'free', credits: balance });
  const k = await keys.create(accountId, {
    dailyCreditLimit: limits.daily ?? null,
    monthlyCreditLimit: limits.monthly ?? null,
  });
  return { accountId, keyId: k.keyId };
}

async function spendRows(keyId: string): Promise<Array<{ period: string; start: string; spent: number }>> {
  return db.prisma.$queryRaw`
    SELECT period, to_char(period_start, 'YYYY-MM-DD') AS start, spent FROM api_key_spend
    WHERE api_key_id = ${keyId}::uuid ORDER BY period, period_start`;
}

async function keyLedgerSum(keyId: string): Promise<number> {
  const rows = await db.prisma.$queryRaw<Array<{ s: number }>>`
    SELECT COALESCE(SUM(amount), 0)::int AS s FROM credit_ledger WHERE api_key_id = ${keyId}::uuid`;
  return rows[0]!.s;
}

async function writeSpend(keyId: string, period: 'day' | 'month', start: string, spent: number) {
  await db.prisma.$executeRaw`
    INSERT INTO api_key_spend (api_key_id, period, period_start, spent)
    VALUES (${keyId}::uuid, ${period}, ${start}::date, ${spent})
    ON CONFLICT (api_key_id, period, period_start) DO UPDATE SET spent = EXCLUDED.spent`;
}

describe('key budgets (change_key_balance)', () => {
  test('60 parallel charges of 1 on a key limited to 20 a day: exactly 20 pass, spend = ledger', async () => {
    const { accountId, keyId } = await keyed(100, { daily: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        credits.charge(accountId, 1, { reason: 'scrape', reference: `job-${i}`, keyId }),
      ),
    );
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(rejected).toHaveLength(40);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(KeyBudgetExceededError);
      expect(r.reason).toMatchObject({ status: 402, code: 'KEY_BUDGET_EXCEEDED' });
      expect(r.reason.details).toMatchObject({ period: 'day', limit: 20, spent: 20, required: 1 });
    }
    expect(await credits.balance(accountId)).toBe(80);
    expect(await keyLedgerSum(keyId)).toBe(-20);
    const [info] = (await keys.list(accountId)).filter((k) => k.keyId === keyId);
    expect(info).toMatchObject({ dailyCreditLimit: 20, spentToday: 20, spentThisMonth: 20 });
  });

  test('the refusal names the limit and its reset: the next 00:00 UTC', async () => {
    const { accountId, keyId } = await keyed(100, { daily: 5 });
    const at = new Date('2026-03-10T15:00:00Z');
    await credits.charge(accountId, 4, { reason: 'extract', reference: 'a', keyId, at });
    const err = await credits
      .charge(accountId, 2, { reason: 'extract', reference: 'b', keyId, at })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeyBudgetExceededError);
    expect((err as KeyBudgetExceededError).details).toEqual({
      period: 'day',
      limit: 5,
      spent: 4,
      required: 2,
      resetsAt: '2026-03-11T00:00:00.000Z',
    });
    // Nothing written for the refused charge.
    expect(await credits.balance(accountId)).toBe(96);
    expect(await keyLedgerSum(keyId)).toBe(-4);
  });

  test('a refund gives back to the spend of its charge’s day, not of today', async () => {
    const { accountId, keyId } = await keyed(100, { daily: 10 });
    const yesterday = new Date(Date.now() - 86_400_000);
    const old = await credits.charge(accountId, 5, {
      reason: 'scrape',
      reference: 'r1',
      keyId,
      at: yesterday,
    });
    await credits.charge(accountId, 10, { reason: 'scrape', reference: 'r2', keyId });
    // r1's refund lands on yesterday's row: today stays full.
    await credits.credit(accountId, 5, { reason: 'scrape_refund', reference: 'r1', keyId, at: old.at });
    await expect(
      credits.charge(accountId, 1, { reason: 'scrape', reference: 'r3', keyId }),
    ).rejects.toBeInstanceOf(KeyBudgetExceededError);
    // r2's partial refund frees today's budget; a repeated refund changes nothing.
    const today = new Date();
    await credits.credit(accountId, 4, { reason: 'scrape_refund', reference: 'r2', keyId, at: today });
    await credits.credit(accountId, 4, { reason: 'scrape_refund', reference: 'r2', keyId, at: today });
    await credits.charge(accountId, 4, { reason: 'scrape', reference: 'r5', keyId });
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const rows = await spendRows(keyId);
    expect(rows.filter((r) => r.period === 'day')).toEqual([
      { period: 'day', start: day(yesterday), spent: 0 },
      { period: 'day', start: day(today), spent: 10 },
    ]);
    expect(await keyLedgerSum(keyId)).toBe(-10);
  });

  test('a new UTC day resets the daily limit: yesterday full, today open', async () => {
    const { accountId, keyId } = await keyed(100, { daily: 3 });
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    await writeSpend(keyId, 'day', yesterday, 3);
    await credits.charge(accountId, 3, { reason: 'scrape', reference: 'd1', keyId });
    await writeSpend(keyId, 'day', now.toISOString().slice(0, 10), 3);
    await expect(
      credits.charge(accountId, 1, { reason: 'scrape', reference: 'd2', keyId }),
    ).rejects.toBeInstanceOf(KeyBudgetExceededError);
  });

  test('the monthly limit counts across days and resets on the 1st (UTC)', async () => {
    const { accountId, keyId } = await keyed(100, { monthly: 6 });
    const jan30 = new Date('2026-01-30T10:00:00Z');
    const jan31 = new Date('2026-01-31T23:59:59Z');
    const feb1 = new Date('2026-02-01T00:00:00Z');
    await credits.charge(accountId, 4, { reason: 'scrape', reference: 'm1', keyId, at: jan30 });
    const err = await credits
      .charge(accountId, 3, { reason: 'scrape', reference: 'm2', keyId, at: jan31 })
      .then(() => null)
      .catch((e: unknown) => e as KeyBudgetExceededError);
    expect(err).toBeInstanceOf(KeyBudgetExceededError);
    expect(err?.details).toMatchObject({ period: 'month', limit: 6, spent: 4, resetsAt: feb1.toISOString() });
    await credits.charge(accountId, 2, { reason: 'scrape', reference: 'm3', keyId, at: jan31 });
    await credits.charge(accountId, 6, { reason: 'scrape', reference: 'm4', keyId, at: feb1 });
    expect((await spendRows(keyId)).filter((r) => r.period === 'month')).toEqual([
      { period: 'month', start: '2026-01-01', spent: 6 },
      { period: 'month', start: '2026-02-01', spent: 6 },
    ]);
  });

  test('the account balance stays the outer limit; other keys and key-less charges are not counted', async () => {
    const { accountId, keyId } = await keyed(5, { daily: 100 });
    await expect(
      credits.charge(accountId, 6, { reason: 'scrape', reference: 'o1', keyId }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    const other = await keys.create(accountId, {});
    await credits.charge(accountId, 2, { reason: 'scrape', reference: 'o2', keyId: other.keyId });
    await credits.charge(accountId, 1, { reason: 'scrape', reference: 'o3' });
    const list = await keys.list(accountId);
    expect(list.find((k) => k.keyId === keyId)).toMatchObject({ spentToday: 0 });
    expect(list.find((k) => k.keyId === other.keyId)).toMatchObject({
      spentToday: 2,
      dailyCreditLimit: null,
    });
  });

  test('a limit lowered below what was spent refuses the next charge; null lifts it', async () => {
    const { accountId, keyId } = await keyed(100, {});
    await credits.charge(accountId, 8, { reason: 'scrape', reference: 'l1', keyId });
    const updated = await keys.updateOwned(accountId, keyId, { dailyCreditLimit: 5 });
    expect(updated).toMatchObject({ dailyCreditLimit: 5, monthlyCreditLimit: null, spentToday: 8 });
    await expect(
      credits.charge(accountId, 1, { reason: 'scrape', reference: 'l2', keyId }),
    ).rejects.toBeInstanceOf(KeyBudgetExceededError);
    await keys.updateOwned(accountId, keyId, { dailyCreditLimit: null });
    await credits.charge(accountId, 1, { reason: 'scrape', reference: 'l3', keyId });
    // Another account cannot change this key.
    const stranger = await accounts.create({ plan: 'free', credits: 1 });
    expect(await keys.updateOwned(stranger.accountId, keyId, { dailyCreditLimit: 0 })).toBeNull();
  });
});
