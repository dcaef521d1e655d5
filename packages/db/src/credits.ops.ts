import { InsufficientCreditsError, NotFoundError, ValidationError } from '@wcs/errors';
import { isUuid } from './ids';
import type { LedgerReason } from './ledger-reason';
import type { SqlClient } from './sql-client';

/**
 * Balance changes inside a caller's transaction. Invariant that makes them race-free: every ledger
 * write for an account happens while holding that account's row lock (SELECT … FOR NO KEY UPDATE
 * first: it excludes the other balance writers but not a foreign-key check), so the ledger insert
 * and the balance update see a stable account. Whether (reason, reference) was applied before is
 * decided by the ledger's unique key (INSERT … ON CONFLICT DO NOTHING), not by a lookup whose plan
 * depends on statistics (prisma/migrations/20261125090000_charge_by_unique_key says why).
 */

export interface LedgerEntry {
  reason: LedgerReason;
  reference: string;
}

export function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new ValidationError(`Credit amount must be a positive integer, got ${amount}`);
  }
}

async function lockBalance(tx: SqlClient, accountId: string): Promise<number> {
  if (!isUuid(accountId)) throw new NotFoundError('Account not found');
  const rows = await tx.$queryRaw<Array<{ balance: number }>>`
    SELECT balance FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
  const row = rows[0];
  if (!row) throw new NotFoundError('Account not found');
  return row.balance;
}

async function alreadyApplied(tx: SqlClient, accountId: string, e: LedgerEntry): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ one: number }>>`
    SELECT 1 AS one FROM credit_ledger
    WHERE account_id = ${accountId}::uuid AND reason = ${e.reason} AND reference = ${e.reference}`;
  return rows.length > 0;
}

/** Ledger row first, then the balance; false = (reason, reference) is on the ledger already. */
async function apply(
  tx: SqlClient,
  accountId: string,
  current: number,
  delta: number,
  e: LedgerEntry,
): Promise<boolean> {
  const written = await tx.$queryRaw<Array<{ one: number }>>`
    INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference)
    VALUES (${accountId}::uuid, ${delta}, ${current + delta}, ${e.reason}, ${e.reference})
    ON CONFLICT (account_id, reason, reference) DO NOTHING
    RETURNING 1 AS one`;
  if (written.length === 0) return false;
  await tx.$executeRaw`
    UPDATE accounts SET balance = balance + ${delta}, updated_at = now() WHERE id = ${accountId}::uuid`;
  return true;
}

export function insufficientCredits(required: number, balance: number): InsufficientCreditsError {
  return new InsufficientCreditsError(`Insufficient credits: ${required} required, ${balance} available`, {
    details: { required, balance },
  });
}

/** Debit; a repeated (reason, reference) is a no-op returning the current balance. */
export async function chargeInTx(
  tx: SqlClient,
  accountId: string,
  amount: number,
  e: LedgerEntry,
): Promise<{ balance: number; applied: boolean }> {
  assertAmount(amount);
  const current = await lockBalance(tx, accountId);
  if (current < amount) {
    // Rare: a retry of a charge that went through is a no-op, not an error.
    if (await alreadyApplied(tx, accountId, e)) return { balance: current, applied: false };
    throw insufficientCredits(amount, current);
  }
  const applied = await apply(tx, accountId, current, -amount, e);
  return { balance: applied ? current - amount : current, applied };
}

/** Credit (refund, top-up); a repeated (reason, reference) is a no-op. */
export async function creditInTx(
  tx: SqlClient,
  accountId: string,
  amount: number,
  e: LedgerEntry,
): Promise<{ balance: number; applied: boolean }> {
  assertAmount(amount);
  const current = await lockBalance(tx, accountId);
  const applied = await apply(tx, accountId, current, amount, e);
  return { balance: applied ? current + amount : current, applied };
}
