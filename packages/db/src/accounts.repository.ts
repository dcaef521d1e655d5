import { ValidationError } from '@wcs/errors';
import { type Db, inTransaction } from './db';
import { isUuid } from './ids';
import { isPlanId, PLANS, type PlanId } from './plans';

export interface AccountInfo {
  accountId: string;
  plan: PlanId;
  balance: number;
  name: string | null;
  createdAt: Date;
}

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /**
   * New account with its plan's monthly credits (or `credits`), granted as a 'grant' ledger row in
   * the same transaction so the ledger always sums to the balance.
   */
  async create(i: { plan: PlanId; credits?: number; name?: string }): Promise<{
    accountId: string;
    plan: PlanId;
    balance: number;
  }> {
    if (!isPlanId(i.plan)) throw new ValidationError(`Unknown plan: ${i.plan}`);
    const credits = i.credits ?? PLANS[i.plan].monthlyCredits;
    if (!Number.isSafeInteger(credits) || credits < 0) {
      throw new ValidationError(`credits must be a non-negative integer, got ${credits}`);
    }
    return inTransaction(this.db, async (tx) => {
      const account = await tx.account.create({
        data: { planId: i.plan, balance: credits, name: i.name ?? null },
        select: { id: true, balance: true },
      });
      if (credits > 0) {
        await tx.creditLedger.create({
          data: { accountId: account.id, amount: credits, balanceAfter: credits, reason: 'grant' },
        });
      }
      return { accountId: account.id, plan: i.plan, balance: account.balance };
    });
  }

  async get(accountId: string): Promise<AccountInfo | null> {
    if (!isUuid(accountId)) return null;
    const a = await this.db.prisma.account.findUnique({
      where: { id: accountId },
      select: { id: true, planId: true, balance: true, name: true, createdAt: true },
    });
    if (!a) return null;
    return {
      accountId: a.id,
      plan: a.planId as PlanId,
      balance: a.balance,
      name: a.name,
      createdAt: a.createdAt,
    };
  }

  /**
   * Accounts due a monthly grant for `month` (YYYY-MM): paid-for plans with monthly credits,
   * created before that month began (the creation grant covers the first month).
   */
  async dueForMonthlyGrant(month: string): Promise<Array<{ accountId: string; plan: PlanId }>> {
    const start = new Date(`${month}-01T00:00:00.000Z`);
    if (!/^\d{4}-\d{2}$/.test(month) || Number.isNaN(start.getTime())) {
      throw new ValidationError(`month must look like 2026-11, got ${month}`);
    }
    const plans = Object.entries(PLANS)
      .filter(([, p]) => p.monthlyCredits > 0)
      .map(([id]) => id);
    const rows = await this.db.prisma.account.findMany({
      where: { planId: { in: plans }, createdAt: { lt: start } },
      select: { id: true, planId: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((r) => ({ accountId: r.id, plan: r.planId as PlanId }));
  }
}
