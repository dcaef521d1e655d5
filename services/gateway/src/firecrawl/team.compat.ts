/**
 * GET /firecrawl/v2/team/credit-usage (and v1's snake_case twin) from the native account (issue
 * 16): remaining credits are the balance, plan credits the plan's monthly grant, and the billing
 * period the calendar month (UTC) the monthly grant covers; none for plans without a monthly grant.
 */
import { PLANS } from '@wcs/db';
import { Router } from 'express';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { accountOperation } from '../routes/account.routes';

export interface CreditUsage {
  remainingCredits: number;
  planCredits: number;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
}

/** The current UTC calendar month, [start, end). */
export function billingPeriod(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

export function teamCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const usage = async (res: Parameters<typeof authOf>[0]): Promise<CreditUsage> => {
    const account = await accountOperation(deps, authOf(res));
    const planCredits = PLANS[account.plan].monthlyCredits;
    const period = planCredits > 0 ? billingPeriod(new Date()) : undefined;
    return {
      remainingCredits: account.balance,
      planCredits,
      billingPeriodStart: period?.start ?? null,
      billingPeriodEnd: period?.end ?? null,
    };
  };
  router.get('/v2/team/credit-usage', async (_req, res) => {
    res.json({ success: true, data: await usage(res) });
  });
  router.get('/v1/team/credit-usage', async (_req, res) => {
    const u = await usage(res);
    res.json({
      success: true,
      data: {
        remaining_credits: u.remainingCredits,
        plan_credits: u.planCredits,
        billing_period_start: u.billingPeriodStart,
        billing_period_end: u.billingPeriodEnd,
      },
    });
  });
  return router;
}
