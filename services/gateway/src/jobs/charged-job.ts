import type { LedgerReason } from '@wcs/db';
import { toServiceError } from '@wcs/errors';
import { type PayloadInputOf, type QueueName, waitForJob } from '@wcs/queues';
import type { GatewayDeps } from '../deps';

/**
 * The shape of every interactive, billed request: charge up front (idempotent per request id),
 * enqueue the job under that id, wait for its return value, and refund the charge if anything
 * fails — the target, the worker, the queue or the wait — so callers never pay for a failure.
 */
export async function runChargedJob<N extends QueueName, R>(
  deps: Pick<GatewayDeps, 'credits' | 'producer' | 'pending'>,
  a: {
    accountId: string;
    requestId: string;
    cost: number;
    reason: LedgerReason;
    refundReason: LedgerReason;
    queue: N;
    payload: PayloadInputOf<N>;
    /** How long to wait for the worker's answer. */
    waitMs: number;
  },
): Promise<R> {
  await deps.credits.charge(a.accountId, a.cost, { reason: a.reason, reference: a.requestId });
  // A shutdown that cuts this request waits for its refund before it closes the database.
  const settled = deps.pending.begin();
  try {
    const job = await deps.producer.enqueue(a.queue, a.payload, { jobId: a.requestId });
    return await waitForJob<R>(job, deps.producer.queueEvents(a.queue), a.waitMs);
  } catch (err) {
    await deps.credits.credit(a.accountId, a.cost, { reason: a.refundReason, reference: a.requestId });
    throw toServiceError(err);
  } finally {
    settled();
  }
}
