/**
 * waitForJob when its look-up of an already-ended job fails (the queue's connection dropped, as in
 * a Redis failover between adding the job and that look-up): the wait still ends on its own
 * timeout as a TimeoutError, and the process sees no unhandled rejection. BullMQ's own
 * `waitUntilFinished` made that look-up in an async promise executor, so its error was unhandled,
 * which ends a Node 20 process (the gateway, mid-request).
 */
import { randomUUID } from 'node:crypto';
import { TimeoutError } from '@wcs/errors';
import { QueueProducer, waitForJob } from '@wcs/queues';
import { TEST_REDIS_URL } from './harness';

describe('waitForJob: a failed look-up', () => {
  it('ends at the wait’s own timeout, with no unhandled rejection', async () => {
    const producer = new QueueProducer(TEST_REDIS_URL, `t-${randomUUID().slice(0, 8)}`);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const job = await producer.enqueue('map', {
        requestId: 'r1',
        accountId: 'a',
        url: 'https://example.com/',
        maxUrls: 10,
        timeoutMs: 30_000,
      });
      const source = producer.waitSource('map');
      await source.events.waitUntilReady();
      // The look-up goes through the queue's connection (the producer's): gone, every command fails.
      producer.connection.disconnect();
      const outcome = await waitForJob(job, source, 500).catch((err: unknown) => err);
      expect(outcome).toBeInstanceOf(TimeoutError);
      // A rejection nobody handled is reported once the microtasks of its turn have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await producer.close();
    }
  });
});
