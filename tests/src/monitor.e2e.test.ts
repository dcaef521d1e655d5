import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreditsRepository, createDb, MonitorsRepository, WebhookDeliveriesRepository } from '@wcs/db';
import { createLogger } from '@wcs/logger';
import {
  loadMonitorSchedulerEnv,
  type RunningMonitorScheduler,
  startMonitorScheduler,
} from '@wcs/monitor-scheduler';
import { createSafeDispatcher } from '@wcs/net';
import { createRedisConnection } from '@wcs/queues';
import { webhookProcessor } from '@wcs/webhook-dispatcher';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
} from './harness';

/** hourly = 2 s in this file. */
const INTERVAL_MS = 2_000;
const SCALE = String(INTERVAL_MS / 3_600_000);

/** A local site whose pages the test rewrites between checks; counts hits per path. */
function startMutableSite(): Promise<{
  url: string;
  set(path: string, body: string): void;
  hits(path: string): number;
  close(): Promise<void>;
}> {
  const pages = new Map<string, string>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = pages.get(path);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        set: (path, body) => pages.set(path, body),
        hits: (path) => hits.get(path) ?? 0,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

interface Received {
  path: string;
  raw: string;
  headers: http.IncomingHttpHeaders;
}

/** The webhook receiver: `/ok` answers 200, `/fail` answers 500; records every request. */
function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        raw: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      res.writeHead(req.url === '/fail' ? 500 : 200).end('ok');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        received,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

const page = (main: string): string =>
  `<!doctype html><html><head><title>Pricing</title></head><body><nav><a href="/">Home</a></nav><main>${main}</main><footer>© Example</footer></body></html>`;

const ORIGINAL = page(
  '<h1>Prices</h1><p>The basic plan costs ten dollars per month and includes email support for every customer.</p><ul><li>First item</li><li>Second item</li></ul>',
);
/** Same words: other heading level, classes, emphasis, wrapping, whitespace, another list type. */
const REFORMATTED = page(
  '<h2 class="title big">Prices</h2>\n  <p class="lead">The <strong>basic plan</strong> costs ten dollars\n   per month and includes <em>email support</em>   for every customer.</p>\n<ol class="items"><li>First item</li>\n<li>Second item</li></ol>',
);
const CHANGED = page(
  '<h1>Prices</h1><p>The basic plan costs twelve dollars per month and includes email support for every customer.</p><ul><li>First item</li><li>Second item</li></ul>',
);

type Detail = {
  status: string;
  lastCheckAt: string | null;
  nextCheckAt: string | null;
  checkCount: number;
  changes: Array<{
    detectedAt: string;
    snapshot: string;
    previousSnapshot: string | null;
    hash: string;
    diff: { added: string[]; removed: string[]; text: string; truncated: boolean } | null;
  }>;
  checks: Array<{ checkedAt: string; changed: boolean; hash?: string; code?: string }>;
  webhookDeliveries: Array<{
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    url: string;
  }>;
};

describe('monitors and webhooks', () => {
  let stack: Stack;
  let site: Awaited<ReturnType<typeof startMutableSite>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let restarted: RunningMonitorScheduler | null = null;
  /** Every monitor this file creates: cancelled at the end so later runs' schedulers (which rebuild
   * from the shared test database) never pick them up. */
  const created: Array<{ auth: { Authorization: string }; id: string }> = [];

  beforeAll(async () => {
    site = await startMutableSite();
    receiver = await startReceiver();
    stack = await startStack({
      monitorScheduler: true,
      webhookDispatcher: true,
      worker: false,
      env: {
        MONITOR_INTERVAL_SCALE: SCALE,
        MONITOR_RESUME_SWEEP_MS: '300',
        WORKER_CONCURRENCY: '4',
        WEBHOOK_TIMEOUT_MS: '3000',
      },
    });
  });

  afterAll(async () => {
    for (const m of created) await request(stack.url).delete(`/v1/monitor/${m.id}`).set(m.auth);
    await restarted?.close();
    await stack?.close();
    await receiver?.close();
    await site?.close();
  });

  async function detail(auth: { Authorization: string }, id: string): Promise<Detail> {
    const res = await request(stack.url).get(`/v1/monitor/${id}`).set(auth).expect(200);
    return res.body.data as Detail;
  }

  async function create(auth: { Authorization: string }, body: Record<string, unknown>): Promise<string> {
    const res = await request(stack.url).post('/v1/monitor').set(auth).send(body).expect(201);
    created.push({ auth, id: res.body.data.id as string });
    return res.body.data.id as string;
  }

  /** Wait for `n` more checks of a monitor than it has now. */
  async function moreChecks(auth: { Authorization: string }, id: string, n: number): Promise<Detail> {
    const start = (await detail(auth, id)).checkCount;
    return pollUntil(
      async () => {
        const d = await detail(auth, id);
        return d.checkCount >= start + n ? d : undefined;
      },
      n * INTERVAL_MS * 4 + 10_000,
    );
  }

  test('create validates input and returns the spec shape; list, detail and 404s', async () => {
    const a = await createTestAccount({ credits: 100 });
    const b = await createTestAccount({ credits: 100 });
    for (const body of [
      { url: 'not a url' },
      { url: 'ftp://example.com/x' },
      { url: `${site.url}/v`, interval: 'monthly' },
      { url: `${site.url}/v`, webhookUrl: 'ftp://example.com/hook' },
      { url: `${site.url}/v`, webhookUrl: 'example.com/hook' },
      { interval: 'daily' },
    ]) {
      const res = await request(stack.url).post('/v1/monitor').set(a.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    site.set('/v', ORIGINAL);
    // A bare host gets https:// (this one is local: its TLS check fails and is recorded, nothing leaves the machine).
    const bare = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: 'localhost:9/bare' })
      .expect(201);
    expect(bare.body.data.url).toBe('https://localhost:9/bare');
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: `${site.url}/v` })
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        url: `${site.url}/v`,
        interval: 'daily',
        status: 'active',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    // The baseline check runs at creation even for a daily monitor.
    // A read while the next slot's check is in flight (daily = 48 s here, any offset) still shows
    // the slot that just passed: wait for a read with no check in flight, as a client polling would.
    const baseline = await pollUntil(async () => {
      const d = await detail(a.auth, id);
      return d.lastCheckAt && Date.parse(d.nextCheckAt ?? '') > Date.now() ? d : undefined;
    }, 15_000);
    expect(baseline.changes).toEqual([]);
    expect(baseline.checks[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(baseline.nextCheckAt ?? '')).toBeGreaterThan(Date.now());
    // nextCheckAt is the slot BullMQ's job scheduler will fire (same arithmetic).
    const scheduler = await stack.gateway.deps.producer.queue('monitor-check').getJobScheduler(id);
    expect(Number(scheduler?.next)).toBe(Date.parse(baseline.nextCheckAt ?? ''));
    const list = await request(stack.url).get('/v1/monitor?limit=1').set(a.auth).expect(200);
    expect(list.body.total).toBe(2);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.next).toBe('/v1/monitor?skip=1&limit=1');
    await request(stack.url).get(`/v1/monitor/${id}`).set(b.auth).expect(404);
    await request(stack.url).delete(`/v1/monitor/${id}`).set(b.auth).expect(404);
    await request(stack.url).get('/v1/monitor/00000000-0000-4000-8000-000000000000').set(a.auth).expect(404);
    await request(stack.url).get('/v1/monitor/nope').set(a.auth).expect(404);
    await request(stack.url).delete(`/v1/monitor/${bare.body.data.id}`).set(a.auth).expect(200);
  });

  test('formatting-only changes raise nothing; a text change raises exactly one signed webhook', async () => {
    const acct = await createTestAccount({ credits: 100 });
    site.set('/a', ORIGINAL);
    const id = await create(acct.auth, {
      url: `${site.url}/a`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/ok`,
    });
    await pollUntil(async () => ((await detail(acct.auth, id)).lastCheckAt ? true : undefined), 15_000);
    site.set('/a', REFORMATTED);
    const afterFormat = await moreChecks(acct.auth, id, 2);
    expect(afterFormat.changes).toEqual([]);
    expect(receiver.received.filter((r) => r.path === '/ok')).toHaveLength(0);

    site.set('/a', CHANGED);
    const changed = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.changes.length > 0 && d.webhookDeliveries.length > 0 ? d : undefined;
    }, 20_000);
    // More checks of the unchanged new content: still one change, one webhook.
    const later = await moreChecks(acct.auth, id, 2);
    expect(later.changes).toHaveLength(1);
    const hooks = receiver.received.filter((r) => r.path === '/ok');
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    const payload = JSON.parse(hook.raw) as Record<string, unknown>;
    const change = changed.changes[0]!;
    expect(payload).toEqual({
      monitorId: id,
      url: `${site.url}/a`,
      detectedAt: change.detectedAt,
      snapshot: change.snapshot,
      // The diff of the cleaned markdown (docs/api.md "Monitors"), kept in the change record too.
      diff: {
        added: [
          'The basic plan costs twelve dollars per month and includes email support for every customer.',
        ],
        removed: [
          'The basic plan costs ten dollars per month and includes email support for every customer.',
        ],
        text: expect.stringContaining('+The basic plan costs twelve dollars'),
      },
    });
    expect(change.diff).toMatchObject({ ...(payload.diff as object), truncated: false });
    expect(String(payload.snapshot)).toContain('twelve dollars');
    expect(String(payload.snapshot).length).toBeLessThanOrEqual(500);
    // The content before the change comes with it (the dashboard diffs the two).
    expect(change.previousSnapshot).toContain('ten dollars');
    expect(change.previousSnapshot).not.toContain('twelve');
    const secret = await request(stack.url).get('/v1/webhook/secret').set(acct.auth).expect(200);
    const expected = `sha256=${createHmac('sha256', secret.body.data.secret as string)
      .update(hook.raw)
      .digest('hex')}`;
    expect(hook.headers['x-signature']).toBe(expected);
    expect(Date.parse(String(hook.headers['x-webhook-timestamp']))).toBeGreaterThan(0);
    expect(later.webhookDeliveries).toEqual([
      expect.objectContaining({ statusCode: 200, error: null, url: `${receiver.url}/ok` }),
    ]);
  });

  test('a receiver answering 500 gets exactly one attempt, recorded', async () => {
    const acct = await createTestAccount({ credits: 100 });
    site.set('/b', ORIGINAL);
    const id = await create(acct.auth, {
      url: `${site.url}/b`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/fail`,
    });
    await pollUntil(async () => ((await detail(acct.auth, id)).lastCheckAt ? true : undefined), 15_000);
    site.set('/b', CHANGED);
    await pollUntil(
      async () => ((await detail(acct.auth, id)).webhookDeliveries.length > 0 ? true : undefined),
      20_000,
    );
    const later = await moreChecks(acct.auth, id, 2);
    expect(receiver.received.filter((r) => r.path === '/fail')).toHaveLength(1);
    expect(later.webhookDeliveries).toHaveLength(1);
    expect(later.webhookDeliveries[0]).toMatchObject({
      statusCode: 500,
      error: 'Receiver answered HTTP 500',
    });
  });

  test('webhook URLs pass the private-address guard: a blocked one is recorded, never sent', async () => {
    const acct = await createTestAccount({ credits: 10 });
    const db = createDb(TEST_DATABASE_URL);
    const dispatcher = createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 2_000 });
    try {
      const monitors = new MonitorsRepository(db);
      const m = await monitors.create({
        accountId: acct.accountId,
        url: `${site.url}/blocked`,
        interval: 'weekly',
        webhookUrl: `${receiver.url}/blocked`,
        jitterMs: 0,
      });
      // Cancelled at once: only the dispatcher is under test here, no scheduler runs it.
      await monitors.cancel(acct.accountId, m.id);
      const change = await db.prisma.monitorChange.create({
        data: { monitorId: m.id, hash: 'f'.repeat(64), snapshot: 'new text' },
      });
      const process = webhookProcessor(
        {
          deliveries: new WebhookDeliveriesRepository(db),
          dispatcher,
          logger: createLogger({ service: 'test', level: 'silent' }),
        },
        { timeoutMs: 2_000, allowPrivateTargets: false, userAgent: 'test' },
      );
      const result = await process({ changeId: change.id });
      expect(result).toMatchObject({ sent: true, statusCode: null });
      expect(receiver.received.filter((r) => r.path === '/blocked')).toHaveLength(0);
      const d = await detail(acct.auth, m.id);
      expect(d.webhookDeliveries).toHaveLength(1);
      expect(d.webhookDeliveries[0]?.error).toMatch(/private|forbidden|not allowed|blocked/i);
      // A re-delivered job sends nothing and records nothing more.
      expect(await process({ changeId: change.id })).toEqual({ sent: false, reason: 'already_attempted' });
      expect((await detail(acct.auth, m.id)).webhookDeliveries).toHaveLength(1);
    } finally {
      await dispatcher.close();
      await db.close();
    }
  });

  test('a monitor pauses when credits run out and resumes after a top-up', async () => {
    const acct = await createTestAccount({ credits: 2 });
    site.set('/c', ORIGINAL);
    const id = await create(acct.auth, { url: `${site.url}/c`, interval: 'hourly' });
    const paused = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.status === 'paused' ? d : undefined;
    }, 30_000);
    expect(await balanceOf(acct.accountId)).toBe(0);
    expect(paused.checks[0]?.code).toBe('INSUFFICIENT_CREDITS');
    const paidChecks = paused.checks.filter((c) => c.hash).length;
    expect(paidChecks).toBe(2);
    // Nothing is charged or fetched while paused.
    const hitsWhilePaused = site.hits('/c');

    const db = createDb(TEST_DATABASE_URL);
    try {
      await new CreditsRepository(db).credit(acct.accountId, 5, { reason: 'topup', reference: `t-${id}` });
    } finally {
      await db.close();
    }
    const resumed = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.status === 'active' && d.checks.filter((c) => c.hash).length >= paidChecks + 1 ? d : undefined;
    }, 20_000);
    expect(resumed.status).toBe('active');
    expect(site.hits('/c')).toBeGreaterThan(hitsWhilePaused);
    expect(await balanceOf(acct.accountId)).toBeLessThan(5);
  });

  test('cancel stops checks at once and keeps the history; schedules are rebuilt after Redis loses them', async () => {
    const acct = await createTestAccount({ credits: 100 });
    site.set('/d', ORIGINAL);
    site.set('/e', ORIGINAL);
    const cancelled = await create(acct.auth, { url: `${site.url}/d`, interval: 'hourly' });
    const kept = await create(acct.auth, { url: `${site.url}/e`, interval: 'hourly' });
    await pollUntil(
      async () => ((await detail(acct.auth, cancelled)).lastCheckAt ? true : undefined),
      15_000,
    );
    const del = await request(stack.url).delete(`/v1/monitor/${cancelled}`).set(acct.auth).expect(200);
    expect(del.body.data).toMatchObject({ id: cancelled, status: 'cancelled', nextCheckAt: null });
    const checksAtCancel = (await detail(acct.auth, cancelled)).checkCount;
    // A check that read the monitor as active just before the cancel may still fetch the page once
    // (it records nothing: checkCount below). Count the page's hits from after that check ended,
    // one check of the other monitor later.
    await moreChecks(acct.auth, kept, 1);
    const hitsAtCancel = site.hits('/d');
    await moreChecks(acct.auth, kept, 2);
    const after = await detail(acct.auth, cancelled);
    expect(after.status).toBe('cancelled');
    expect(after.checkCount).toBe(checksAtCancel);
    expect(after.checks.length).toBeGreaterThan(0);
    expect(site.hits('/d')).toBe(hitsAtCancel);

    // Redis loses every key of this stack's queues while the scheduler is down.
    await stack.monitorScheduler?.close();
    const redis = createRedisConnection(stack.env.REDIS_URL!, 'worker');
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${stack.env.QUEUE_PREFIX}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      expect(await redis.exists(`${stack.env.QUEUE_PREFIX}:monitor-check:repeat:${kept}`)).toBe(0);
    } finally {
      redis.disconnect();
    }
    const hitsBefore = site.hits('/e');
    restarted = await startMonitorScheduler(
      loadMonitorSchedulerEnv(stack.env),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const queue = stack.gateway.deps.producer.queue('monitor-check');
    expect(await queue.getJobScheduler(kept)).toBeTruthy();
    expect(await queue.getJobScheduler(cancelled)).toBeFalsy();
    await pollUntil(
      async () => (site.hits('/e') >= hitsBefore + 2 ? true : undefined),
      INTERVAL_MS * 6 + 10_000,
    );
    expect(site.hits('/d')).toBe(hitsAtCancel);
  });
});
