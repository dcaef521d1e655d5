import { notRetryable, type ServiceError, TimeoutError, toServiceError } from '@wcs/errors';
import type { Job } from 'bullmq';
import { z } from 'zod';

/**
 * What bounds a job's total time, retries included. Two sources, the earlier wins:
 * - `deadlineAt` (epoch ms) in the payload, set by the producer: an interactive job's caller stops
 *   waiting then, so nothing after it is of use to anyone;
 * - a worker-side budget (`budgetMs` of `defineWorker`) counted from the start of the first
 *   attempt that failed and was retried (`budgetStartedAt`, written into the job's data before
 *   the retry), so every attempt of a job shares one budget. An attempt that ends by moving the
 *   job to the delayed set (a crawl page waiting for its politeness slot) starts no clock.
 */
export const jobClock = z.object({
  deadlineAt: z.number().int().positive().optional(),
  budgetStartedAt: z.number().int().positive().optional(),
});
export type JobClock = z.infer<typeof jobClock>;

/** Payload field of the interactive queues (scrape, map, extract). */
export const deadlineAtField = z.number().int().positive().optional();
/** Payload field of the retried queues (written by the worker, kept by re-enqueues). */
export const budgetStartedAtField = z.number().int().positive().optional();

/** A retried queue's budget, as a multiple of one attempt's timeout (documented in job-budgets.md). */
export const RETRY_BUDGET_FACTOR = 2;

/** The absolute deadline of the attempt starting at `attemptStartedAt`, or null when unbounded. */
export function jobDeadline(clock: JobClock, attemptStartedAt: number, budgetMs?: number): number | null {
  const fromBudget = budgetMs === undefined ? null : (clock.budgetStartedAt ?? attemptStartedAt) + budgetMs;
  const fromPayload = clock.deadlineAt ?? null;
  if (fromBudget === null) return fromPayload;
  if (fromPayload === null) return fromBudget;
  return Math.min(fromBudget, fromPayload);
}

/**
 * A TimeoutError (same kind, 504) marked not retryable: once a job's budget is spent or it was
 * cancelled, another attempt cannot help, and processors that retry retryable errors (crawl pages,
 * batch items) record the failure instead.
 */
export function finalTimeout(message: string): TimeoutError {
  return notRetryable(new TimeoutError(message));
}

/** The abort reason when a job's deadline passes. */
export function deadlineError(deadlineAt: number, startedAt: number): TimeoutError {
  return finalTimeout(
    `Job ran out of its time budget (deadline ${new Date(deadlineAt).toISOString()}, ` +
      `this attempt started ${Math.max(0, deadlineAt - startedAt)} ms before it); not retried`,
  );
}

/** What every processor receives besides its payload and job. */
export interface JobContext {
  /**
   * Aborted when the job's deadline passes or the job is cancelled (by the gateway, or by
   * `worker.cancelJob`); its `reason` is a ServiceError. Pass it to every fetch/render.
   */
  signal: AbortSignal;
  /** Absolute deadline (epoch ms), or null for a job without one. */
  deadlineAt: number | null;
  /**
   * Resolves while this worker holds the job's lock; throws JobLockLostError (job-lock.ts) once
   * another worker may run it. Await it right before a step that must not run twice (a fetch), and
   * let that error through untouched: the job is no longer this worker's to record anything for.
   */
  confirmLock(): Promise<void>;
}

/** Time left before `deadlineAt` (Infinity without one), never below 0. */
export function remainingMs(ctx: Pick<JobContext, 'deadlineAt'>, now = Date.now()): number {
  return ctx.deadlineAt === null ? Number.POSITIVE_INFINITY : Math.max(0, ctx.deadlineAt - now);
}

/** A retry with less of the budget than this left when it would start is not started. */
export const MIN_ATTEMPT_MS = 1_000;

/** BullMQ's wait before the next attempt (fixed, or exponential: delay × 2^(attempts made)). */
export function nextBackoffMs(job: Pick<Job, 'opts' | 'attemptsMade'>): number {
  const b = job.opts.backoff;
  if (b === undefined) return 0;
  if (typeof b === 'number') return b;
  const delay = b.delay ?? 0;
  return b.type === 'exponential' ? delay * 2 ** job.attemptsMade : delay;
}

/**
 * After a failed attempt of a retried job (batch item, crawl page): 'retry' when the error is
 * transient, attempts are left and the next attempt would start with at least MIN_ATTEMPT_MS of
 * the budget; otherwise the error to record (when only the budget stopped the retries, the last
 * attempt's error, not retryable). Once the job's signal has fired (budget spent, cancel)
 * a transient error becomes the signal's reason: a retry could not run, and rethrowing a
 * "retryable" error then would fail the job in the queue without the failure being recorded.
 */
export function retryOrRecord(
  err: ServiceError,
  job: Pick<Job, 'opts' | 'attemptsMade'>,
  ctx: Pick<JobContext, 'signal' | 'deadlineAt'>,
  describe: (attempts: number) => string,
): ServiceError | 'retry' {
  // A target's own answer (404, blocked, not HTML) is the outcome, even when it came at the deadline.
  if (!err.retryable && err.code !== 'INTERNAL') return err;
  if (ctx.signal.aborted) return toServiceError(ctx.signal.reason);
  if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) return err;
  if (remainingMs(ctx, Date.now() + nextBackoffMs(job)) < MIN_ATTEMPT_MS) {
    // The kind stays the cause's: a target that refused every connection is TARGET_UNREACHABLE
    // whether its attempts or its budget ran out first (a TIMEOUT would send the user after a
    // slow page that does not exist).
    return notRetryable(
      err,
      `${describe(job.attemptsMade + 1)}: its time budget across retries would run out before the next attempt (${err.message})`,
    );
  }
  return 'retry';
}
