import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '@wcs/errors';
import {
  assertAmount,
  type ChangeResult,
  changeBalance,
  type LedgerEntry,
  throwIfRefused,
} from './credits.ops';
import type { Db } from './db';
import { isUuid } from './ids';
import { CREDITS_PER_USD } from './plans';
import { sqlClient } from './sql-client';

export interface LedgerRow {
  amount: number;
  balanceAfter: number;
  reason: string;
  reference: string | null;
  createdAt: Date;
}

/** Account balances and their append-only ledger. Every change is one transaction with its ledger row. */
export class CreditsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Atomic debit: throws InsufficientCreditsError (balance untouched) when the account cannot pay.
   * Idempotent: a second call with the same (reason, reference) returns the current balance.
   */
  async charge(accountId: string, amount: number, e: LedgerEntry): Promise<{ balance: number; at: Date }> {
    assertAmount(amount);
    const r = await this.change(accountId, -amount, e);
    throwIfRefused(amount, r);
    return { balance: r.balance, at: r.at };
  }

  /** Idempotent credit (refunds, top-ups): applied=false when that (reason, reference) already exists. */
  async credit(
    accountId: string,
    amount: number,
    e: LedgerEntry,
  ): Promise<{ applied: boolean; balance: number }> {
    assertAmount(amount);
    const r = await this.change(accountId, amount, e);
    return { applied: r.status === 'applied', balance: r.balance };
  }

  /** One call of `change_key_balance` (credits.ops.ts says why), with the rules of credits.ops.ts. */
  private change(accountId: string, delta: number, e: LedgerEntry): Promise<ChangeResult> {
    return changeBalance(sqlClient(this.db), accountId, delta, e);
  }

  /** Buy credits: CREDITS_PER_USD per USD, reason 'topup'. Pass a payment reference to make it idempotent. */
  async topupUsd(accountId: string, usd: number, reference?: string): Promise<{ balance: number }> {
    const credits = Math.round(usd * CREDITS_PER_USD);
    if (!Number.isFinite(usd) || usd <= 0 || credits <= 0) {
      throw new ValidationError(`Top-up must be a positive USD amount, got ${usd}`);
    }
    const r = await this.credit(accountId, credits, {
      reason: 'topup',
      reference: reference ?? randomUUID(),
    });
    return { balance: r.balance };
  }

  /** Current balance; NotFoundError for an unknown account. */
  async balance(accountId: string): Promise<number> {
    const a = isUuid(accountId)
      ? await this.db.prisma.account.findUnique({ where: { id: accountId }, select: { balance: true } })
      : null;
    if (!a) throw new NotFoundError('Account not found');
    return a.balance;
  }

  /** Newest first. */
  async ledger(accountId: string, limit = 100): Promise<LedgerRow[]> {
    if (!isUuid(accountId)) return [];
    return this.db.prisma.creditLedger.findMany({
      where: { accountId },
      orderBy: { id: 'desc' },
      take: Math.max(1, Math.min(limit, 1000)),
      select: { amount: true, balanceAfter: true, reason: true, reference: true, createdAt: true },
    });
  }
}
