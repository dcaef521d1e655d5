import { TargetHttpError, TargetUnreachableError, TimeoutError } from '@wcs/errors';
import { deadlineError, MIN_ATTEMPT_MS, nextBackoffMs, retryOrRecord } from './job-budget';

/** A job as BullMQ describes it to a processor: attempts made so far, and its options. */
const job = (attemptsMade: number, attempts = 3) => ({
  attemptsMade,
  opts: { attempts, backoff: { type: 'exponential', delay: 1_000 } },
});

function ctx(deadlineAt: number | null, abortWith?: Error) {
  const controller = new AbortController();
  if (abortWith) controller.abort(abortWith);
  return { signal: controller.signal, deadlineAt };
}

const describeJob = (n: number) => `Page gave up after ${n} attempt(s)`;

describe('retryOrRecord: what a failed attempt of a retried job leads to', () => {
  const transient = new TargetUnreachableError('connection reset');

  it('retries a transient error while attempts are left and the next attempt fits the budget', () => {
    expect(retryOrRecord(transient, job(0), ctx(Date.now() + 60_000), describeJob)).toBe('retry');
    expect(retryOrRecord(transient, job(0), ctx(null), describeJob)).toBe('retry');
  });

  it('records the error on the last attempt, and a target error at once', () => {
    expect(retryOrRecord(transient, job(2), ctx(null), describeJob)).toBe(transient);
    const notFound = new TargetHttpError(404, 'Target answered 404');
    expect(retryOrRecord(notFound, job(0), ctx(null), describeJob)).toBe(notFound);
  });

  it('once the budget fired, a transient error becomes the deadline error (never a retry that cannot run)', () => {
    const startedAt = Date.now() - 5_000;
    const reason = deadlineError(Date.now(), startedAt);
    // The fetch's own timeout (retryable) lost the race with the budget's timer by a moment.
    const own = new TimeoutError('Fetch timed out');
    const out = retryOrRecord(own, job(1), ctx(Date.now(), reason), describeJob);
    expect(out).toBe(reason);
    expect(out !== 'retry' && out.retryable).toBe(false);
    // A target's own answer still wins over the deadline.
    const blocked = new TargetHttpError(404, 'Target answered 404');
    expect(retryOrRecord(blocked, job(1), ctx(Date.now(), reason), describeJob)).toBe(blocked);
  });

  it("gives up, keeping the last attempt's kind, when the next attempt would start with less than MIN_ATTEMPT_MS left", () => {
    // attempt 2 failed (attemptsMade 1): the next waits 2 s, the budget ends in 2.5 s.
    expect(nextBackoffMs(job(1))).toBe(2_000);
    const out = retryOrRecord(transient, job(1), ctx(Date.now() + 2_000 + MIN_ATTEMPT_MS / 2), describeJob);
    if (out === 'retry') throw new Error('expected the error to record');
    // The cause stays the kind (a refused connection is not a slow page); no retry follows it.
    expect(out).toBeInstanceOf(TargetUnreachableError);
    expect([out.code, out.status, out.retryable]).toEqual(['TARGET_UNREACHABLE', 502, false]);
    expect(out.message).toMatch(/^Page gave up after 2 attempt\(s\): its time budget.*\(connection reset\)$/);
    expect(transient.retryable).toBe(true); // the attempt's own error is not changed
  });
});
