import type { CreditsRepository, LedgerReason } from '@wcs/db';
import { InternalError, toServiceError } from '@wcs/errors';
import type {
  JobSecrets,
  PageSecrets,
  PayloadInputOf,
  QueueProducer,
  ResultOf,
  WaitedQueue,
} from '@wcs/queues';
import type { JobClock } from '../middleware/server-timing';
import type { BalanceHints } from './balance-hints';
import type { CallerResponse } from './caller-gone';
import { holdJob, startJob } from './charged-job-start';
import { type CreditHeaderTarget, headerTargetOf, setCreditHeaders } from './credit-headers';
import type { PendingWork } from './pending-work';

/**
 * Billing of the interactive requests, in one place: reserve credits up front, do the work, settle
 * to what the work actually cost (the rest back in one refund row), and keep the gateway's
 * shutdown from closing the database before that refund is written.
 *
 * Ledger: the reservation is one `reason` row and the refund one `refundReason` row, both with
 * the request id as reference. PostgreSQL applies a (reason, reference) pair at most once, so the
 * charge is idempotent per request id and a request is never refunded twice.
 */

export interface ChargeTerms {
  accountId: string;
  /**
   * The HTTP response: once settled, `X-Credits-Used` (what the request cost) and
   * `X-Credits-Remaining` (the account's balance after it) are set on it (credit-headers.ts).
   */
  headers?: CreditHeaderTarget | undefined;
  /** The caller's API key: the charge counts against its daily/monthly limits, the refund gives back. */
  keyId?: string | undefined;
  /** The ledger reference of the charge and of its refund. */
  requestId: string;
  /** Credits taken up front: the most this request can cost. */
  reserve: number;
  reason: LedgerReason;
  refundReason: LedgerReason;
  /**
   * What a billed failure costs (the caller's own options spent the budget): default the whole
   * reserve. Extract keeps only the page's conversion (1), not the model's share it never used.
   */
  billedFailureCost?: number;
  /**
   * Told the balance right after the reserve was taken, before the work starts: a request that
   * answers before its work ends (Firecrawl's extract start) reports the charge with it.
   */
  onCharged?: ((charged: { balance: number }) => void) | undefined;
}

/** What the work answers and what it cost (0 … reserve credits). */
export interface Settled<T> {
  value: T;
  cost: number;
}

/**
 * Reserve → work → settle. Throws InsufficientCreditsError (nothing charged, work not started)
 * when the balance cannot cover the reserve, KeyBudgetExceededError when the key's limit cannot. When the work returns, `reserve − cost` is refunded;
 * when it throws, everything is, and the error is rethrown as a ServiceError — unless the error's
 * kind is `billed` (the caller's own options spent the budget the work was given, e.g.
 * SELECTOR_TOO_EXPENSIVE): then `billedFailureCost` (default the reserve) is kept.
 */
export async function runChargedWork<T>(
  deps: { credits: CreditsRepository; pending: PendingWork },
  terms: ChargeTerms,
  work: () => Promise<Settled<T>>,
): Promise<Settled<T>> {
  const { accountId, requestId, reserve } = terms;
  const { keyId } = terms;
  const charged = await deps.credits.charge(accountId, reserve, {
    reason: terms.reason,
    reference: requestId,
    keyId,
  });
  // A shutdown that cuts this request waits for its refund before it closes the database.
  const settled = deps.pending.begin();
  let cost = 0;
  let balance = charged.balance;
  try {
    terms.onCharged?.({ balance: charged.balance });
    const done = await work();
    if (!Number.isSafeInteger(done.cost) || done.cost < 0 || done.cost > reserve) {
      throw new InternalError(`Charged work cost ${done.cost} credits, reserved ${reserve}`);
    }
    cost = done.cost;
    return done;
  } catch (err) {
    const se = toServiceError(err);
    if (se.billed) cost = Math.min(reserve, Math.max(0, terms.billedFailureCost ?? reserve));
    throw se;
  } finally {
    // Also on errors (target, worker, queue, provider, the wait): whatever was not used goes back.
    try {
      if (reserve > cost) {
        ({ balance } = await deps.credits.credit(accountId, reserve - cost, {
          reason: terms.refundReason,
          reference: requestId,
          // Back to the key's spend of the charge's day and month.
          keyId,
          at: charged.at,
        }));
      }
      if (terms.headers) setCreditHeaders(terms.headers, { used: cost, remaining: balance });
    } finally {
      settled();
    }
  }
}

/**
 * The shape of most interactive, billed requests (scrape, map, extract): `runChargedWork` settling
 * to the full cost when the job answers and to nothing when anything fails — the target, the
 * worker, the queue or the wait. The job is added under the request id with `deadlineAt` = the end
 * of our wait, which every worker enforces; when we stop waiting earlier or on time (timeout,
 * `signal` = the client went away, shutdown) the job is cancelled before the refund.
 *
 * The job goes to the workers beside the charge, not after it (the two are round trips to two
 * stores): held until the charge is in, or at once when this key's recent charges left a balance
 * that covers it (`balances`; charged-job-start.ts says how each ends). Either way the answer is
 * given only once the charge is in.
 */
export async function runChargedJob<N extends WaitedQueue>(
  deps: {
    credits: CreditsRepository;
    producer: QueueProducer;
    pending: PendingWork;
    secrets?: JobSecrets;
    /** Absent: every job waits for its charge (held). */
    balances?: BalanceHints;
  },
  a: {
    accountId: string;
    /** The caller's key (its budget); see ChargeTerms. */
    keyId?: string | undefined;
    requestId: string;
    /** Secret page options: sealed into the payload, their key dropped when the wait ends. */
    secrets?: PageSecrets | undefined;
    cost: number;
    /** What a billed failure keeps (default `cost`); see ChargeTerms. */
    billedFailureCost?: number;
    reason: LedgerReason;
    refundReason: LedgerReason;
    queue: N;
    payload: PayloadInputOf<N>;
    /** How long to wait for the worker's answer; also the job's deadline. */
    waitMs: number;
    /**
     * The HTTP response: when its client goes away first, the job is cancelled (callerGone); the
     * credit headers are set on it once settled.
     */
    caller?: CallerResponse | undefined;
    /** Filled in with when the job was enqueued and answered (the Server-Timing header). */
    clock?: JobClock;
    /** See ChargeTerms. */
    onCharged?: ChargeTerms['onCharged'];
  },
): Promise<ResultOf<N>> {
  if (a.clock) a.clock.billingStartedAt = performance.now();
  const { balances } = deps;
  const early = balances?.claim(a.accountId, a.keyId, a.cost) ?? false;
  const job = early ? startJob(deps, a) : holdJob(deps, a);
  let charged = false;
  try {
    const { value } = await runChargedWork(
      deps,
      {
        accountId: a.accountId,
        keyId: a.keyId,
        headers: headerTargetOf(a.caller),
        requestId: a.requestId,
        reserve: a.cost,
        reason: a.reason,
        refundReason: a.refundReason,
        ...(a.billedFailureCost !== undefined ? { billedFailureCost: a.billedFailureCost } : {}),
        onCharged: (c) => {
          charged = true;
          balances?.charged(a.accountId, a.keyId, c.balance, early ? a.cost : 0);
          a.onCharged?.(c);
        },
      },
      async () => {
        const value = await job.answer();
        if (a.clock) a.clock.answeredAt = Date.now();
        return { value, cost: a.cost };
      },
    );
    return value;
  } finally {
    // Not charged: refused (or the database failed), and this key waits for its charges again.
    if (!charged) balances?.refused(a.accountId, a.keyId);
    await job.end(charged);
  }
}
