import { decodeError, ServiceUnavailableError, TimeoutError } from '@wcs/errors';
import type { Job, QueueEvents } from 'bullmq';

/** The reason every pending wait fails with when its QueueProducer closes. */
export const QUEUE_CLOSED_MESSAGE = 'Job queue closed while waiting; retry';

/**
 * Wait for a job's return value. Failures come back as the ServiceError the worker threw;
 * running out of time is a TimeoutError (504), never an empty success.
 */
export async function waitForJob<R>(job: Job, events: QueueEvents, timeoutMs: number): Promise<R> {
  try {
    return (await job.waitUntilFinished(events, timeoutMs)) as R;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out before finishing/i.test(message)) {
      throw new TimeoutError(`Job did not finish within ${timeoutMs} ms; retry`);
    }
    // QueueProducer.close() released the wait (shutdown).
    if (message === QUEUE_CLOSED_MESSAGE) throw new ServiceUnavailableError('Shutting down; retry');
    throw decodeError(message);
  }
}
