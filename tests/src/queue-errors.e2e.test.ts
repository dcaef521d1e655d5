import { randomUUID } from 'node:crypto';
import { loadEnv } from '@wcs/config';
import { InternalError, RateLimitedError, ServiceError, TargetHttpError, TimeoutError } from '@wcs/errors';
import { type DefinedWorker, defineWorker, QueueProducer, waitForJob } from '@wcs/queues';
import { z } from 'zod';

/**
 * Errors keep their class across the queue: what a processor throws comes out of the gateway's
 * waitForJob as the same class (real Redis, real BullMQ; defineWorker encodes, waitForJob decodes).
 */
const { REDIS_URL } = loadEnv(z.object({ REDIS_URL: z.string().default('redis://127.0.0.1:6379') }));
const prefix = `queue-errors-${randomUUID().slice(0, 8)}`;
let producer: QueueProducer;
let worker: DefinedWorker;

/** What the processor throws, by the job's changeId. */
const throwers: Record<string, () => unknown> = {
  http: () => new TargetHttpError(404, undefined, { details: { url: 'https://example.com/x' } }),
  timeout: () => new TimeoutError('Render did not finish; retry'),
  limited: () => new RateLimitedError(9),
  unknown: () => new ServiceError('FROM_A_NEWER_WORKER', 409, 'new kind', { details: { a: 1 } }),
  plain: () => new Error('db hiccup'),
};

beforeAll(async () => {
  producer = new QueueProducer(REDIS_URL, prefix);
  worker = defineWorker(
    'webhook',
    async ({ changeId }) => {
      throw throwers[changeId]?.();
    },
    { redis: REDIS_URL, prefix, concurrency: 4, lockDurationMs: 30_000, stalledIntervalMs: 30_000 },
  );
  await worker.worker.waitUntilReady();
});
afterAll(async () => {
  await worker?.close();
  await producer?.close();
});

async function failureOf(changeId: string): Promise<unknown> {
  // attempts: 1, so retryable kinds (TimeoutError, plain errors) fail at once as well.
  const job = await producer.enqueue('webhook', { changeId }, { jobId: `${changeId}-${randomUUID()}` });
  return waitForJob(job, producer.waitSource('webhook'), 15_000).then(
    () => {
      throw new Error('the job succeeded');
    },
    (err: unknown) => err,
  );
}

describe('errors across the queue', () => {
  it('a TargetHttpError thrown by a processor is a TargetHttpError in the waiter', async () => {
    const err = await failureOf('http');
    expect(err).toBeInstanceOf(TargetHttpError);
    expect(err).toMatchObject({
      name: 'TargetHttpError',
      code: 'TARGET_HTTP_ERROR',
      status: 502,
      retryable: false,
      message: 'Target responded with HTTP 404',
      details: { statusCode: 404, url: 'https://example.com/x' },
    });
  });

  it('retryable kinds and kinds with derived fields keep their class too', async () => {
    const timeout = await failureOf('timeout');
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(timeout).toMatchObject({ code: 'TIMEOUT', status: 504, retryable: true });
    const limited = await failureOf('limited');
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterSeconds).toBe(9);
  });

  it('an unknown code stays a ServiceError with its code; a plain Error is INTERNAL', async () => {
    const unknown = await failureOf('unknown');
    expect(Object.getPrototypeOf(unknown)).toBe(ServiceError.prototype);
    expect(unknown).toMatchObject({ code: 'FROM_A_NEWER_WORKER', status: 409, details: { a: 1 } });
    const plain = await failureOf('plain');
    expect(plain).toBeInstanceOf(InternalError);
    expect(plain).toMatchObject({ code: 'INTERNAL', message: 'db hiccup' });
  });
});
