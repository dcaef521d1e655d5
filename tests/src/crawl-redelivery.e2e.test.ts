/**
 * A crawl-worker killed after a page's commit but before the pages it found were claimed and their
 * jobs added leaves their rows queued without a job. The page's job comes back (BullMQ: stalledCounter > 0);
 * its row is done, so it does no work, but it adds the missing jobs. Without that the crawl waits
 * for the reconciler (CRAWL_RECONCILE_MIN_AGE_MS, 30 s by default); crawl-recovery kills a real
 * worker at a random moment, this pins the moment down.
 */

import { randomUUID } from 'node:crypto';
import { CrawlContexts, crawlPageProcessor, HostSlots, RobotsCache } from '@wcs/crawl-worker';
import { AccountsRepository, CrawlsRepository, CrawlWindowRepository, createDb } from '@wcs/db';
import { createLogger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { createRedisConnection, type Job, QueueProducer } from '@wcs/queues';
import { createRenderer } from '@wcs/renderer';
import { ContentPool } from '@wcs/scraper';
import { testCrawlOptions } from '@wcs/testing';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

const SITE = 'https://site.test';

it('a redelivered job of a finished page adds the jobs its dead worker did not; a first delivery adds none', async () => {
  const db = createDb(TEST_DATABASE_URL);
  const prefix = `t-${randomUUID().slice(0, 8)}`;
  const producer = new QueueProducer(TEST_REDIS_URL, prefix);
  const redis = createRedisConnection(TEST_REDIS_URL, 'worker');
  const dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 1_000 });
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 1_000, taskTimeoutMs: 20_000, heapMb: 256 });
  const renderer = createRenderer({
    allowPrivateTargets: true,
    fetchTimeoutMs: 1_000,
    connectTimeoutMs: 1_000,
    maxBodyBytes: 1 << 20,
    maxRedirects: 5,
    userAgent: 'wcs-test',
    browser: { enabled: false, executablePath: '/usr/bin/chromium', maxPages: 1 },
  });
  const crawls = new CrawlsRepository(db);
  let crawlId = '';
  try {
    const { accountId } = await new AccountsRepository(db).create({ plan: 'free', credits: 10 });
    ({ crawlId } = await crawls.create({
      accountId,
      url: `${SITE}/`,
      options: testCrawlOptions({ maxPages: 10, maxDepth: 3 }),
    }));
    const [start] =
      (await crawls.seed(crawlId, {
        robotsTxt: null,
        crawlDelayMs: null,
        pages: [{ url: `${SITE}/a`, key: `${SITE}/a`, depth: 1 }],
      })) ?? [];
    if (!start) throw new Error('no seeded page');
    // What the dead worker did: started the page and committed it with two new links, no jobs.
    await crawls.startPage(start.pageId);
    const links = ['/b', '/c'].map((p) => ({ url: `${SITE}${p}`, key: `${SITE}${p}`, depth: 2 }));
    const done = await crawls.completePage(crawlId, start.pageId, {
      result: { markdown: 'a' },
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links,
    });
    expect(done.outcome).toBe('done');

    const process = crawlPageProcessor(
      {
        crawls,
        producer,
        renderer,
        pool,
        slots: new HostSlots(redis, prefix, 2),
        contexts: new CrawlContexts({
          robots: new RobotsCache({ dispatcher, userAgent: 'wcs-test', timeoutMs: 1_000 }),
        }),
        queueWindow: { window: new CrawlWindowRepository(db), producer, size: 10 },
        logger: createLogger({ service: 'test', level: 'silent' }),
      },
      { pageTimeoutMs: 1_000, maxStarts: 3, maxLinksPerPage: 10 },
    );
    const ctx = { signal: new AbortController().signal, deadlineAt: null, confirmLock: async () => {} };
    const delivery = (stalledCounter: number) => ({ stalledCounter }) as unknown as Job;
    const queue = producer.queue('crawl-page');
    const jobIds = async () =>
      (await queue.getJobs(['wait', 'prioritized', 'delayed'])).map((j) => j.id).sort();
    const queued = (await crawls.queuedPages(crawlId)).map((p) => p.pageId).sort();
    expect(queued).toHaveLength(2);

    // A first delivery of a finished page (a duplicate add) does no work and adds nothing.
    const payload = { crawlId, pageId: start.pageId };
    expect(await process(payload, delivery(0), ctx)).toEqual({ pageId: start.pageId, status: 'skipped' });
    expect(await jobIds()).toEqual([]);

    // The redelivery adds a job per queued row, under the row's id; a second one adds no duplicate.
    expect(await process(payload, delivery(1), ctx)).toEqual({ pageId: start.pageId, status: 'skipped' });
    expect(await jobIds()).toEqual(queued);
    await process(payload, delivery(2), ctx);
    expect(await jobIds()).toEqual(queued);
  } finally {
    if (crawlId) await crawls.stop(crawlId, 'cancelled', 'test over');
    await producer.queue('crawl-page').obliterate({ force: true });
    await producer.close();
    redis.disconnect();
    await renderer.close();
    await pool.close();
    await dispatcher.close();
    await db.close();
  }
});
