import { createHmac } from 'node:crypto';
import http from 'node:http';
import { createDb, JobWebhooksRepository } from '@wcs/db';
import { createLogger } from '@wcs/logger';
import { type JobWebhookBody, jobWebhookBody, QueueProducer } from '@wcs/queues';
import {
  type FixtureSite,
  type ListeningServer,
  listenLocal,
  startConditionalSite,
  startFixtureSite,
} from '@wcs/testing';
import { loadWebhookDispatcherEnv, startWebhookDispatcher } from '@wcs/webhook-dispatcher';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack, TEST_DATABASE_URL } from './harness';

/**
 * Webhooks of crawls and batches in Firecrawl's convention, through the whole stack:
 * gateway → workers (outbox events in the transactions of their state changes) → dispatcher.
 */

interface Received {
  path: string;
  raw: string;
  body: JobWebhookBody;
  headers: http.IncomingHttpHeaders;
}

let stack: Stack;
let site: FixtureSite;
let receiver: ListeningServer;
const received: Received[] = [];
const db = createDb(TEST_DATABASE_URL);
const webhooks = new JobWebhooksRepository(db);

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5, tree: { branching: 3, depth: 2 }, sitemapPaths: [] });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      // Every body must be the Firecrawl shape; parse() throws into the test otherwise.
      received.push({
        path: req.url ?? '/',
        raw,
        body: jobWebhookBody.parse(JSON.parse(raw)) as JobWebhookBody,
        headers: req.headers,
      });
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 200).end('ok');
    });
  });
  receiver = await listenLocal(server);
  stack = await startStack({
    crawlWorker: true,
    webhookDispatcher: true,
    env: {
      WORKER_CONCURRENCY: '4',
      CRAWL_PAGE_TIMEOUT_MS: '5000',
      WEBHOOK_TIMEOUT_MS: '3000',
      JOB_WEBHOOK_MAX_ATTEMPTS: '2',
      JOB_WEBHOOK_RETRY_DELAY_MS: '100',
      JOB_WEBHOOK_RELAY_INTERVAL_MS: '200',
      JOB_WEBHOOK_STALE_MS: '2000',
    },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  await site?.close();
  await db.close();
});

const of = (jobId: string) => received.filter((r) => r.body.id === jobId);
const typesOf = (jobId: string) => of(jobId).map((r) => r.body.type);
/** Wait until the job's terminal event arrived. */
const untilEnd = (jobId: string, kind: 'crawl' | 'batch_scrape', timeoutMs = 30_000) =>
  pollUntil(
    async () =>
      of(jobId).some((r) => r.body.type === `${kind}.completed` || r.body.type === `${kind}.failed`)
        ? of(jobId)
        : undefined,
    timeoutMs,
    100,
  );
const pageUrl = (r: Received) => (r.body.data[0] as { metadata: { url: string } }).metadata.url;

async function secretOf(auth: Record<string, string>): Promise<string> {
  const res = await request(stack.url).get('/v1/webhook/secret').set(auth).expect(200);
  return res.body.data.secret as string;
}

async function batch(auth: Record<string, string>, body: Record<string, unknown>): Promise<string> {
  const res = await request(stack.url).post('/v1/batch/scrape').set(auth).send(body);
  if (res.status !== 202) throw new Error(`POST /v1/batch/scrape: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

describe('job webhooks', () => {
  it('a crawl: started, one signed page event per page with its document, completed last; metadata and header echoed', async () => {
    const account = await createTestAccount({ credits: 100 });
    const metadata = { project: 'alpha', run: 3, nested: { ok: true } };
    const id = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 1,
      includePaths: ['^/tree'],
      webhook: {
        url: `${receiver.url}/crawl`,
        headers: { 'X-Receiver-Token': 'token-123' },
        metadata,
      },
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', completed: 4 });
    const got = await untilEnd(id, 'crawl');

    const types = got.map((r) => r.body.type);
    expect(types[0]).toBe('crawl.started');
    expect(types.at(-1)).toBe('crawl.completed');
    expect(types.filter((t) => t === 'crawl.page')).toHaveLength(4);
    expect(types).toHaveLength(6);
    const pages = got.filter((r) => r.body.type === 'crawl.page');
    expect(pages.map(pageUrl).sort()).toEqual(done.pages.map((p) => p.url).sort());
    for (const p of pages) {
      expect(p.body.success).toBe(true);
      expect((p.body.data[0] as { markdown: string }).markdown).toContain('Tree node');
    }
    const secret = await secretOf(account.auth);
    for (const r of got) {
      expect(r.path).toBe('/crawl');
      expect(r.body.metadata).toEqual(metadata);
      expect(r.headers['x-receiver-token']).toBe('token-123');
      expect(r.headers['content-type']).toBe('application/json');
      const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
      expect(r.headers['x-firecrawl-signature']).toBe(expected);
    }
    // The delivery log has one successful attempt per event; the headers (secrets) are gone.
    await pollUntil(
      async () => ((await webhooks.deliveries(account.accountId, id)).length === 6 ? true : undefined),
      10_000,
    );
    const log = await webhooks.deliveries(account.accountId, id);
    expect(log.every((d) => d.statusCode === 200 && d.error === null && d.attempt === 1)).toBe(true);
    expect(await webhooks.holdsHeaders(id)).toBe(false);
    const api = await request(stack.url).get(`/v1/crawl/${id}/webhook-deliveries`).set(account.auth);
    expect(api.body.data.map((d: { type: string }) => d.type)).toEqual(log.map((d) => d.type));
  });

  it('a batch with a bare URL: started, a page event per item (a failed item with success false), completed', async () => {
    const account = await createTestAccount({ credits: 10 });
    const id = await batch(account.auth, {
      urls: [`${site.url}/article/1`, `${site.url}/404`],
      webhook: `${receiver.url}/batch`,
    });
    const got = await untilEnd(id, 'batch_scrape');
    expect(got.map((r) => r.body.type)).toEqual([
      'batch_scrape.started',
      'batch_scrape.page',
      'batch_scrape.page',
      'batch_scrape.completed',
    ]);
    const pages = got.filter((r) => r.body.type === 'batch_scrape.page');
    const ok = pages.find((p) => p.body.success);
    const failed = pages.find((p) => !p.body.success);
    expect(pageUrl(ok!)).toBe(`${site.url}/article/1`);
    expect(failed?.body.error).toEqual(expect.any(String));
    expect(pageUrl(failed!)).toBe(`${site.url}/404`);
    expect(got.every((r) => JSON.stringify(r.body.metadata) === '{}')).toBe(true);
  });

  it('only the events asked for; a failing receiver is tried up to the cap and every attempt is logged', async () => {
    const account = await createTestAccount({ credits: 10 });
    const id = await batch(account.auth, {
      urls: [`${site.url}/article/2`],
      webhook: { url: `${receiver.url}/fail`, events: ['completed'] },
    });
    const log = await pollUntil(async () => {
      const rows = await webhooks.deliveries(account.accountId, id);
      return rows.length >= 2 ? rows : undefined;
    }, 20_000);
    expect(log.map((d) => [d.type, d.attempt, d.statusCode, d.error])).toEqual([
      ['batch_scrape.completed', 1, 500, 'Receiver answered HTTP 500'],
      ['batch_scrape.completed', 2, 500, 'Receiver answered HTTP 500'],
    ]);
    // Given up: final, so no third attempt can come.
    expect((await webhooks.events(account.accountId, id)).map((e) => [e.type, e.state, e.attempts])).toEqual([
      ['batch_scrape.completed', 'failed', 2],
    ]);
    expect(typesOf(id)).toEqual(['batch_scrape.completed', 'batch_scrape.completed']);
    // The same log through the API, for the owner only.
    const api = await request(stack.url).get(`/v1/batch/scrape/${id}/webhook-deliveries`).set(account.auth);
    expect(api.status).toBe(200);
    expect(
      api.body.data.map((d: { type: string; attempt: number; statusCode: number; url: string }) => [
        d.type,
        d.attempt,
        d.statusCode,
        d.url,
      ]),
    ).toEqual([
      ['batch_scrape.completed', 1, 500, `${receiver.url}/fail`],
      ['batch_scrape.completed', 2, 500, `${receiver.url}/fail`],
    ]);
    const other = await createTestAccount({ credits: 1 });
    const foreign = await request(stack.url).get(`/v1/batch/scrape/${id}/webhook-deliveries`).set(other.auth);
    expect(foreign.status).toBe(404);
    const notCrawl = await request(stack.url).get(`/v1/crawl/${id}/webhook-deliveries`).set(account.auth);
    expect(notCrawl.status).toBe(404);
  });

  it('a recrawl that trusts sitemap lastmod sends a page event for each page it completed without asking the site', async () => {
    const lastmodSite = await startConditionalSite({ pages: 6, links: 2, tree: true, sitemap: true });
    try {
      const account = await createTestAccount({ credits: 100 });
      const body = (hook: string) => ({
        url: `${lastmodSite.url}/page/0`,
        maxDepth: 5,
        trustSitemapLastmod: true,
        scrapeOptions: { formats: ['markdown', 'changeTracking'] },
        webhook: { url: `${receiver.url}/${hook}` },
      });
      const first = await startCrawl(stack.url, account.auth, body('lastmod-1'));
      expect(await waitForCrawl(stack.url, first, account.auth)).toMatchObject({ completed: 6 });
      await untilEnd(first, 'crawl');
      const id = await startCrawl(stack.url, account.auth, body('lastmod-2'));
      const done = await waitForCrawl(stack.url, id, account.auth);
      expect(done).toMatchObject({ status: 'done', completed: 6 });
      // Nothing changed: every page was vouched for — the five seeds completed in one transaction
      // (their events written in it), the start page after them.
      for (const p of done.pages) expect(p.metadata).toMatchObject({ revalidatedBy: 'sitemap-lastmod' });
      const got = await untilEnd(id, 'crawl');
      const types = got.map((r) => r.body.type);
      expect(types[0]).toBe('crawl.started');
      expect(types.at(-1)).toBe('crawl.completed');
      const pages = got.filter((r) => r.body.type === 'crawl.page');
      expect(pages.map(pageUrl).sort()).toEqual(done.pages.map((p) => p.url).sort());
      expect(types).toHaveLength(8);
    } finally {
      await lastmodSite.close();
    }
  });

  it('a cancelled crawl ends with crawl.failed, a cancelled batch with batch_scrape.failed (the error says why)', async () => {
    const account = await createTestAccount({ credits: 20 });
    // The pages answer in 3 s: the cancels come first.
    const crawlId = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/article/1?delay=3000`,
      maxDepth: 1,
      webhook: { url: `${receiver.url}/cancel`, metadata: { k: 'crawl' } },
    });
    await request(stack.url).delete(`/v1/crawl/${crawlId}`).set(account.auth).expect(200);
    const crawl = await untilEnd(crawlId, 'crawl');
    expect(crawl.map((r) => [r.body.type, r.body.success, r.body.error])).toEqual([
      ['crawl.started', true, undefined],
      ['crawl.failed', false, 'Cancelled by the caller'],
    ]);
    expect(crawl.every((r) => r.body.metadata.k === 'crawl')).toBe(true);

    const batchId = await batch(account.auth, {
      urls: [2, 3].map((n) => `${site.url}/article/${n}?delay=3000`),
      webhook: { url: `${receiver.url}/cancel`, events: ['page', 'failed', 'completed'] },
    });
    await request(stack.url).delete(`/v1/batch/scrape/${batchId}`).set(account.auth).expect(200);
    const cancelled = await untilEnd(batchId, 'batch_scrape');
    expect(cancelled.map((r) => [r.body.type, r.body.error])).toEqual([
      ['batch_scrape.failed', 'Cancelled by the caller'],
    ]);
  });

  it('a receiver on a private address is refused at creation unless private targets are allowed', async () => {
    const strict = await startStack({ worker: false, env: { ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const account = await createTestAccount({ credits: 10 });
      // A literal public address (never fetched: the request is refused before anything is created).
      const crawl = await request(strict.url)
        .post('/v1/crawl')
        .set(account.auth)
        .send({ url: 'http://93.184.215.14/', webhook: { url: `${receiver.url}/private` } });
      expect(crawl.status).toBe(400);
      expect(crawl.body.success).toBe(false);
      const b = await request(strict.url)
        .post('/v1/batch/scrape')
        .set(account.auth)
        .send({ urls: ['http://93.184.215.14/'], webhook: `${receiver.url}/private` });
      expect(b.status).toBe(400);
    } finally {
      await strict.close();
    }
    expect(received.filter((r) => r.path === '/private')).toHaveLength(0);
  });

  it('events pending while the dispatcher is down (and their jobs lost with Redis) arrive once after its restart; nothing is sent twice', async () => {
    const account = await createTestAccount({ credits: 100 });
    const before = await untilEnd(
      await startCrawl(stack.url, account.auth, {
        url: `${site.url}/tree/1`,
        maxDepth: 1,
        includePaths: ['^/tree'],
        webhook: `${receiver.url}/before`,
      }),
      'crawl',
    );
    const earlier = received.length;
    await stack.webhookDispatcher?.close();
    const id = await batch(account.auth, {
      urls: [1, 2, 3].map((n) => `${site.url}/article/${n}`),
      webhook: { url: `${receiver.url}/restart`, metadata: { attempt: 'restart' } },
    });
    await pollUntil(async () => {
      const r = await request(stack.url).get(`/v1/batch/scrape/${id}`).set(account.auth);
      return r.body.status === 'done' ? true : undefined;
    }, 30_000);
    // Redis restarted empty: the dispatch jobs the scrape worker added are gone — and the relay had
    // seen them added (enqueued), so only its stale scan (JOB_WEBHOOK_STALE_MS) can find them.
    // (Another test file's dispatcher on this database may have sent `started`, added by the relay.)
    const pending = (await webhooks.events(account.accountId, id)).filter((e) => e.state === 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(4);
    await webhooks.markEnqueued(pending.map((e) => e.eventId));
    const producer = new QueueProducer(stack.env.REDIS_URL!, stack.env.QUEUE_PREFIX!);
    try {
      await producer.queue('job-webhook').obliterate({ force: true });
    } finally {
      await producer.close();
    }
    stack.webhookDispatcher = await startWebhookDispatcher(
      loadWebhookDispatcherEnv(stack.env),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const got = await untilEnd(id, 'batch_scrape');
    expect(got.map((r) => r.body.type)).toEqual([
      'batch_scrape.started',
      'batch_scrape.page',
      'batch_scrape.page',
      'batch_scrape.page',
      'batch_scrape.completed',
    ]);
    expect(new Set(got.filter((r) => r.body.type === 'batch_scrape.page').map(pageUrl)).size).toBe(3);
    // The restarted dispatcher's relay has run many passes by now: the earlier crawl's events, all
    // delivered before the restart, were not sent again.
    const beforeId = before[0]!.body.id;
    await pollUntil(
      async () =>
        (await webhooks.events(account.accountId, id)).every((e) => e.state === 'delivered')
          ? true
          : undefined,
      10_000,
    );
    expect(of(beforeId)).toHaveLength(before.length);
    expect(received.slice(earlier).filter((r) => r.body.id !== id && r.body.id === beforeId)).toHaveLength(0);
    const log = await webhooks.deliveries(account.accountId, id);
    expect(log.map((d) => d.attempt)).toEqual([1, 1, 1, 1, 1]);
  });
});
