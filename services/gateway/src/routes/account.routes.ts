import { type AccountInfo, LEDGER_REASONS, type LedgerEntryView, PLANS, USAGE_OPERATIONS } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { Router } from 'express';
import { z } from 'zod';
import type { accountResponse, ledgerResponse, usageResponse } from '../contract/account.responses';
import type { Body } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { peekCount } from '../middleware/fixed-window';
import { rateLimitKey } from '../middleware/rate-limit.middleware';
import { parseQuery } from '../validation/parse-query';
import { csvLine } from './csv-line';

const MAX_USAGE_DAYS = 366;
const DEFAULT_LEDGER_LIMIT = 50;
const MAX_LEDGER_LIMIT = 500;

const usageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(MAX_USAGE_DAYS).default(30),
});

const reasonList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const reasons = v
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    const unknown = reasons.filter((r) => !(LEDGER_REASONS as readonly string[]).includes(r));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown reason ${unknown.join(', ')} (known: ${LEDGER_REASONS.join(', ')})`,
      });
      return z.NEVER;
    }
    return reasons;
  });

const ledgerQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_LEDGER_LIMIT).default(DEFAULT_LEDGER_LIMIT),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, 'must be the id of a ledger row')
    .optional(),
  reason: reasonList,
});

const csvQuery = z.strictObject({ reason: reasonList });

function entryOut(e: LedgerEntryView) {
  return {
    id: e.id,
    createdAt: e.createdAt.toISOString(),
    reason: e.reason,
    amount: e.amount,
    reference: e.reference,
    balanceAfter: e.balanceAfter,
  };
}

/** The caller's account (balance, plan); the Firecrawl-compatible credit usage reads it too. */
export async function accountOperation(deps: GatewayDeps, auth: AuthContext): Promise<AccountInfo> {
  const account = await deps.accounts.get(auth.accountId);
  if (!account) throw new NotFoundError('Account not found');
  return account;
}

/**
 * The account as its owner sees it: balance and plan, usage per day, the ledger and its
 * CSV export. Every number is read from PostgreSQL and aggregated there, scoped to the caller.
 */
export function accountRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/v1/account', async (_req, res) => {
    const auth = authOf(res);
    const [account, usage, rateLimit] = await Promise.all([
      accountOperation(deps, auth),
      deps.usage.usageByDay(auth.accountId, 30),
      rateLimitWindow(deps, auth.accountId, auth.plan),
    ]);
    const plan = PLANS[account.plan];
    res.json({
      success: true,
      data: {
        accountId: account.accountId,
        name: account.name,
        createdAt: account.createdAt.toISOString(),
        balance: account.balance,
        plan: {
          id: account.plan,
          name: plan.name,
          monthlyCredits: plan.monthlyCredits,
          priceUsd: plan.priceUsd,
        },
        usedLast30Days: usage.totals.total,
        rateLimit,
      },
    } satisfies Body<typeof accountResponse>);
  });

  router.get('/v1/usage', async (req, res) => {
    const auth = authOf(res);
    const { days } = parseQuery(usageQuery, req.query);
    const usage = await deps.usage.usageByDay(auth.accountId, days);
    res.json({
      success: true,
      data: {
        from: usage.from.toISOString(),
        to: usage.to.toISOString(),
        operations: [...USAGE_OPERATIONS],
        days: usage.days,
        totals: usage.totals,
      },
    } satisfies Body<typeof usageResponse>);
  });

  router.get('/v1/ledger', async (req, res) => {
    const auth = authOf(res);
    const q = parseQuery(ledgerQuery, req.query);
    const page = await deps.usage.ledgerPage(auth.accountId, {
      limit: q.limit,
      ...(q.cursor ? { cursor: BigInt(q.cursor) } : {}),
      ...(q.reason ? { reasons: q.reason } : {}),
    });
    const reasonParam = q.reason ? `&reason=${encodeURIComponent(q.reason.join(','))}` : '';
    res.json({
      success: true,
      total: page.total ?? 0,
      data: page.rows.map(entryOut),
      ...(page.nextCursor
        ? { next: `/v1/ledger?cursor=${page.nextCursor}&limit=${q.limit}${reasonParam}` }
        : {}),
    } satisfies Body<typeof ledgerResponse>);
  });

  /** Streamed in keyset pages: an account with millions of rows exports in flat memory. */
  router.get('/v1/ledger.csv', async (req, res) => {
    const auth = authOf(res);
    const q = parseQuery(csvQuery, req.query);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="ledger-${auth.accountId}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    res.write(csvLine(['id', 'time', 'reason', 'amount', 'reference', 'balance_after']));
    for await (const rows of deps.usage.ledgerRows(auth.accountId, q.reason)) {
      const chunk = rows
        .map((e) =>
          csvLine([e.id, e.createdAt.toISOString(), e.reason, e.amount, e.reference, e.balanceAfter]),
        )
        .join('');
      // Respect backpressure: a slow download must not buffer the whole ledger in memory.
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      if (req.socket.destroyed) return;
    }
    res.end();
  });

  return router;
}

/** The account's current fixed window (the rate limiter's Redis counter), read without counting. */
async function rateLimitWindow(
  deps: GatewayDeps,
  accountId: string,
  plan: keyof GatewayDeps['settings']['rateLimits'],
): Promise<{ limit: number; remaining: number; windowSeconds: number; resetsAt: string }> {
  const windowSeconds = deps.settings.rateLimitWindowSeconds;
  const windowMs = windowSeconds * 1000;
  const { key, window } = rateLimitKey(accountId, windowMs);
  const limit = deps.settings.rateLimits[plan];
  let used = 0;
  try {
    used = await peekCount(deps.redis, key);
  } catch (err) {
    deps.logger.warn({ err }, 'rate limiter unavailable; headroom unknown');
  }
  return {
    limit,
    remaining: Math.max(0, limit - used),
    windowSeconds,
    resetsAt: new Date((window + 1) * windowMs).toISOString(),
  };
}
