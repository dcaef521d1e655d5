import { decodeError, InternalError, ServiceUnavailableError, TimeoutError } from '@wcs/errors';
import type { Job, QueueEvents } from 'bullmq';
import type { z } from 'zod';

/** The reason every pending wait fails with when its QueueProducer closes. */
export const QUEUE_CLOSED_MESSAGE = 'Job queue closed while waiting; retry';

/**
 * Wait for a job's return value. Failures come back as the ServiceError the worker threw;
 * running out of time is a TimeoutError (504), never an empty success. With a `result` schema
 * (the catalog's `jobResults`) the value is validated, not cast: a worker that answers outside
 * the contract is an InternalError whose details name the offending paths.
 */
export async function waitForJob<S extends z.ZodType>(
  job: Job,
  events: QueueEvents,
  timeoutMs: number,
  result: S,
): Promise<z.output<S>>;
export async function waitForJob<R = unknown>(job: Job, events: QueueEvents, timeoutMs: number): Promise<R>;
export async function waitForJob(
  job: Job,
  events: QueueEvents,
  timeoutMs: number,
  result?: z.ZodType,
): Promise<unknown> {
  let value: unknown;
  try {
    value = await job.waitUntilFinished(events, timeoutMs);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out before finishing/i.test(message)) {
      throw new TimeoutError(`Job did not finish within ${timeoutMs} ms; retry`);
    }
    // QueueProducer.close() released the wait (shutdown).
    if (message === QUEUE_CLOSED_MESSAGE) throw new ServiceUnavailableError('Shutting down; retry');
    throw decodeError(message);
  }
  return result ? checkJobResult(result, value, `${job.queueName} job ${job.id ?? '?'}`) : value;
}

/** `value` parsed by `schema`, or an InternalError naming where it breaks the contract. */
export function checkJobResult<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new InternalError(`${what} returned a result outside the contract`, { details: { issues } });
}
