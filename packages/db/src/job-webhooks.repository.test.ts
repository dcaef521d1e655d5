import { testCrawlOptions } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import { BatchesRepository } from './batches.repository';
import { CrawlRecoveryRepository } from './crawl-recovery.repository';
import { CrawlsRepository } from './crawls.repository';
import type { Db } from './db';
import type { JobWebhookConfig } from './job-webhook.types';
import { INTERRUPTED_JOB_DELIVERY, JobWebhooksRepository } from './job-webhooks.repository';
import { openTestDb } from './test-support/test-database';

// The job-webhook outbox: events written in the transaction of the state change they
// report, only those asked for, in order, and the dispatcher's claim / settle / log cycle.

let db: Db;
let accounts: AccountsRepository;
let crawls: CrawlsRepository;
let batches: BatchesRepository;
let webhooks: JobWebhooksRepository;
/** Every id the repositories told the notifier about. */
const notified: string[] = [];
const created: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  const onWebhookEvents = async (ids: string[]) => {
    notified.push(...ids);
    return true;
  };
  crawls = new CrawlsRepository(db, { onWebhookEvents });
  batches = new BatchesRepository(db, { onWebhookEvents });
  webhooks = new JobWebhooksRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  // Nothing left for a dispatcher sharing this database to send.
  await db.prisma.$executeRaw`
    UPDATE job_webhook_events SET state = 'failed' WHERE job_id = ANY(${created}::text[]::uuid[])`;
  await db.close();
});

const SITE = 'https://site.test';
/** Any claim older than this is an interrupted attempt (0: every unsettled claim). */
const CLAIM = { inFlightMs: 0 };
// A reserved name: should a dispatcher on this database ever pick one up, it fails at once.
const hook = (over: Partial<JobWebhookConfig> = {}): JobWebhookConfig => ({
  url: 'http://receiver.invalid/hook',
  headers: { authorization: 'Bearer receiver-token' },
  metadata: { project: 'p1' },
  events: ['started', 'page', 'completed', 'failed'],
  ...over,
});
const options = testCrawlOptions();
const doc = { markdown: '# Hi', metadata: { title: 'Hi', statusCode: 200, sourceURL: `${SITE}/a` } };

async function crawlWith(webhook: JobWebhookConfig | undefined, seeds: string[]) {
  const { accountId } = await accounts.create({ plan: 'free', credits: 100 });
  const { crawlId } = await crawls.create({
    accountId,
    url: `${SITE}/`,
    options,
    ...(webhook ? { webhook } : {}),
  });
  created.push(crawlId);
  const pages = await crawls.seed(crawlId, {
    robotsTxt: null,
    crawlDelayMs: null,
    pages: seeds.map((u) => ({ url: `${SITE}${u}`, key: `${SITE}${u}`, depth: 0 })),
  });
  return { accountId, crawlId, pages: pages ?? [] };
}

const types = async (accountId: string, jobId: string) =>
  (await webhooks.events(accountId, jobId)).map((e) => e.type);

/** Deliver every pending event of the job in the dispatcher's order (begin + finishAttempt). */
async function deliverAll(jobId: string): Promise<void> {
  for (let round = 0; round < 10; round += 1) {
    const pending = await db.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM job_webhook_events WHERE job_id = ${jobId}::uuid AND state = 'pending' ORDER BY seq`;
    if (pending.length === 0) return;
    for (const { id } of pending) {
      const b = await webhooks.begin(id, CLAIM);
      if (b.kind !== 'send') continue;
      await webhooks.finishAttempt({
        eventId: id,
        attempt: b.dispatch.attempt,
        statusCode: 200,
        durationMs: 3,
        error: null,
        outcome: 'delivered',
      });
    }
  }
  throw new Error('events still pending');
}

describe('job webhook outbox: crawls', () => {
  test('started, one page event per finished page (done or failed), completed; in order; notified', async () => {
    const { accountId, crawlId, pages } = await crawlWith(hook(), ['/a', '/b']);
    expect(await types(accountId, crawlId)).toEqual(['crawl.started']);
    const [a, b] = pages;
    const done = await crawls.completePage(crawlId, a!.pageId, {
      result: doc,
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links: [],
    });
    expect(done.outcome).toBe('done');
    // A repeated completion (a redelivered job) adds nothing.
    await crawls.completePage(crawlId, a!.pageId, {
      result: doc,
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links: [],
    });
    const failed = await crawls.failPage(crawlId, b!.pageId, {
      error: 'HTTP 404',
      code: 'TARGET_HTTP_ERROR',
      statusCode: 404,
    });
    expect(failed).toEqual({ applied: true, crawlFinished: true, promoted: [] });
    const events = await webhooks.events(accountId, crawlId);
    expect(events.map((e) => [e.type, e.pageId])).toEqual([
      ['crawl.started', null],
      ['crawl.page', a!.pageId],
      ['crawl.page', b!.pageId],
      ['crawl.completed', null],
    ]);
    expect(events.every((e) => notified.includes(e.eventId))).toBe(true);
    // Their jobs were added: the relay has nothing to add for them.
    const unenqueued = await webhooks.unenqueued(100_000);
    expect(events.filter((e) => unenqueued.includes(e.eventId))).toEqual([]);
    expect(await webhooks.holdsHeaders(crawlId)).toBe(true);
  });

  test('only the events asked for; a crawl without a webhook writes none', async () => {
    const onlyEnd = await crawlWith(hook({ events: ['completed', 'failed'] }), ['/a']);
    await crawls.completePage(onlyEnd.crawlId, onlyEnd.pages[0]!.pageId, {
      result: doc,
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links: [],
    });
    expect(await types(onlyEnd.accountId, onlyEnd.crawlId)).toEqual(['crawl.completed']);

    const none = await crawlWith(undefined, ['/a']);
    await crawls.completePage(none.crawlId, none.pages[0]!.pageId, {
      result: doc,
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links: [],
    });
    const rows = await db.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM job_webhook_events WHERE job_id = ${none.crawlId}::uuid`;
    expect(rows[0]?.n).toBe(0);
  });

  test('a cancel, a crawl whose only page failed and a timed-out crawl end with crawl.failed and the error', async () => {
    const c = await crawlWith(hook(), ['/a']);
    await crawls.cancel(c.accountId, c.crawlId);
    const cancelled = await db.prisma.$queryRaw<Array<{ event: string; error: string }>>`
      SELECT event, error FROM job_webhook_events WHERE job_id = ${c.crawlId}::uuid ORDER BY seq`;
    expect(cancelled).toEqual([
      { event: 'started', error: null },
      { event: 'failed', error: 'Cancelled by the caller' },
    ]);

    const f = await crawlWith(hook({ events: ['failed', 'completed'] }), ['/a']);
    await crawls.failPage(f.crawlId, f.pages[0]!.pageId, {
      error: 'refused',
      code: 'TARGET_UNREACHABLE',
      statusCode: null,
    });
    const nothing = await db.prisma.$queryRaw<Array<{ event: string; error: string }>>`
      SELECT event, error FROM job_webhook_events WHERE job_id = ${f.crawlId}::uuid ORDER BY seq`;
    expect(nothing).toEqual([
      { event: 'failed', error: 'The start page could not be crawled (TARGET_UNREACHABLE): refused' },
    ]);

    const t = await crawlWith(hook({ events: ['failed'] }), ['/a']);
    const recovery = new CrawlRecoveryRepository(db, {
      onWebhookEvents: async (ids) => {
        notified.push(...ids);
        return true;
      },
    });
    await db.prisma
      .$executeRaw`UPDATE crawls SET created_at = now() - interval '2 hours' WHERE id = ${t.crawlId}::uuid`;
    await recovery.failOverdueCrawls(60 * 60_000, 100);
    const timedOut = await webhooks.events(t.accountId, t.crawlId);
    expect(timedOut.map((e) => e.type)).toEqual(['crawl.failed']);
    expect(notified).toContain(timedOut[0]!.eventId);
  });
});

describe('job webhook outbox: batches', () => {
  test('started, a page event per item, completed; a cancel ends with batch_scrape.failed', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    const b = await batches.create({
      accountId,
      items: [{ url: `${SITE}/1` }, { url: `${SITE}/2` }],
      format: 'markdown',
      onlyMainContent: true,
      webhook: hook(),
    });
    created.push(b.batchId);
    await batches.completeItem(b.items[0]!.itemId, doc);
    await batches.failItem(b.items[1]!.itemId, { error: 'HTTP 500', code: 'TARGET_HTTP_ERROR' });
    const events = await webhooks.events(accountId, b.batchId);
    expect(events.map((e) => [e.type, e.pageId])).toEqual([
      ['batch_scrape.started', null],
      ['batch_scrape.page', b.items[0]!.itemId],
      ['batch_scrape.page', b.items[1]!.itemId],
      ['batch_scrape.completed', null],
    ]);

    const c = await batches.create({
      accountId,
      items: [{ url: `${SITE}/1` }, { url: `${SITE}/2` }],
      format: 'markdown',
      onlyMainContent: true,
      webhook: hook(),
    });
    created.push(c.batchId);
    await batches.completeItem(c.items[0]!.itemId, doc);
    // What DELETE /v1/batch/scrape/:id does to the unfinished items.
    await batches.failItem(c.items[1]!.itemId, { error: 'Cancelled by the caller', code: 'CANCELLED' });
    expect(await types(accountId, c.batchId)).toEqual([
      'batch_scrape.started',
      'batch_scrape.page',
      'batch_scrape.failed',
    ]);
  });
});

describe('JobWebhooksRepository: dispatch', () => {
  test('page events wait for started, the end waits for every page; attempts are logged once each', async () => {
    const { accountId, crawlId, pages } = await crawlWith(hook(), ['/a']);
    await crawls.completePage(crawlId, pages[0]!.pageId, {
      result: doc,
      statusCode: 200,
      finalKey: `${SITE}/a`,
      links: [],
    });
    const [started, page, completed] = await webhooks.events(accountId, crawlId);
    expect(await webhooks.begin(completed!.eventId, CLAIM)).toEqual({ kind: 'blocked' });
    expect(await webhooks.begin(page!.eventId, CLAIM)).toEqual({ kind: 'blocked' });

    const s = await webhooks.begin(started!.eventId, CLAIM);
    expect(s).toMatchObject({
      kind: 'send',
      dispatch: {
        kind: 'crawl',
        event: 'started',
        attempt: 1,
        metadata: { project: 'p1' },
        headers: { authorization: 'Bearer receiver-token' },
      },
    });
    // First attempt: the receiver answered 503, retry later.
    await webhooks.finishAttempt({
      eventId: started!.eventId,
      attempt: 1,
      statusCode: 503,
      durationMs: 5,
      error: 'Receiver answered HTTP 503',
      outcome: 'retry',
    });
    expect(await webhooks.begin(page!.eventId, CLAIM)).toEqual({ kind: 'blocked' });
    const again = await webhooks.begin(started!.eventId, CLAIM);
    expect(again).toMatchObject({ kind: 'send', dispatch: { attempt: 2 } });
    await webhooks.finishAttempt({
      eventId: started!.eventId,
      attempt: 2,
      statusCode: 200,
      durationMs: 4,
      error: null,
      outcome: 'delivered',
    });
    // A repeated settle (a re-run job) logs nothing twice and changes nothing.
    await webhooks.finishAttempt({
      eventId: started!.eventId,
      attempt: 2,
      statusCode: 500,
      durationMs: 4,
      error: 'late',
      outcome: 'failed',
    });
    expect(await webhooks.begin(started!.eventId, CLAIM)).toEqual({ kind: 'skip', reason: 'final' });

    const p = await webhooks.begin(page!.eventId, CLAIM);
    expect(p).toMatchObject({
      kind: 'send',
      dispatch: { event: 'page', page: { status: 'done', url: `${SITE}/a`, result: doc } },
    });
    expect(await webhooks.begin(completed!.eventId, CLAIM)).toEqual({ kind: 'blocked' });
    await webhooks.finishAttempt({
      eventId: page!.eventId,
      attempt: 1,
      statusCode: 404,
      durationMs: 2,
      error: 'Receiver answered HTTP 404',
      outcome: 'failed',
    });
    expect(await webhooks.holdsHeaders(crawlId)).toBe(true);
    await deliverAll(crawlId);
    // The last event of an ended job is settled: the caller's headers (secrets) are gone.
    expect(await webhooks.holdsHeaders(crawlId)).toBe(false);

    const log = await webhooks.deliveries(accountId, crawlId);
    expect(log.map((d) => [d.type, d.attempt, d.statusCode, d.error])).toEqual([
      ['crawl.started', 1, 503, 'Receiver answered HTTP 503'],
      ['crawl.started', 2, 200, null],
      ['crawl.page', 1, 404, 'Receiver answered HTTP 404'],
      ['crawl.completed', 1, 200, null],
    ]);
    const other = await accounts.create({ plan: 'free', credits: 0 });
    expect(await webhooks.deliveries(other.accountId, crawlId)).toEqual([]);
  });

  test('an attempt found still in flight was interrupted: logged as such, not sent again', async () => {
    const { accountId, crawlId } = await crawlWith(hook(), ['/a']);
    const [started] = await webhooks.events(accountId, crawlId);
    expect((await webhooks.begin(started!.eventId, CLAIM)).kind).toBe('send');
    // Another run while the attempt may still be in flight waits for it.
    expect(await webhooks.begin(started!.eventId, { inFlightMs: 60_000 })).toEqual({ kind: 'busy' });
    // The dispatcher died mid-POST; the job runs again once the attempt cannot be in flight any more.
    expect(await webhooks.begin(started!.eventId, CLAIM)).toEqual({ kind: 'interrupted', attempt: 1 });
    expect(await webhooks.begin(started!.eventId, CLAIM)).toEqual({ kind: 'skip', reason: 'final' });
    const log = await webhooks.deliveries(accountId, crawlId);
    expect(log).toEqual([
      expect.objectContaining({
        type: 'crawl.started',
        attempt: 1,
        statusCode: null,
        error: INTERRUPTED_JOB_DELIVERY,
      }),
    ]);
  });

  test('the relay sees events whose job could not be added until they are marked enqueued', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    // The notifier could not add the jobs (Redis down).
    const offline = new CrawlsRepository(db, { onWebhookEvents: async () => false });
    const { crawlId } = await offline.create({ accountId, url: `${SITE}/`, options, webhook: hook() });
    created.push(crawlId);
    const [started] = await webhooks.events(accountId, crawlId);
    expect(await webhooks.unenqueued(100_000)).toContain(started!.eventId);
    await webhooks.markEnqueued([started!.eventId]);
    expect(await webhooks.unenqueued(100_000)).not.toContain(started!.eventId);
    expect(await webhooks.stale(0, 100_000)).toContain(started!.eventId);
    expect(await webhooks.stale(60_000, 100_000)).not.toContain(started!.eventId);
  });
});
