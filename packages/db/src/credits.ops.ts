import {
  InsufficientCreditsError,
  KeyBudgetExceededError,
  NotFoundError,
  ValidationError,
} from '@wcs/errors';
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
  /**
   * The API key the change counts against (its daily and monthly limits): a charge adds to its
   * spend, a refund gives back to the spend of the periods of `at`. Absent: the account only.
   */
  keyId?: string | null | undefined;
  /**
   * When the charge happened (a refund passes its charge's `at`, so the credits go back to that
   * charge's UTC day and month); default the database's now().
   */
  at?: Date | null | undefined;
}

export type ChangeStatus = 'applied' | 'duplicate' | 'insufficient' | 'key_limit';

export interface ChangeRow {
  status: string;
  balance: number | null;
  at: Date;
  period: string | null;
  limit: number | null;
  spent: number | null;
  resetsAt: Date | null;
}

export interface ChangeResult {
  status: ChangeStatus;
  balance: number;
  /** When the change counted (the key's period): what a refund of this charge passes as `at`. */
  at: Date;
  row: ChangeRow;
}

/** The rows of change_key_balance as one outcome; NotFoundError for an unknown account. */
export function changeResult(rows: ChangeRow[]): ChangeResult {
  const row = rows[0];
  if (!row || row.status === 'missing' || row.balance === null) throw new NotFoundError('Account not found');
  if (
    row.status !== 'applied' &&
    row.status !== 'duplicate' &&
    row.status !== 'insufficient' &&
    row.status !== 'key_limit'
  )
    throw new Error(`change_key_balance answered ${row.status}`);
  return { status: row.status, balance: row.balance, at: row.at, row };
}

/** 402 KEY_BUDGET_EXCEEDED from a 'key_limit' answer: which limit, what is spent, when it resets. */
export function keyBudgetExceeded(required: number, row: ChangeRow): KeyBudgetExceededError {
  const period = row.period === 'month' ? 'month' : 'day';
  const limit = row.limit ?? 0;
  const spent = row.spent ?? 0;
  const resetsAt = (row.resetsAt ?? new Date()).toISOString();
  return new KeyBudgetExceededError(
    `This API key's ${period === 'day' ? 'daily' : 'monthly'} credit limit (${limit}) would be passed: ` +
      `${spent} spent, ${required} required; it resets at ${resetsAt}`,
    { details: { period, limit, spent, required, resetsAt } },
  );
}

/** Throws the 402 of a refused debit (balance or key budget). */
export function throwIfRefused(amount: number, r: ChangeResult): void {
  if (r.status === 'insufficient') throw insufficientCredits(amount, r.balance);
  if (r.status === 'key_limit') throw keyBudgetExceeded(amount, r.row);
}

export function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new ValidationError(`Credit amount must be a positive integer, got ${amount}`);
  }
}

/**
 * One call of `change_key_balance` (packages/db/sql/functions/change_key_balance.sql): the account
 * lock, the key's budget check, the duplicate check and every write in one statement. The lock is
 * then held from that statement to the caller's commit only, not across client round trips: every
 * balance change of the account waits for it (200 batches of one account sent at once queued
 * behind each other's round trips).
 */
export async function changeBalance(
  tx: SqlClient,
  accountId: string,
  delta: number,
  e: LedgerEntry,
): Promise<ChangeResult> {
  if (!isUuid(accountId)) throw new NotFoundError('Account not found');
  const keyId = e.keyId && isUuid(e.keyId) ? e.keyId : null;
  const rows = await tx.$queryRaw<ChangeRow[]>`
    SELECT o_status AS status, o_balance AS balance, o_at AS at, o_period AS period, o_limit AS "limit",
           o_spent AS spent, o_resets_at AS "resetsAt"
    FROM change_key_balance(${accountId}::uuid, ${delta}::int, ${e.reason}::text, ${e.reference}::text,
                            ${keyId}::uuid, ${e.at ?? null}::timestamptz)`;
  return changeResult(rows);
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
): Promise<{ balance: number; applied: boolean; at: Date }> {
  assertAmount(amount);
  const r = await changeBalance(tx, accountId, -amount, e);
  // A retry of a charge that went through is a no-op ('duplicate'), not an error.
  throwIfRefused(amount, r);
  return { balance: r.balance, applied: r.status === 'applied', at: r.at };
}

/** Credit (refund, top-up); a repeated (reason, reference) is a no-op. */
export async function creditInTx(
  tx: SqlClient,
  accountId: string,
  amount: number,
  e: LedgerEntry,
): Promise<{ balance: number; applied: boolean }> {
  assertAmount(amount);
  const r = await changeBalance(tx, accountId, amount, e);
  return { balance: r.balance, applied: r.status === 'applied' };
}
