/**
 * The answer channel of the waited queues (job-answers.ts), against the real Redis: a worker pushes
 * a job's return value to the gateways as soon as its processor returns, a producer's wait takes
 * it from there, and the queue's events stay the record (large answers, lost messages).
 */
import { randomUUID } from 'node:crypto';
import {
  ANSWER_MAX_CHARS,
  answerChannel,
  createRedisConnection,
  type DefinedWorker,
  defineWorker,
  QueueProducer,
  type ScrapeJobResult,
} from '@wcs/queues';
import { pollUntil, TEST_REDIS_URL } from './harness';

const scrapePayload = (requestId: string, url = 'https://example.com/') => ({
  requestId,
  accountId: 'a',
  url,
  format: 'markdown' as const,
  onlyMainContent: true,
  timeoutMs: 60_000,
});

function result(requestId: string, markdown = `# ${requestId}`): ScrapeJobResult {
  return {
    data: {
      markdown,
      metadata: { title: requestId, statusCode: 200, sourceURL: 'https://example.com/', language: null },
    },
    engine: 'fetch',
    elapsedMs: 1,
  };
}

describe('answers of waited jobs', () => {
  const prefix = `t-${randomUUID().slice(0, 8)}`;
  const producer = new QueueProducer(TEST_REDIS_URL, prefix);
  const listener = createRedisConnection(TEST_REDIS_URL, 'worker');
  /** What was published on the scrape queue's answer channel, by job id. */
  const heard = new Map<string, unknown>();
  let worker: DefinedWorker | undefined;

  beforeAll(async () => {
    listener.on('message', (_channel: string, raw: string) => {
      // The last test publishes malformed messages of its own.
      if (!raw.startsWith('{"jobId"')) return;
      const msg = JSON.parse(raw) as { jobId: string; returnvalue: unknown };
      heard.set(msg.jobId, msg.returnvalue);
    });
    await listener.subscribe(answerChannel(producer.prefix, 'scrape'));
  });
  afterAll(async () => {
    await worker?.close();
    await producer.close();
    listener.disconnect();
  });

  it("a worker pushes the processor's value; the wait answers with it", async () => {
    // Markdown of the requested size: /big answers past the channel's cap.
    worker = defineWorker(
      'scrape',
      async (p) => result(p.requestId, p.url.endsWith('/big') ? 'x'.repeat(ANSWER_MAX_CHARS) : undefined),
      { redis: TEST_REDIS_URL, prefix, concurrency: 2, lockDurationMs: 30_000, stalledIntervalMs: 15_000 },
    );
    await worker.worker.waitUntilReady();
    const id = randomUUID();
    await expect(
      producer.addAndWait('scrape', scrapePayload(id), { jobId: id, timeoutMs: 20_000 }),
    ).resolves.toEqual(result(id));
    // Published once to every subscriber: this listener hears it on its own connection.
    await expect(pollUntil(async () => heard.get(id), 10_000, 10)).resolves.toEqual(result(id));
  });

  it('an answer past the cap is not pushed: the queue events carry it', async () => {
    const id = randomUUID();
    const big = result(id, 'x'.repeat(ANSWER_MAX_CHARS));
    await expect(
      producer.addAndWait('scrape', scrapePayload(id, 'https://example.com/big'), {
        jobId: id,
        timeoutMs: 20_000,
      }),
    ).resolves.toEqual(big);
    // A later job's answer, published after it on the same connection, is heard: the big one never was.
    const next = randomUUID();
    await producer.addAndWait('scrape', scrapePayload(next), { jobId: next, timeoutMs: 20_000 });
    await pollUntil(async () => heard.get(next), 10_000, 10);
    expect(heard.has(id)).toBe(false);
  });

  it('the wait takes a pushed answer alone (a job no worker has finished), ignoring malformed ones', async () => {
    await worker?.close();
    worker = undefined;
    const id = randomUUID();
    const publisher = createRedisConnection(TEST_REDIS_URL, 'worker');
    try {
      const waiting = producer.addAndWait('scrape', scrapePayload(id), { jobId: id, timeoutMs: 20_000 });
      await pollUntil(async () => (await producer.queue('scrape').getJob(id)) ?? undefined, 10_000, 10);
      const channel = answerChannel(producer.prefix, 'scrape');
      await publisher.publish(channel, 'not json');
      await publisher.publish(channel, JSON.stringify({ id, value: 1 }));
      await publisher.publish(channel, JSON.stringify({ jobId: id, returnvalue: result(id, 'pushed') }));
      await expect(waiting).resolves.toEqual(result(id, 'pushed'));
      // The queue still holds the job: nothing but the channel answered.
      expect(await producer.queue('scrape').getJobState(id)).toBe('waiting');
    } finally {
      await producer.queue('scrape').remove(id);
      publisher.disconnect();
    }
  });
});
