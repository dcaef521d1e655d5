/**
 * The Node client (its built CommonJS output, as users get it) against the real service:
 * every method, the polling helpers, errors, retries, timeouts and cancellation.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type Progress, ServiceClient, ServiceError } from '@wcs/client-node';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import { createTestAccount } from '../harness';
import { type ClientStack, FAKE_EXTRACTION, startClientStack } from './client-stack';

const TITLE = 'Understanding Web Content Extraction';

/** Catches the ServiceError a call must throw. */
async function serviceError(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError, the call succeeded');
}

/** A local "API" answering from a script, one reply per request; records request times. */
async function startScriptedApi(
  replies: Array<{ status: number; headers?: Record<string, string>; body?: unknown; hang?: boolean }>,
): Promise<ListeningServer & { requests: Array<{ at: number; url: string; auth: string | undefined }> }> {
  const requests: Array<{ at: number; url: string; auth: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    requests.push({ at: Date.now(), url: req.url ?? '', auth: req.headers.authorization });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
    if (reply.hang) return; // never answers
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
  });
  return Object.assign(await listenLocal(server), { requests });
}

describe('Node client against the service', () => {
  let s: ClientStack;
  let client: ServiceClient;

  beforeAll(async () => {
    s = await startClientStack();
    client = new ServiceClient({ apiKey: s.account.apiKey, baseUrl: s.baseUrl });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('ships ESM and CommonJS builds with type declarations', () => {
    const dist = path.join(__dirname, '../../../packages/client-node/dist');
    for (const f of [
      'esm/index.js',
      'esm/index.d.ts',
      'cjs/index.js',
      'cjs/index.d.ts',
      'cjs/package.json',
    ]) {
      expect(existsSync(path.join(dist, f))).toBe(true);
    }
  });

  it('scrape returns the page as markdown with metadata', async () => {
    const res = await client.scrape(`${s.site.url}/`, { format: 'markdown', onlyMainContent: true });
    expect(res.success).toBe(true);
    expect(res.data.markdown).toContain(`# ${TITLE}`);
    expect(res.data.markdown).not.toContain('Accept all'); // the cookie banner is not main content
    expect(res.data.metadata.statusCode).toBe(200);
  });

  it('crawlAndWait polls to the end, reports progress and returns every page', async () => {
    const progress: Progress[] = [];
    const crawl = await client.crawlAndWait(`${s.site.url}/`, {
      maxDepth: 1,
      maxPages: 6,
      pollIntervalMs: 100,
      onProgress: (p) => progress.push(p),
    });
    expect(crawl.status).toBe('done');
    expect(crawl.pages.length).toBe(crawl.completed);
    expect(crawl.completed + crawl.failed).toBe(crawl.total);
    expect(crawl.total).toBeGreaterThanOrEqual(3);
    expect(crawl.next).toBeUndefined();
    for (const page of crawl.pages) {
      expect(page.url.startsWith(s.site.url)).toBe(true);
      expect(typeof page.markdown).toBe('string');
    }
    expect(crawl.pages.map((p) => p.url)).toContain(`${s.site.url}/`);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)).toEqual({
      id: crawl.id,
      status: 'done',
      total: crawl.total,
      completed: crawl.completed,
      failed: crawl.failed,
    });
  });

  it('startCrawl, getCrawlStatus and cancelCrawl', async () => {
    const started = await client.startCrawl(`${s.site.url}/`, { maxPages: 50, delayMs: 1_000 });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    const status = await client.getCrawlStatus(started.id, { limit: 5 });
    expect(status.id).toBe(started.id);
    expect(['pending', 'processing']).toContain(status.status);
    const cancelled = await client.cancelCrawl(started.id);
    expect(cancelled.status).toBe('failed');
    expect(cancelled.stopReason).toBe('cancelled');
  });

  it('map lists the site', async () => {
    const res = await client.map(`${s.site.url}/`, { maxUrls: 50 });
    expect(res.total).toBe(res.links.length);
    expect(res.links).toContain(`${s.site.url}/article/1`);
    const filtered = await client.map(`${s.site.url}/`, { max_urls: 50, search: 'article' });
    expect(filtered.links.length).toBeGreaterThanOrEqual(1);
    expect(filtered.links.every((l) => l.includes('article'))).toBe(true);
  });

  it('search finds a scraped page and bills 2 credits per result', async () => {
    await client.scrape(`${s.site.url}/article/3`);
    // The page is indexed just behind the scrape's answer: search until it is found.
    let res = await client.search('extraction', { numResults: 20 });
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      if (res.data.some((r) => r.url.startsWith(s.site.url))) break;
      await new Promise((resolve) => setTimeout(resolve, 200)); // poll interval
      res = await client.search('extraction', { numResults: 20 });
    }
    expect(res.data.length).toBeGreaterThanOrEqual(1);
    expect(res.creditsUsed).toBe(2 * res.data.filter((r) => r.markdown !== null).length);
    expect(res.data.some((r) => r.url.startsWith(s.site.url))).toBe(true);
  });

  it('extract returns the schema shape, missing fields null', async () => {
    const res = await client.extract<{ title: string | null; price: number | null }>(`${s.site.url}/`, {
      schema: { title: 'string', price: 'number' },
    });
    expect(res.data).toEqual({ title: FAKE_EXTRACTION.title, price: null });
  });

  it('monitors: create, list, get, delete', async () => {
    const created = await client.createMonitor(`${s.site.url}/article/1`, {
      interval: 'weekly',
      ignoreText: ['Last updated', '/^\\d+ views$/i'],
      threshold: 0.2,
      goal: 'the article text',
    });
    expect(created.data).toMatchObject({
      url: `${s.site.url}/article/1`,
      interval: 'weekly',
      status: 'active',
      ignoreText: ['Last updated', '/^\\d+ views$/i'],
      threshold: 0.2,
      goal: 'the article text',
    });
    const list = await client.listMonitors({ limit: 500 });
    expect(list.data.map((m) => m.id)).toContain(created.data.id);
    const detail = await client.getMonitor(created.data.id);
    expect(detail.data.id).toBe(created.data.id);
    expect(Array.isArray(detail.data.changes)).toBe(true);
    expect(Array.isArray(detail.data.checks)).toBe(true);
    const deleted = await client.deleteMonitor(created.data.id);
    expect(deleted.data.status).toBe('cancelled');
    // A cron schedule and a chat webhook body, read back by getMonitor.
    const cron = await client.createMonitor(`${s.site.url}/article/2`, {
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookUrl: `${s.site.url}/hook`,
      webhookFormat: 'slack',
    });
    expect(cron.data).toMatchObject({
      interval: 'cron',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookFormat: 'slack',
    });
    const cronDetail = await client.getMonitor(cron.data.id);
    expect(cronDetail.data).toMatchObject({
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookFormat: 'slack',
    });
    // The service's 400 names the field.
    await expect(
      client.createMonitor(`${s.site.url}/article/2`, { interval: 'daily', cron: '0 9 * * *' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^interval: /) });
    const moved = await client.updateMonitor(cron.data.id, {
      interval: 'daily',
      webhookUrl: null,
      threshold: 0.5,
    });
    expect(moved.data).toMatchObject({ interval: 'daily', threshold: 0.5, webhookFormat: 'slack' });
    expect(moved.data.cron).toBeUndefined();
    expect(moved.data.webhookUrl).toBeUndefined();
    await client.deleteMonitor(cron.data.id);
  });

  it('startBatchScrape and getBatchScrapeStatus', async () => {
    const started = await client.startBatchScrape([`${s.site.url}/`, `${s.site.url}/article/1`]);
    expect(started.total).toBe(2);
    const status = await client.getBatchScrapeStatus(started.id);
    expect(status.id).toBe(started.id);
    expect(status.total).toBe(2);
    expect(['pending', 'processing', 'done']).toContain(status.status);
  });

  it('batchScrapeAndWait returns every result, ids echoed, failed items inside', async () => {
    const progress: Progress[] = [];
    const batch = await client.batchScrapeAndWait(
      [
        { id: 'home', url: `${s.site.url}/` },
        { id: 'gone', url: `${s.site.url}/404` },
        `${s.site.url}/article/1`,
      ],
      { pollIntervalMs: 100, onProgress: (p) => progress.push(p) },
    );
    expect(batch.status).toBe('done');
    expect(batch.results).toHaveLength(3);
    const byUrl = new Map(batch.results.map((r) => [r.url, r]));
    expect(byUrl.get(`${s.site.url}/`)).toMatchObject({ id: 'home', status: 'done' });
    expect(byUrl.get(`${s.site.url}/`)?.data?.markdown).toContain(TITLE);
    expect(byUrl.get(`${s.site.url}/404`)).toMatchObject({ id: 'gone', status: 'failed' });
    expect(byUrl.get(`${s.site.url}/404`)?.error).toMatch(/404/);
    expect(byUrl.get(`${s.site.url}/article/1`)?.id).toBeUndefined();
    expect(batch.creditsUsed).toBe(2);
    expect(progress.at(-1)?.status).toBe('done');
  });

  it('getWebhookSecret returns a stable secret', async () => {
    const a = await client.getWebhookSecret();
    const b = await client.getWebhookSecret();
    expect(a.data.secret.length).toBeGreaterThanOrEqual(32);
    expect(b.data.secret).toBe(a.data.secret);
  });

  describe('errors', () => {
    it('a bad key is a 401 with the API message', async () => {
      const raw = await fetch(`${s.baseUrl}/v1/scrape`, {
        method: 'POST',
        headers: { Authorization: 'Bearer nope', 'content-type': 'application/json' },
        body: JSON.stringify({ url: s.site.url }),
      });
      const body = (await raw.json()) as { error: string };
      const err = await serviceError(
        new ServiceClient({ apiKey: 'nope', baseUrl: s.baseUrl }).scrape(`${s.site.url}/`),
      );
      expect(err.status).toBe(401);
      expect(err.code).toBe('UNAUTHORIZED');
      expect(err.message).toBe(body.error);
      expect(err.name).toBe('ServiceError');
    });

    it('validation, not found, target errors and credits keep status, code and details', async () => {
      const invalid = await serviceError(
        // @ts-expect-error an interval the API refuses
        client.createMonitor(`${s.site.url}/`, { interval: 'every minute' }),
      );
      expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(invalid.message).toMatch(/interval/);

      const missing = await serviceError(client.getCrawlStatus('00000000-0000-4000-8000-000000000000'));
      expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });

      const target = await serviceError(client.scrape(`${s.site.url}/404`));
      expect(target).toMatchObject({ status: 502, code: 'TARGET_HTTP_ERROR', details: { statusCode: 404 } });

      const broke = await createTestAccount({ credits: 0 });
      const poor = new ServiceClient({ apiKey: broke.apiKey, baseUrl: s.baseUrl });
      expect(await serviceError(poor.scrape(`${s.site.url}/`))).toMatchObject({
        status: 402,
        code: 'INSUFFICIENT_CREDITS',
      });
    });

    it('a polling helper past timeoutMs throws status 0 naming the job', async () => {
      const err = await serviceError(
        client.crawlAndWait(`${s.site.url}/`, { maxPages: 20, delayMs: 2_000, timeoutMs: 1 }),
      );
      expect(err).toMatchObject({ status: 0, code: 'CLIENT_TIMEOUT' });
      const id = err.details?.id as string;
      expect(err.message).toContain(id);
      await client.cancelCrawl(id);
    });

    it('an AbortSignal stops a polling helper', async () => {
      const controller = new AbortController();
      let crawlId = '';
      const waiting = client.crawlAndWait(`${s.site.url}/`, {
        maxPages: 20,
        delayMs: 2_000,
        pollIntervalMs: 60_000,
        signal: controller.signal,
        onProgress: (p) => {
          crawlId = p.id;
          controller.abort(new Error('stop waiting'));
        },
      });
      await expect(waiting).rejects.toThrow('stop waiting');
      // Aborting stops the wait, not the crawl: it is still running until cancelled.
      expect((await client.getCrawlStatus(crawlId)).status).toMatch(/pending|processing/);
      await client.cancelCrawl(crawlId);
    });
  });
});

describe('Node client configuration and transport', () => {
  const saved = { key: process.env.SERVICE_API_KEY, base: process.env.SERVICE_BASE_URL };
  afterEach(() => {
    for (const [name, value] of [
      ['SERVICE_API_KEY', saved.key],
      ['SERVICE_BASE_URL', saved.base],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('without a key: MISSING_API_KEY, status 0; SERVICE_API_KEY and SERVICE_BASE_URL are the fallbacks', async () => {
    delete process.env.SERVICE_API_KEY;
    const missing = (() => {
      try {
        new ServiceClient();
      } catch (err) {
        return err;
      }
    })();
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).toMatchObject({ status: 0, code: 'MISSING_API_KEY' });

    const api = await startScriptedApi([{ status: 200, body: { success: true, data: { secret: 'x' } } }]);
    try {
      process.env.SERVICE_API_KEY = 'key-from-env';
      process.env.SERVICE_BASE_URL = `${api.url}/`;
      const c = new ServiceClient();
      expect(c.baseUrl).toBe(api.url);
      await c.getWebhookSecret();
      expect(api.requests[0]).toMatchObject({ url: '/v1/webhook/secret', auth: 'Bearer key-from-env' });
    } finally {
      await api.close();
    }
  });

  it('429 is retried after Retry-After', async () => {
    const api = await startScriptedApi([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { success: false, error: 'slow down', code: 'RATE_LIMITED' },
      },
      { status: 200, body: { success: true, links: [], total: 0 } },
    ]);
    try {
      const c = new ServiceClient({ apiKey: 'k', baseUrl: api.url });
      const res = await c.map('example.com');
      expect(res.total).toBe(0);
      expect(api.requests).toHaveLength(2);
      expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(950);
    } finally {
      await api.close();
    }
  });

  it('503 is retried with backoff up to maxRetries, then thrown', async () => {
    const unavailable = { status: 503, body: { success: false, error: 'queue down', code: 'UNAVAILABLE' } };
    const api = await startScriptedApi([unavailable, unavailable, unavailable, { status: 200, body: {} }]);
    try {
      const err = await serviceError(new ServiceClient({ apiKey: 'k', baseUrl: api.url }).scrape('x.com'));
      expect(err).toMatchObject({ status: 503, code: 'UNAVAILABLE', message: 'queue down' });
      expect(api.requests).toHaveLength(3); // 1 + maxRetries (2)
      expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(350); // 0.5 s ± 20 %
    } finally {
      await api.close();
    }
  });

  it('deterministic 502s and maxRetries 0 are not retried', async () => {
    const api = await startScriptedApi([
      {
        status: 502,
        body: { success: false, error: 'Target responded with HTTP 404', code: 'TARGET_HTTP_ERROR' },
      },
    ]);
    try {
      const err = await serviceError(new ServiceClient({ apiKey: 'k', baseUrl: api.url }).scrape('x.com'));
      expect(err).toMatchObject({ status: 502, code: 'TARGET_HTTP_ERROR' });
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
    const limited = await startScriptedApi([
      {
        status: 429,
        headers: { 'retry-after': '30' },
        body: { success: false, error: 'slow', code: 'RATE_LIMITED' },
      },
    ]);
    try {
      const err = await serviceError(
        new ServiceClient({ apiKey: 'k', baseUrl: limited.url, maxRetries: 0 }).scrape('x.com'),
      );
      expect(err.status).toBe(429);
      expect(limited.requests).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });

  it('a body that is not the API shape still gives status and a message', async () => {
    const api = await startScriptedApi([{ status: 500, body: '<html>oops</html>' }]);
    try {
      const err = await serviceError(new ServiceClient({ apiKey: 'k', baseUrl: api.url }).scrape('x.com'));
      expect(err.status).toBe(500);
      expect(err.message).toMatch(/HTTP 500/);
    } finally {
      await api.close();
    }
  });

  it('a request past timeoutMs and an unreachable host are status 0', async () => {
    const api = await startScriptedApi([{ status: 200, hang: true }]);
    try {
      const err = await serviceError(
        new ServiceClient({ apiKey: 'k', baseUrl: api.url, timeoutMs: 200 }).scrape('x.com'),
      );
      expect(err).toMatchObject({ status: 0, code: 'CLIENT_TIMEOUT' });
    } finally {
      await api.close();
    }
    const closed = await startScriptedApi([]);
    const closedUrl = closed.url;
    await closed.close();
    const err = await serviceError(new ServiceClient({ apiKey: 'k', baseUrl: closedUrl }).scrape('x.com'));
    expect(err).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(err.message).toContain(closedUrl);
  });
});
