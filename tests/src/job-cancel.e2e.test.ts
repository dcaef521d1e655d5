/**
 * Interactive jobs stop when their caller stops waiting, and every job stays within its budget,
 * retries included — measured from the target's side (when its connection is closed), through the
 * real stack (gateway + one scrape worker of concurrency 1, PostgreSQL, Redis).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { CreditsRepository, createDb } from '@wcs/db';
import { decodeError } from '@wcs/errors';
import { type QueueName, QueueProducer } from '@wcs/queues';
import { type FakeLlmServer, type ListeningServer, listenLocal, startFakeAnthropic } from '@wcs/testing';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  type TestAccount,
} from './harness';

jest.setTimeout(90_000);

/** Per request id (`?id=`): when the target saw it and when its connection closed. */
interface Visit {
  path: string;
  arrivedAt: number;
  closedAt?: number;
}

/** A page that never finishes, a slow-loris page (1 byte every 400 ms), and a normal page. */
async function startTarget(): Promise<{ server: ListeningServer; visits: Map<string, Visit[]> }> {
  const visits = new Map<string, Visit[]>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id') ?? url.pathname;
    const visit: Visit = { path: url.pathname, arrivedAt: Date.now() };
    visits.set(id, [...(visits.get(id) ?? []), visit]);
    req.socket.once('close', () => {
      visit.closedAt = Date.now();
    });
    if (url.pathname === '/robots.txt' || url.pathname.endsWith('.xml')) {
      res.writeHead(404).end();
      return;
    }
    if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>ok</title></head><body><main><h1>Fine</h1><p>A page.</p></main></body></html>',
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<html><head><title>slow</title></head><body><p>');
    if (url.pathname === '/loris') {
      const drip = () => {
        if (res.destroyed) return;
        res.write('x');
        const t = setTimeout(drip, 400);
        timers.add(t);
      };
      drip();
    }
    // '/hang': headers and a first chunk, then nothing, ever.
  });
  return { server: await listenLocal(server, timers), visits };
}

let stack: Stack;
let target: Awaited<ReturnType<typeof startTarget>>;
let account: TestAccount;
let model: FakeLlmServer;

/**
 * After a first attempt cut at this timeout and the 1 s backoff, the second must start with at
 * least 1 s of the budget left (MIN_ATTEMPT_MS): 4 s leaves 3 s, so a loaded machine that ends the
 * first attempt late still gets its second (2.5 s left only 1.5 s, and CI once saw 1 attempt).
 */
const BATCH_ITEM_TIMEOUT_MS = 4_000;
/** RETRY_BUDGET_FACTOR (2) × the item timeout: docs/reliability/job-budgets.md. */
const BATCH_ITEM_BUDGET_MS = 2 * BATCH_ITEM_TIMEOUT_MS;

beforeAll(async () => {
  target = await startTarget();
  model = await startFakeAnthropic();
  stack = await startStack({
    env: {
      WORKER_CONCURRENCY: '1',
      BATCH_ITEM_TIMEOUT_MS: String(BATCH_ITEM_TIMEOUT_MS),
      CRAWL_PAGE_TIMEOUT_MS: String(BATCH_ITEM_TIMEOUT_MS),
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: model.url,
      EXTRACT_MODEL: 'claude-fake',
    },
    mapWorker: true,
    extractWorker: true,
    crawlWorker: true,
  });
  account = await createTestAccount({ plan: 'hobby', credits: 100 });
  // Warm-up (content pool threads start on demand), so later timings are the jobs' own.
  expect((await scrape('/ok?id=warm-up', 30_000)).status).toBe(200);
});
afterAll(async () => {
  await stack?.close();
  await target?.server.close();
  await model?.close();
});

function scrape(path: string, timeout: number, signal?: AbortSignal): Promise<Response> {
  return fetch(`${stack.url}/v1/scrape`, {
    method: 'POST',
    headers: { ...account.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${target.server.url}${path}`, timeout, engine: 'fetch' }),
    ...(signal ? { signal } : {}),
  });
}

const visit = (id: string) => target.visits.get(id)?.[0];
/** From the first attempt's arrival at the target to the last attempt's close. */
const attemptsSpanMs = (attempts: Visit[]): number =>
  Math.max(...attempts.map((a) => a.closedAt ?? Number.POSITIVE_INFINITY)) - (attempts[0]?.arrivedAt ?? 0);
const closedVisit = (id: string) =>
  pollUntil(async () => (visit(id)?.closedAt !== undefined ? visit(id) : undefined), 30_000, 10);

/**
 * Why the interactive job for the target page `/hang?id=<id>` ended, as the worker reported it (its
 * failed reason): what freed the worker, without a stopwatch.
 */
async function jobFailure(queue: QueueName, id: string): Promise<{ code: string; message: string }> {
  const producer = new QueueProducer(TEST_REDIS_URL, stack.env.QUEUE_PREFIX ?? '');
  try {
    return await pollUntil(async () => {
      const failed = await producer.queue(queue).getJobs(['failed']);
      const job = failed.find((j) => String((j.data as { url?: unknown }).url).endsWith(`?id=${id}`));
      if (!job?.failedReason) return undefined;
      const err = decodeError(job.failedReason);
      return { code: err.code, message: err.message };
    }, 30_000);
  } finally {
    await producer.close();
  }
}

async function ledgerCount(reason: string): Promise<number> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    const rows = await new CreditsRepository(db).ledger(account.accountId, 1000);
    return rows.filter((r) => r.reason === reason).length;
  } finally {
    await db.close();
  }
}

describe('interactive jobs are cancelled when their caller stops waiting', () => {
  it('a page that never finishes, short timeout: 504, the job ended by its budget, the worker free again', async () => {
    const started = Date.now();
    const res = await scrape('/hang?id=t1', 1_500);
    const answeredAt = Date.now();
    expect(res.status).toBe(504);
    expect(((await res.json()) as { code: string }).code).toBe('TIMEOUT');
    // The job ended with the request's budget (its own deadline or the gateway's cancel at the
    // same moment), not when the page would have: it never does.
    expect(await jobFailure('scrape', 't1')).toMatchObject({ code: 'TIMEOUT' });
    const v = await closedVisit('t1');
    const releasedAfterAnswerMs = (v.closedAt ?? 0) - answeredAt;
    // The single worker slot is free: the next scrape is served.
    const next0 = Date.now();
    const ok = await scrape('/ok?id=t1-next', 30_000);
    expect(ok.status).toBe(200);
    const nextMs = Date.now() - next0;
    console.log(
      `timeout 1500 ms: 504 after ${answeredAt - started} ms; target connection closed ` +
        `${releasedAfterAnswerMs} ms after the 504; next scrape on the same worker took ${nextMs} ms`,
    );
  });

  it('a client that disconnects mid-scrape: the target connection is closed and the credit refunded once', async () => {
    const before = await balanceOf(account.accountId);
    const refundsBefore = await ledgerCount('scrape_refund');
    const client = new AbortController();
    const pending = scrape('/hang?id=d1', 60_000, client.signal).catch((e: unknown) => e);
    await pollUntil(async () => (visit('d1') ? true : undefined), 30_000, 10);
    const goneAt = Date.now();
    client.abort();
    await pending;
    // Ended by the disconnect, not by its 60 s budget: the worker says why.
    expect(await jobFailure('scrape', 'd1')).toMatchObject({
      code: 'TIMEOUT',
      message: 'Job cancelled: the client disconnected',
    });
    const v = await closedVisit('d1');
    const releasedMs = (v.closedAt ?? 0) - goneAt;
    // Refunded exactly once: the balance comes back and stays, one refund row.
    await pollUntil(async () => ((await balanceOf(account.accountId)) === before ? true : undefined), 30_000);
    expect(await ledgerCount('scrape_refund')).toBe(refundsBefore + 1);
    // The worker is free (it would otherwise hold this page for its 60 s budget).
    const ok = await scrape('/ok?id=d1-next', 30_000);
    expect(ok.status).toBe(200);
    expect(await balanceOf(account.accountId)).toBe(before - 1);
    expect(await ledgerCount('scrape_refund')).toBe(refundsBefore + 1);
    console.log(`client disconnect → target connection closed after ${releasedMs} ms (page budget 60000 ms)`);
  });

  it('a map whose client disconnects: the start page connection is closed and the credit refunded', async () => {
    const before = await balanceOf(account.accountId);
    const client = new AbortController();
    const pending = fetch(`${stack.url}/v1/map`, {
      method: 'POST',
      headers: { ...account.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${target.server.url}/hang?id=m1`, timeout: 60_000 }),
      signal: client.signal,
    }).catch((e: unknown) => e);
    await pollUntil(async () => (visit('m1') ? true : undefined), 30_000, 10);
    const goneAt = Date.now();
    client.abort();
    await pending;
    // Ended by the disconnect (the map's own words for its caller's signal), not by its 60 s
    // budget ("Map budget of 60000 ms used up").
    expect(await jobFailure('map', 'm1')).toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/cancelled: the caller stopped waiting$/),
    });
    const v = await closedVisit('m1');
    const releasedMs = (v.closedAt ?? 0) - goneAt;
    await pollUntil(async () => ((await balanceOf(account.accountId)) === before ? true : undefined), 30_000);
    console.log(
      `map, client disconnect → start page connection closed after ${releasedMs} ms (budget 60000 ms)`,
    );
  });

  it('an extract whose client disconnects: the page connection is closed, the model never asked, 5 credits back', async () => {
    const before = await balanceOf(account.accountId);
    const client = new AbortController();
    const pending = fetch(`${stack.url}/v1/extract`, {
      method: 'POST',
      headers: { ...account.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${target.server.url}/hang?id=x1`, schema: { title: 'string' } }),
      signal: client.signal,
    }).catch((e: unknown) => e);
    await pollUntil(async () => (visit('x1') ? true : undefined), 30_000, 10);
    const goneAt = Date.now();
    client.abort();
    await pending;
    // Ended by the disconnect, not by its 90 s budget.
    expect(await jobFailure('extract', 'x1')).toMatchObject({
      code: 'TIMEOUT',
      message: 'Job cancelled: the client disconnected',
    });
    const v = await closedVisit('x1');
    const releasedMs = (v.closedAt ?? 0) - goneAt;
    await pollUntil(async () => ((await balanceOf(account.accountId)) === before ? true : undefined), 30_000);
    expect(model.requests).toHaveLength(0);
    console.log(
      `extract, client disconnect → page connection closed after ${releasedMs} ms (budget 90000 ms)`,
    );
  });

  it('a scrape whose caller timed out while it was queued behind a busy worker is removed, never run', async () => {
    const before = await balanceOf(account.accountId);
    const busy = new AbortController();
    const first = scrape('/hang?id=q1', 60_000, busy.signal).catch((e: unknown) => e);
    await pollUntil(async () => (visit('q1') ? true : undefined), 30_000, 10);
    // Waits timeout + 5 s in the gateway, queued behind q1 all along.
    const queued = await scrape('/hang?id=q2', 1_000);
    expect(queued.status).toBe(504);
    busy.abort();
    await first;
    await closedVisit('q1');
    const ok = await scrape('/ok?id=q-next', 30_000);
    expect(ok.status).toBe(200);
    // q2 never reached the target: its job left the queue when its caller stopped waiting.
    expect(visit('q2')).toBeUndefined();
    await pollUntil(
      async () => ((await balanceOf(account.accountId)) === before - 1 ? true : undefined),
      30_000,
    );
  });
});

describe('a job’s total time is bounded by its budget, retries included', () => {
  it('a batch item against a slow-loris page fails within its budget across attempts', async () => {
    const before = await balanceOf(account.accountId);
    const start = await fetch(`${stack.url}/v1/batch/scrape`, {
      method: 'POST',
      headers: { ...account.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${target.server.url}/loris?id=b1`] }),
    });
    expect(start.status).toBe(202);
    const startedAt = Date.now();
    const { id } = (await start.json()) as { id: string };
    const done = await pollUntil(
      async () => {
        const r = await fetch(`${stack.url}/v1/batch/scrape/${id}`, { headers: account.auth });
        const body = (await r.json()) as {
          status: string;
          results: Array<{ status: string; error?: string }>;
        };
        return body.status === 'done' ? body : undefined;
      },
      30_000,
      50,
    );
    const totalMs = Date.now() - startedAt;
    expect(done.results[0]?.status).toBe('failed');
    expect(done.results[0]?.error).toMatch(/budget/);
    const attempts = target.visits.get('b1') ?? [];
    // Without the budget there would be 3 attempts. With it: two (the second cut by the budget),
    // or one when a loaded machine ended the first so late that less than MIN_ATTEMPT_MS was left
    // for a second — either way the budget, not the retry count, ended the item.
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts.length).toBeLessThanOrEqual(2);
    // Every attempt's connection was closed, the last one by the budget.
    for (const a of attempts) expect(a.closedAt).toBeDefined();
    // The budget bounds the attempts: without it there would be a third (3 attempts in total); the
    // item's error names the budget. How long they spanned is printed below, not asserted.
    await pollUntil(async () => ((await balanceOf(account.accountId)) === before ? true : undefined), 30_000);
    console.log(
      `slow-loris batch item: failed after ${totalMs} ms (attempts spanned ${attemptsSpanMs(attempts)} ms), ${attempts.length} attempts ` +
        `(item timeout ${BATCH_ITEM_TIMEOUT_MS} ms, budget ${BATCH_ITEM_BUDGET_MS} ms; ` +
        `without the budget: 3 × ${BATCH_ITEM_TIMEOUT_MS} + 1000 + 2000 backoff = ${3 * BATCH_ITEM_TIMEOUT_MS + 3_000} ms)`,
    );
  });

  it('a crawl page against a slow-loris page fails within its budget across attempts', async () => {
    const started = Date.now();
    const id = await startCrawl(stack.url, account.auth, {
      url: `${target.server.url}/loris?id=c1`,
      maxDepth: 0,
    });
    const done = await waitForCrawl(stack.url, id, account.auth, 30_000).catch(async (err: unknown) => {
      // What the crawl and the target looked like when it did not end (diagnosis of a failure).
      const status = await fetch(`${stack.url}/v1/crawl/${id}`, { headers: account.auth });
      console.log('crawl did not end', JSON.stringify(target.visits.get('c1')), await status.text());
      throw err;
    });
    const totalMs = Date.now() - started;
    expect(done.failedPages[0]).toMatchObject({ code: 'TIMEOUT' });
    const attempts = target.visits.get('c1') ?? [];
    // A third attempt would have started without the budget (one only on a machine so loaded
    // that the first ended with less than MIN_ATTEMPT_MS of the budget left).
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts.length).toBeLessThanOrEqual(2);
    expect(done.failedPages[0]?.error ?? '').toMatch(/budget/);
    console.log(
      `slow-loris crawl page: crawl ended after ${totalMs} ms (attempts spanned ${attemptsSpanMs(attempts)} ms), ${attempts.length} page attempts ` +
        `(page timeout ${BATCH_ITEM_TIMEOUT_MS} ms, budget ${BATCH_ITEM_BUDGET_MS} ms)`,
    );
  });
});
