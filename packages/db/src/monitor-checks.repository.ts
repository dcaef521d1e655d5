import { InsufficientCreditsError, KeyBudgetExceededError } from '@wcs/errors';
import { chargeInTx } from './credits.ops';
import { type Db, inTransaction } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import { KEY_BLOCKED } from './key-budget.sql';
import type { CheckDecision, CheckOutcome, MonitorStatus } from './monitor.types';

/**
 * A monitor's checks as the scheduler records them: whether one can be paid, pausing for credits,
 * a failed check, and a successful one billed, compared and recorded under the monitor's row lock.
 */
export class MonitorChecksRepository {
  constructor(private readonly db: Db) {}

  /** Before fetching: is there at least one credit? (The charge itself happens in `recordCheck`.) */
  async hasCredit(accountId: string, credits = 1): Promise<boolean> {
    const a = await this.db.prisma.account.findUnique({
      where: { id: accountId },
      select: { balance: true },
    });
    return (a?.balance ?? 0) >= credits;
  }

  /**
   * Before fetching: can one check be paid — a credit on the account and room for it in the
   * monitor key's daily and monthly limits? null = yes; else why not (the charge itself happens in
   * `recordCheck`, which decides under the account's lock).
   */
  async cannotPayCheck(
    accountId: string,
    apiKeyId: string | null,
  ): Promise<{ reason: string; code: string } | null> {
    if (!isUuid(accountId)) return { reason: 'Account not found', code: 'INSUFFICIENT_CREDITS' };
    const rows = await this.db.prisma.$queryRaw<Array<{ balance: number; keyBlocked: boolean }>>`
      SELECT a.balance,
             (${apiKeyId}::uuid IS NOT NULL AND ${KEY_BLOCKED(Prisma.sql`${apiKeyId}::uuid`)}) AS "keyBlocked"
      FROM accounts a WHERE a.id = ${accountId}::uuid`;
    const r = rows[0];
    if (!r || r.balance < 1) {
      return { reason: 'Insufficient credits: a check costs 1 credit', code: 'INSUFFICIENT_CREDITS' };
    }
    if (r.keyBlocked) {
      return {
        reason: "The monitor's API key has reached its daily or monthly credit limit",
        code: KeyBudgetExceededError.code,
      };
    }
    return null;
  }

  /**
   * active → paused for credits (the account's balance or the key's budget), with a check row
   * saying why; the resume sweep brings it back when a check can be paid again.
   */
  async pause(monitorId: string, reason: string, code = 'INSUFFICIENT_CREDITS'): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const n = await tx.monitor.updateMany({
        where: { id: monitorId, status: 'active' },
        data: { status: 'paused', pausedBy: 'credits' },
      });
      if (n.count > 0) {
        await tx.monitorCheck.create({
          data: { monitorId, error: reason, errorCode: code },
        });
      }
    });
  }

  /** A check whose scrape failed: recorded, not billed, the last hash kept. */
  async recordFailedCheck(
    monitorId: string,
    error: string,
    errorCode: string,
    nextCheckAt: Date | null,
  ): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await tx.monitorCheck.create({ data: { monitorId, error: error.slice(0, 1_000), errorCode } });
      await tx.monitor.updateMany({
        where: { id: monitorId, status: { in: ['active', 'paused'] } },
        data: { lastCheckAt: new Date(), ...(nextCheckAt ? { nextCheckAt } : {}) },
      });
    });
  }

  /**
   * A successful check, in one transaction under the monitor's row lock: charge 1 credit
   * (reference = check id), compare the hash, record the check and, on a change, the change row.
   * The first hash is the baseline (no change). Out of credits → the monitor is paused instead.
   *
   * Checks of one monitor can overlap (the baseline job and the first tick, a slow fetch past the
   * next tick) and finish out of order. A check whose fetch began before that of a check already
   * recorded is superseded: it is recorded (and billed: the page was fetched) as seen at
   * `observedAt`, but compared with nothing and it moves no hash, so a late old page never reads
   * as a change back to it.
   */
  async recordCheck(input: {
    monitorId: string;
    checkId: string;
    hash: string;
    /** Undefined for a 304 (`hash` is then the last hash): the stored snapshot stays. */
    snapshot?: string;
    nextCheckAt: Date | null;
    /** When this check's fetch began: the check's `checkedAt`. */
    observedAt: Date;
    /** The response's ETag / Last-Modified (null: it had none), kept for the next check's request. */
    validators?: { etag?: string; lastModified?: string } | null;
    /** The cleaned, filtered markdown (capped): the next check's diff base when this one moves it. */
    content?: string;
    /**
     * The baseline hash `decision` was made against. When another check moved the baseline
     * meanwhile, this one is recorded as superseded (compared with nothing).
     */
    baseHash?: string | null;
    /** What the checker decided when the hash differs from baseHash (default: a change, no diff). */
    decision?: CheckDecision;
    /** Credits of the goal's judge when it was asked (charged with the check, reason monitor_judge). */
    judgeCost?: number;
  }): Promise<CheckOutcome> {
    try {
      return await inTransaction(this.db, async (tx) => {
        const locked = await tx.$queryRaw<
          Array<{
            status: string;
            last_hash: string | null;
            last_snapshot: string | null;
            account_id: string;
            api_key_id: string | null;
            webhook_url: string | null;
          }>
        >`
          SELECT status, last_hash, last_snapshot, account_id::text AS account_id,
                 api_key_id::text AS api_key_id, webhook_url FROM monitors
          WHERE id = ${input.monitorId}::uuid FOR UPDATE`;
        const m = locked[0];
        if (!m) return { kind: 'skipped', status: 'cancelled' } as const;
        if (m.status !== 'active') return { kind: 'skipped', status: m.status as MonitorStatus } as const;
        const charge = await chargeInTx(tx, m.account_id, 1, {
          reason: 'monitor_check',
          reference: input.checkId,
          keyId: m.api_key_id,
        });
        // Already billed = this check was recorded by an earlier delivery of the same job.
        if (!charge.applied) return { kind: 'skipped', status: 'active' } as const;
        const check = { id: input.checkId, monitorId: input.monitorId, checkedAt: input.observedAt };
        const newer = await tx.$queryRaw<unknown[]>`
          SELECT 1 FROM monitor_checks
          WHERE monitor_id = ${input.monitorId}::uuid AND hash IS NOT NULL AND checked_at > ${input.observedAt}
          LIMIT 1`;
        if (newer.length > 0) {
          await tx.monitorCheck.create({ data: { ...check, hash: input.hash, changed: false } });
          return { kind: 'superseded', checkId: input.checkId } as const;
        }
        // A 304 confirms the page its validators came from; when a concurrent check moved the hash
        // meanwhile, that page is no longer the latest: recorded, compared with nothing.
        if (input.snapshot === undefined && m.last_hash !== input.hash) {
          await tx.monitorCheck.create({ data: { ...check, hash: input.hash, changed: false } });
          return { kind: 'superseded', checkId: input.checkId } as const;
        }
        if (input.baseHash !== undefined && input.baseHash !== m.last_hash) {
          // Decided against a baseline another check has moved since: the next check compares again.
          await tx.monitorCheck.create({ data: { ...check, hash: input.hash, changed: false } });
          return { kind: 'superseded', checkId: input.checkId } as const;
        }
        const differs = m.last_hash !== null && m.last_hash !== input.hash;
        const decision: CheckDecision | null = differs ? (input.decision ?? { kind: 'change' }) : null;
        const judgement = decision && decision.kind !== 'below_threshold' ? decision.judgement : undefined;
        if (judgement && input.judgeCost) {
          await chargeInTx(tx, m.account_id, input.judgeCost, {
            reason: 'monitor_judge',
            reference: input.checkId,
          });
        }
        const changed = decision?.kind === 'change';
        const now = new Date();
        await tx.monitorCheck.create({
          data: {
            ...check,
            hash: input.hash,
            changed,
            ...(judgement ? { judgement: { ...judgement } } : {}),
          },
        });
        // Below the threshold the baseline stays: small edits add up until they count.
        const moves = decision?.kind !== 'below_threshold';
        await tx.monitor.update({
          where: { id: input.monitorId },
          data: {
            ...(moves
              ? {
                  lastHash: input.hash,
                  ...(input.snapshot !== undefined ? { lastSnapshot: input.snapshot } : {}),
                  ...(input.content !== undefined ? { lastContent: input.content } : {}),
                }
              : {}),
            ...(input.validators !== undefined ? { lastValidators: input.validators ?? Prisma.DbNull } : {}),
            lastCheckAt: now,
            ...(input.nextCheckAt ? { nextCheckAt: input.nextCheckAt } : {}),
          },
        });
        if (decision?.kind === 'below_threshold')
          return { kind: 'below_threshold', checkId: input.checkId } as const;
        if (decision?.kind === 'irrelevant') return { kind: 'irrelevant', checkId: input.checkId } as const;
        if (decision?.kind !== 'change') {
          return { kind: m.last_hash === null ? 'baseline' : 'unchanged', checkId: input.checkId } as const;
        }
        const change = await tx.monitorChange.create({
          data: {
            monitorId: input.monitorId,
            detectedAt: now,
            hash: input.hash,
            snapshot: input.snapshot ?? '',
            previousSnapshot: m.last_snapshot,
            ...(decision.diff ? { diff: { ...decision.diff } } : {}),
            ...(decision.judgement ? { judgement: { ...decision.judgement } } : {}),
          },
        });
        return {
          kind: 'changed',
          checkId: input.checkId,
          changeId: change.id,
          webhookUrl: m.webhook_url,
        } as const;
      });
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError) && !(err instanceof KeyBudgetExceededError)) throw err;
      await this.pause(input.monitorId, err.message, err.code);
      return { kind: 'paused' };
    }
  }
}
