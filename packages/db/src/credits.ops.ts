import { InsufficientCreditsError, NotFoundError, ValidationError } from '@wcs/errors';
import { isUuid } from './ids';
import type { LedgerReason } from './ledger-reason';
import type { SqlClient } from './sql-client';

/**
 * Balance changes inside a caller's transaction. Invariant that makes them race-free: every ledger
 * write for an account happens while holding that account's row lock (SELECT … FOR UPDATE first),
 * so the duplicate check, the balance update and the ledger insert see a stable account.
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
    SELECT balance FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
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

async function apply(tx: SqlClient, accountId: string, delta: number, e: LedgerEntry): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ balance: number }>>`
    UPDATE accounts SET balance = balance + ${delta}, updated_at = now()
    WHERE id = ${accountId}::uuid RETURNING balance`;
  const balance = rows[0]!.balance;
  await tx.$executeRaw`
    INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference)
    VALUES (${accountId}::uuid, ${delta}, ${balance}, ${e.reason}, ${e.reference})`;
  return balance;
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
  if (await alreadyApplied(tx, accountId, e)) return { balance: current, applied: false };
  if (current < amount) throw insufficientCredits(amount, current);
  return { balance: await apply(tx, accountId, -amount, e), applied: true };
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
  if (await alreadyApplied(tx, accountId, e)) return { balance: current, applied: false };
  return { balance: await apply(tx, accountId, amount, e), applied: true };
}
