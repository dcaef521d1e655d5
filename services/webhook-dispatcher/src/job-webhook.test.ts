import http from 'node:http';
import { rawEnv } from '@wcs/config';
import {
  AccountsRepository,
  BatchesRepository,
  CrawlsRepository,
  createDb,
  type Db,
  type JobWebhookConfig,
  JobWebhooksRepository,
  WebhookDeliveriesRepository,
} from '@wcs/db';
import { createLogger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { jobWebhookBody as bodySchema } from '@wcs/queues';
import { type ListeningServer, listenLocal, testCrawlOptions } from '@wcs/testing';
import { deliverJobWebhook, type JobWebhookDeps, type JobWebhookOptions } from './job-webhook.processor';
import { verifySignature } from './webhook-signature';

// One attempt of a job-webhook event against a local receiver, on the real database.

interface Received {
  path: string;
  raw: string;
  headers: http.IncomingHttpHeaders;
}

let db: Db;
let receiver: ListeningServer;
const received: Received[] = [];
let deps: JobWebhookDeps;
let accounts: AccountsRepository;
let crawls: CrawlsRepository;
let batches: BatchesRepository;
let webhooks: JobWebhooksRepository;
let deliveries: WebhookDeliveriesRepository;
const dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
const opts: JobWebhookOptions = {
  timeoutMs: 3_000,
  allowPrivateTargets: true,
  userAgent: 'wcs-test',
  maxAttempts: 2,
  retryDelayMs: 100,
};
const crawlIds: string[] = [];

beforeAll(async () => {
  db = createDb(rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        raw: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      const status = Number(/^\/status\/(\d+)/.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(status).end('ok');
    });
  });
  receiver = await listenLocal(server);
  accounts = new AccountsRepository(db);
  crawls = new CrawlsRepository(db);
  batches = new BatchesRepository(db);
  webhooks = new JobWebhooksRepository(db);
  deliveries = new WebhookDeliveriesRepository(db);
  deps = {
    webhooks,
    secret: (accountId) => deliveries.webhookSecret(accountId),
    dispatcher,
    logger: createLogger({ service: 'test', level: 'silent' }),
  };
});
afterAll(async () => {
  for (const id of crawlIds) await crawls.stop(id, 'cancelled', 'test over');
  await receiver.close();
  await dispatcher.close();
  await db.close();
});

const options = testCrawlOptions({ maxDepth: 1 });
const doc = {
  markdown: '# Hello',
  metadata: {
    title: 'Hello',
    statusCode: 200,
    sourceURL: 'https://site.test/a',
    finalUrl: 'https://site.test/a/',
  },
};

/** A crawl with a webhook and its events' ids in order (marked enqueued: no relay takes them). */
async function hookedCrawl(path: string, over: Partial<JobWebhookConfig> = {}) {
  const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
  const { crawlId } = await crawls.create({
    accountId,
    url: 'https://site.test/',
    options,
    webhook: {
      url: `${receiver.url}${path}`,
      headers: { 'X-Receiver-Token': 'tok-123', 'Content-Type': 'text/plain' },
      metadata: { run: 7, tags: ['a'] },
      events: ['started', 'page', 'completed', 'failed'],
      ...over,
    },
  });
  crawlIds.push(crawlId);
  const pages =
    (await crawls.seed(crawlId, {
      robotsTxt: null,
      crawlDelayMs: null,
      pages: [{ url: 'https://site.test/a', key: 'https://site.test/a', depth: 0 }],
    })) ?? [];
  const ids = async () => {
    const events = await webhooks.events(accountId, crawlId);
    await webhooks.markEnqueued(events.map((e) => e.eventId));
    return events;
  };
  await ids();
  return { accountId, crawlId, pageId: pages[0]!.pageId, ids };
}

const at = (path: string) => received.filter((r) => r.path === path);

test('started and page: Firecrawl body, metadata echoed, caller header, signature with the account secret', async () => {
  const c = await hookedCrawl('/ok');
  await crawls.completePage(c.crawlId, c.pageId, {
    result: doc,
    statusCode: 200,
    finalKey: 'https://site.test/a/',
    links: [],
  });
  const [started, page, completed] = await c.ids();
  // The end waits for the page event, the page event for `started`.
  expect(await deliverJobWebhook(deps, opts, completed!.eventId)).toMatchObject({
    sent: false,
    reason: 'blocked',
  });
  expect(await deliverJobWebhook(deps, opts, page!.eventId)).toMatchObject({
    sent: false,
    reason: 'blocked',
  });
  expect(await deliverJobWebhook(deps, opts, started!.eventId)).toMatchObject({
    sent: true,
    outcome: 'delivered',
    statusCode: 200,
  });
  expect(await deliverJobWebhook(deps, opts, page!.eventId)).toMatchObject({ outcome: 'delivered' });
  expect(await deliverJobWebhook(deps, opts, completed!.eventId)).toMatchObject({ outcome: 'delivered' });
  // A re-run job sends nothing again.
  expect(await deliverJobWebhook(deps, opts, page!.eventId)).toEqual({ sent: false, reason: 'final' });

  const got = at('/ok').filter((r) => JSON.parse(r.raw).id === c.crawlId);
  const bodies = got.map((r) => bodySchema.parse(JSON.parse(r.raw)));
  expect(bodies.map((b) => [b.type, b.success])).toEqual([
    ['crawl.started', true],
    ['crawl.page', true],
    ['crawl.completed', true],
  ]);
  expect(bodies.every((b) => JSON.stringify(b.metadata) === JSON.stringify({ run: 7, tags: ['a'] }))).toBe(
    true,
  );
  expect(bodies[0]!.data).toEqual([]);
  expect(bodies[1]!.data).toEqual([
    {
      markdown: '# Hello',
      metadata: {
        title: 'Hello',
        statusCode: 200,
        sourceURL: 'https://site.test/a',
        finalUrl: 'https://site.test/a/',
        url: 'https://site.test/a/',
      },
    },
  ]);
  const secret = await deliveries.webhookSecret(c.accountId);
  for (const r of got) {
    expect(verifySignature(secret, r.raw, String(r.headers['x-firecrawl-signature']))).toBe(true);
    expect(r.headers['x-receiver-token']).toBe('tok-123');
    // The caller cannot replace the body's type.
    expect(r.headers['content-type']).toBe('application/json');
  }
  const log = await webhooks.deliveries(c.accountId, c.crawlId);
  expect(log.map((d) => [d.type, d.attempt, d.statusCode, d.error])).toEqual([
    ['crawl.started', 1, 200, null],
    ['crawl.page', 1, 200, null],
    ['crawl.completed', 1, 200, null],
  ]);
  expect(await webhooks.holdsHeaders(c.crawlId)).toBe(false);
});

test('a receiver answering 503 is tried up to the cap, each attempt logged; a 404 is not retried', async () => {
  const c = await hookedCrawl('/status/503', { events: ['started'] });
  const [started] = await c.ids();
  const first = await deliverJobWebhook(deps, opts, started!.eventId);
  expect(first).toEqual({
    sent: true,
    attempt: 1,
    statusCode: 503,
    error: 'Receiver answered HTTP 503',
    outcome: 'retry',
    delayMs: 100,
  });
  expect(await deliverJobWebhook(deps, opts, started!.eventId)).toMatchObject({
    attempt: 2,
    outcome: 'failed',
  });
  expect(await deliverJobWebhook(deps, opts, started!.eventId)).toEqual({ sent: false, reason: 'final' });
  expect(at('/status/503').filter((r) => JSON.parse(r.raw).id === c.crawlId)).toHaveLength(2);
  expect((await webhooks.deliveries(c.accountId, c.crawlId)).map((d) => [d.attempt, d.statusCode])).toEqual([
    [1, 503],
    [2, 503],
  ]);

  const n = await hookedCrawl('/status/404', { events: ['started'] });
  const [s404] = await n.ids();
  expect(await deliverJobWebhook(deps, opts, s404!.eventId)).toMatchObject({ attempt: 1, outcome: 'failed' });
  expect(at('/status/404').filter((r) => JSON.parse(r.raw).id === n.crawlId)).toHaveLength(1);
});

test('a private receiver is refused without ALLOW_PRIVATE_TARGETS: logged, never sent, not retried', async () => {
  const c = await hookedCrawl('/private', { events: ['started'] });
  const [started] = await c.ids();
  const r = await deliverJobWebhook(deps, { ...opts, allowPrivateTargets: false }, started!.eventId);
  expect(r).toMatchObject({ sent: true, statusCode: null, outcome: 'failed' });
  expect(at('/private')).toHaveLength(0);
  const log = await webhooks.deliveries(c.accountId, c.crawlId);
  expect(log).toHaveLength(1);
  expect(log[0]?.error).toMatch(/private|forbidden|not allowed|blocked/i);
});

test('a failed page and a cancelled crawl: success false with the error', async () => {
  const c = await hookedCrawl('/fail-page');
  await crawls.failPage(c.crawlId, c.pageId, {
    error: 'HTTP 404 Not Found',
    code: 'TARGET_HTTP_ERROR',
    statusCode: 404,
  });
  for (const e of await c.ids()) await deliverJobWebhook(deps, opts, e.eventId);
  const bodies = at('/fail-page')
    .map((r) => bodySchema.parse(JSON.parse(r.raw)))
    .filter((b) => b.id === c.crawlId);
  expect(bodies.map((b) => [b.type, b.success, b.error])).toEqual([
    ['crawl.started', true, undefined],
    ['crawl.page', false, 'HTTP 404 Not Found'],
    ['crawl.failed', false, 'The start page could not be crawled (TARGET_HTTP_ERROR): HTTP 404 Not Found'],
  ]);
  expect(bodies[1]!.data).toEqual([
    {
      metadata: {
        url: 'https://site.test/a',
        sourceURL: 'https://site.test/a',
        statusCode: 404,
        error: 'HTTP 404 Not Found',
        errorCode: 'TARGET_HTTP_ERROR',
      },
    },
  ]);

  const { accountId } = await accounts.create({ plan: 'free', credits: 5 });
  const b = await batches.create({
    accountId,
    items: [{ url: 'https://site.test/x' }],
    format: 'markdown',
    onlyMainContent: true,
    webhook: { url: `${receiver.url}/batch`, events: ['page', 'completed'] },
  });
  await batches.completeItem(b.items[0]!.itemId, {
    ...doc,
    metadata: { ...doc.metadata, finalUrl: undefined },
  });
  const events = await webhooks.events(accountId, b.batchId);
  await webhooks.markEnqueued(events.map((e) => e.eventId));
  for (const e of events) await deliverJobWebhook(deps, opts, e.eventId);
  const batchBodies = at('/batch').map((r) => bodySchema.parse(JSON.parse(r.raw)));
  expect(batchBodies.map((x) => [x.type, x.id, x.metadata])).toEqual([
    ['batch_scrape.page', b.batchId, {}],
    ['batch_scrape.completed', b.batchId, {}],
  ]);
  expect(batchBodies[0]!.data[0]).toMatchObject({ metadata: { url: 'https://site.test/a' } });
});
