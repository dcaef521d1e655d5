import { decodeError, InternalError, ServiceUnavailableError, TimeoutError } from '@wcs/errors';
import type { Job, QueueEvents } from 'bullmq';
import type { z } from 'zod';

/** The reason every pending wait fails with when its QueueProducer closes. */
export const QUEUE_CLOSED_MESSAGE = 'Job queue closed while waiting; retry';

/** Why a wait gave up on its own (the job itself may still be running). */
export type WaitStop = 'timeout' | 'disconnect' | 'shutdown';

export interface WaitOptions {
  /** The caller went away (client disconnected): stop waiting at once. */
  signal?: AbortSignal;
  /** Called once when the wait gives up while the job may still be queued or running. */
  onStop?: (why: WaitStop) => void;
}

/**
 * Wait for a job's return value. Failures come back as the ServiceError the worker threw;
 * running out of time is a TimeoutError (504), never an empty success. With a `result` schema
 * (the catalog's `jobResults`) the value is validated, not cast: a worker that answers outside
 * the contract is an InternalError whose details name the offending paths. When the wait itself
 * gives up (timeout, `signal`, the producer closing), `onStop` says why, so the job can be cancelled.
 */
export async function waitForJob<S extends z.ZodType>(
  job: Job,
  events: QueueEvents,
  timeoutMs: number,
  result: S,
  opts?: WaitOptions,
): Promise<z.output<S>>;
export async function waitForJob<R = unknown>(job: Job, events: QueueEvents, timeoutMs: number): Promise<R>;
export async function waitForJob(
  job: Job,
  events: QueueEvents,
  timeoutMs: number,
  result?: z.ZodType,
  opts: WaitOptions = {},
): Promise<unknown> {
  let value: unknown;
  const { signal } = opts;
  let onAbort: (() => void) | undefined;
  try {
    if (signal?.aborted) throw new CallerGone();
    // BullMQ's wait takes no signal: race it (its listeners go at its own timeout or the job's end).
    const finished = job.waitUntilFinished(events, timeoutMs);
    const gone = new Promise<never>((_, reject) => {
      onAbort = () => reject(new CallerGone());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    finished.catch(() => undefined);
    value = await Promise.race([finished, gone]);
  } catch (err) {
    if (err instanceof CallerGone) {
      opts.onStop?.('disconnect');
      throw new TimeoutError('The client closed the connection before the answer; job cancelled');
    }
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out before finishing/i.test(message)) {
      opts.onStop?.('timeout');
      throw new TimeoutError(`Job did not finish within ${timeoutMs} ms; retry`);
    }
    // QueueProducer.close() released the wait (shutdown).
    if (message === QUEUE_CLOSED_MESSAGE) {
      opts.onStop?.('shutdown');
      throw new ServiceUnavailableError('Shutting down; retry');
    }
    throw decodeError(message);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
  return result ? checkJobResult(result, value, `${job.queueName} job ${job.id ?? '?'}`) : value;
}

class CallerGone extends Error {}

/** `value` parsed by `schema`, or an InternalError naming where it breaks the contract. */
export function checkJobResult<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new InternalError(`${what} returned a result outside the contract`, { details: { issues } });
}
