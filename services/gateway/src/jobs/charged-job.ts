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
import { type CallerResponse, callerGone } from './caller-gone';
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

/** The sealed secrets' key outlives the wait by this much at most (the gateway drops it at once). */
const SECRET_TTL_MARGIN_MS = 5_000;
/** A held job that nobody released surfaces this long after its deadline (already passed then). */
const STAGED_HOLD_MARGIN_MS = 1_000;

/**
 * The shape of most interactive, billed requests (scrape, map, extract): `runChargedWork` settling
 * to the full cost when the job answers and to nothing when anything fails — the target, the
 * worker, the queue or the wait. The job is added under the request id with `deadlineAt` = the end
 * of our wait, which every worker enforces; when we stop waiting earlier or on time (timeout,
 * `signal` = the client went away, shutdown) the job is cancelled before the refund.
 *
 * The job is added while the credits are reserved, held back from the workers (QueueProducer.stage)
 * and released once the charge is in: the charge and the add are two round trips to two stores
 * that used to run one after the other (a `/v1/scrape` paid both in full). A refused charge removes
 * the held job, so nothing runs unpaid; a held job that outlives its gateway surfaces only past its
 * deadline, and no worker runs it then.
 */
export async function runChargedJob<N extends WaitedQueue>(
  deps: { credits: CreditsRepository; producer: QueueProducer; pending: PendingWork; secrets?: JobSecrets },
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
  const staged = stageJob(deps, a);
  // Awaited by the work, or below when the work never starts (a refused charge).
  staged.catch(() => undefined);
  let released = false;
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
        onCharged: a.onCharged,
      },
      async () => {
        // A failed add or release is the queue's error: refunded like any other.
        const { job } = await staged;
        if (a.clock) {
          a.clock.enqueuedAt = Date.now();
          if (a.clock.billingStartedAt !== undefined)
            a.clock.billingMs = performance.now() - a.clock.billingStartedAt;
        }
        // Released once the wait listens for its end; validated against the document contract,
        // not cast: a result outside it is INTERNAL.
        const value = await deps.producer.waitFor(a.queue, job, a.waitMs, {
          ...(a.caller ? { signal: callerGone(a.caller) } : {}),
          release: async () => {
            await deps.producer.release(job);
            released = true;
          },
        });
        if (a.clock) a.clock.answeredAt = Date.now();
        return { value, cost: a.cost };
      },
    );
    return value;
  } finally {
    const held = await staged.catch(() => undefined);
    if (held && !released) await deps.producer.discard(a.queue, a.requestId);
    if (held?.sealed) await deps.secrets?.drop(held.sealed.id).catch(() => undefined);
  }
}

/** The job added and held (its secrets sealed first), with its deadline set from now. */
async function stageJob<N extends WaitedQueue>(
  deps: { producer: QueueProducer; secrets?: JobSecrets },
  a: {
    requestId: string;
    secrets?: PageSecrets | undefined;
    queue: N;
    payload: PayloadInputOf<N>;
    waitMs: number;
  },
) {
  if (a.secrets && !deps.secrets)
    throw new InternalError('runChargedJob: secrets given without a JobSecrets store');
  const sealed = a.secrets
    ? await deps.secrets?.seal(a.requestId, a.secrets, a.waitMs + SECRET_TTL_MARGIN_MS)
    : undefined;
  try {
    const payload = {
      ...a.payload,
      deadlineAt: Date.now() + a.waitMs,
      ...(sealed ? { secrets: sealed } : {}),
    };
    const job = await deps.producer.stage(a.queue, payload, {
      jobId: a.requestId,
      holdMs: a.waitMs + STAGED_HOLD_MARGIN_MS,
    });
    return { job, sealed };
  } catch (err) {
    if (sealed) await deps.secrets?.drop(sealed.id).catch(() => undefined);
    throw err;
  }
}
