import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CreditsRepository, createDb } from '@wcs/db';
import { type Job, QueueProducer } from '@wcs/queues';
import { type FixtureSite, fixtureArticle, startFixtureSite } from '@wcs/testing';
import { FaultDatabases } from '../faults/fault-databases';
import { freePort } from '../faults/private-redis';
import { ServiceProcess } from '../faults/service-process';
import { createTestAccount, pollUntil, TEST_DATABASE_URL, TEST_REDIS_URL, type TestAccount } from './harness';

/**
 * "Two of everything": two gateways and two scrape workers, each its own compiled OS
 * process, share one PostgreSQL, one Redis and one queue prefix. A 500-URL batch started on one
 * gateway and 200 single scrapes through both must each run exactly once, be billed exactly once,
 * and be spread over both workers.
 */

const BATCH_SIZE = 500;
const SCRAPES_PER_GATEWAY = 100;
const CLIENT_CONCURRENCY = 16;
const START_CREDITS = 1_000;
// README: POST /v1/scrape costs 1 credit; a batch 1 credit per URL, charged up front.
const SCRAPE_PRICE = 1;
const BATCH_ITEM_PRICE = 1;

const prefix = `two-${randomUUID().slice(0, 8)}`;
let site: FixtureSite;
let gatewayA: ServiceProcess;
let gatewayB: ServiceProcess;
let workers: ServiceProcess[] = [];
let urlA = '';
let urlB = '';
let producer: QueueProducer;
// A database of its own: another file's batch reconciler (batch-recovery's, 1.5 s) would otherwise
// re-queue this test's waiting items on its own queue, and they would run twice.
const databases = new FaultDatabases(TEST_DATABASE_URL);
let databaseUrl = '';

beforeAll(async () => {
  databaseUrl = await databases.fresh('two_of_everything');
  site = await startFixtureSite({ pages: BATCH_SIZE + 2 * SCRAPES_PER_GATEWAY });
  producer = new QueueProducer(TEST_REDIS_URL, prefix);
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    // info: ServiceProcess waits for each service's "started"/"listening" line.
    LOG_LEVEL: 'info',
    ALLOW_PRIVATE_TARGETS: 'true',
    // Static fixture pages: no Chromium, so four processes stay light on two cores.
    BROWSER_ENABLED: 'false',
    RATE_LIMIT_FREE: '100000',
    WORKER_CONCURRENCY: '4',
    // Off here as well: the point is that no item needs a second run.
    RECONCILE_MIN_AGE_MS: '600000',
    CRAWL_RECONCILE_MIN_AGE_MS: '600000',
    SHUTDOWN_DRAIN_MS: '1000',
  };
  const [portA, portB] = await Promise.all([freePort(), freePort()]);
  urlA = `http://127.0.0.1:${portA}`;
  urlB = `http://127.0.0.1:${portB}`;
  gatewayA = new ServiceProcess('gateway', { ...env, PORT: String(portA), PUBLIC_URL: urlA });
  gatewayB = new ServiceProcess('gateway', { ...env, PORT: String(portB), PUBLIC_URL: urlB });
  workers = [0, 1].map(() => new ServiceProcess('scrape-worker', { ...env, PUBLIC_URL: urlA }));
  // All at once: start-up is mostly module loading, which overlaps well on a busy machine.
  await Promise.all([gatewayA, gatewayB, ...workers].map((s) => s.start()));
}, 90_000);

afterAll(async () => {
  // SIGTERM with a deadline, SIGKILL after it (ServiceProcess.stop).
  await Promise.all([gatewayA, gatewayB, ...workers].filter(Boolean).map((s) => s.stop()));
  await producer?.close();
  await site?.close();
  await databases.dropAll();
}, 60_000);

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function api(base: string, account: TestAccount, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...account.auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: { raw: text } };
  }
}

/** `fn` over `items`, at most `limit` at a time (the client side of a loaded two-core machine). */
async function pooled<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return out;
}

const articlePath = (n: number) => `/article/${n}`;
/** The article's title as it appears in its markdown (exact text from the fixture). */
const titleOf = (n: number) => fixtureArticle(n).title;

interface BatchResult {
  url: string;
  status: string;
  data?: { markdown?: string };
}

/** Every result page of a batch, read through `base`, following `next` links. */
async function allResults(base: string, account: TestAccount, id: string): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  let path: string | undefined = `/v1/batch/scrape/${id}?skip=0&limit=100`;
  for (let pages = 0; path !== undefined; pages++) {
    if (pages > 20) throw new Error('too many result pages');
    const page = await api(base, account, path);
    expect(page.status).toBe(200);
    results.push(...(page.body.results as BatchResult[]));
    path = typeof page.body.next === 'string' ? page.body.next : undefined;
  }
  return results;
}

/** Completed jobs of a queue once none is waiting, active or delayed (a job completes just after its row). */
async function settledJobs(name: 'scrape' | 'scrape-batch', expected: number): Promise<Job[]> {
  const queue = producer.queue(name);
  await pollUntil(
    async () => {
      const c = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed');
      const n = (k: string) => c[k] ?? 0;
      return n('completed') + n('failed') >= expected && n('active') + n('waiting') + n('delayed') === 0
        ? true
        : undefined;
    },
    20_000,
    100,
  );
  expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
  return queue.getJobs(['completed'], 0, -1);
}

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const it of items) m.set(key(it), (m.get(key(it)) ?? 0) + 1);
  return m;
}

it('two gateways and two scrape workers: a 500-URL batch and 200 scrapes run once, billed once, shared', async () => {
  const startedAt = Date.now();
  const account = await createTestAccount({ credits: START_CREDITS, databaseUrl });
  const batchUrls = Array.from({ length: BATCH_SIZE }, (_, n) => `${site.url}${articlePath(n)}`);
  const scrapeNs = Array.from({ length: 2 * SCRAPES_PER_GATEWAY }, (_, i) => BATCH_SIZE + i);

  // The batch through A while the scrapes go through A and B, alternating.
  const [start, scrapes] = await Promise.all([
    api(urlA, account, '/v1/batch/scrape', { urls: batchUrls, formats: ['markdown'] }),
    pooled(scrapeNs, CLIENT_CONCURRENCY, async (n) => {
      const via = n % 2 === 0 ? urlA : urlB;
      const res = await api(via, account, '/v1/scrape', {
        url: `${site.url}${articlePath(n)}`,
        formats: ['markdown'],
      });
      return { n, via, res };
    }),
  ]);

  expect(start.status).toBe(202);
  expect(start.body.total).toBe(BATCH_SIZE);
  const batchId = String(start.body.id);

  // Every scrape answered 200 with its own page's markdown; each gateway served its half.
  for (const { n, res } of scrapes) {
    expect({ n, status: res.status }).toEqual({ n, status: 200 });
    const data = res.body.data as { markdown?: string };
    expect(data.markdown).toContain(titleOf(n));
  }
  expect(countBy(scrapes, (s) => s.via)).toEqual(
    new Map([
      [urlA, SCRAPES_PER_GATEWAY],
      [urlB, SCRAPES_PER_GATEWAY],
    ]),
  );

  // The batch started on A is read through B until it is done.
  const done = await pollUntil(
    async () => {
      const b = await api(urlB, account, `/v1/batch/scrape/${batchId}?skip=0&limit=1`);
      expect(b.status).toBe(200);
      return b.body.status === 'done' ? b.body : undefined;
    },
    60_000,
    250,
  );
  expect(done).toMatchObject({
    total: BATCH_SIZE,
    completed: BATCH_SIZE,
    failed: 0,
    creditsUsed: BATCH_SIZE * BATCH_ITEM_PRICE,
  });
  const results = await allResults(urlB, account, batchId);
  expect(results).toHaveLength(BATCH_SIZE);
  expect(new Set(results.map((r) => r.url)).size).toBe(BATCH_SIZE);
  expect(results.map((r) => r.url)).toEqual(batchUrls);
  results.forEach((r, n) => {
    expect({ url: r.url, status: r.status }).toEqual({ url: batchUrls[n], status: 'done' });
    expect(r.data?.markdown).toContain(titleOf(n));
  });

  const ledger: Array<{ reason: string; amount: number; reference: string | null }> = [];
  let balance = Number.NaN;
  // Run once: one row per URL, each started once; the site saw each page exactly once.
  const db = createDb(databaseUrl);
  const credits = new CreditsRepository(db);
  try {
    const rows = await db.prisma.batchItem.findMany({
      where: { batchId },
      select: { url: true, status: true, attempts: true },
    });
    expect(rows).toHaveLength(BATCH_SIZE);
    expect(new Set(rows.map((r) => r.url))).toEqual(new Set(batchUrls));
    const notOnce = rows.filter((r) => r.status !== 'done' || r.attempts !== 1);
    expect(notOnce.map((r) => `${r.url} ${r.status} attempts=${r.attempts}`)).toEqual([]);
    // Billed once (below), read from this test's database.
    ledger.push(...(await credits.ledger(account.accountId, 1000)));
    balance = await credits.balance(account.accountId);
  } finally {
    await db.close();
  }
  const fetchedTwice = [...Array(BATCH_SIZE + scrapeNs.length).keys()].filter(
    (n) => site.hits(articlePath(n)) !== 1,
  );
  expect(fetchedTwice).toEqual([]);

  // Billed once: the grant, one batch charge, one charge per scrape, no refund; nothing else.
  const reasons = countBy(ledger, (r) => r.reason);
  expect(Object.fromEntries(reasons)).toEqual({ grant: 1, batch: 1, scrape: scrapeNs.length });
  expect(ledger.find((r) => r.reason === 'batch')).toMatchObject({
    amount: -BATCH_SIZE * BATCH_ITEM_PRICE,
    reference: batchId,
  });
  const scrapeRows = ledger.filter((r) => r.reason === 'scrape');
  expect(scrapeRows.every((r) => r.amount === -SCRAPE_PRICE)).toBe(true);
  expect(new Set(scrapeRows.map((r) => r.reference)).size).toBe(scrapeNs.length);
  const expectedCost = BATCH_SIZE * BATCH_ITEM_PRICE + scrapeNs.length * SCRAPE_PRICE;
  expect(balance).toBe(START_CREDITS - expectedCost);
  expect(ledger.reduce((sum, r) => sum + r.amount, 0)).toBe(START_CREDITS - expectedCost);

  // Shared: BullMQ records the worker name (host:pid) of the process that took each job.
  const names = workers.map((w) => `${hostname()}:${w.pid}`);
  for (const [queue, expected] of [
    ['scrape-batch', BATCH_SIZE],
    ['scrape', scrapeNs.length],
  ] as const) {
    const jobs = await settledJobs(queue, expected);
    expect(jobs).toHaveLength(expected);
    // attemptsStarted: a job re-run after a stall or a retry would count 2.
    expect(jobs.filter((j) => j.attemptsStarted !== 1).map((j) => j.id)).toEqual([]);
    const byWorker = countBy(jobs, (j) => j.processedBy ?? 'unnamed');
    expect([...byWorker.keys()].sort()).toEqual([...names].sort());
    process.stdout.write(`${queue}: ${names.map((n) => `${n} ran ${byWorker.get(n) ?? 0}`).join(', ')}\n`);
  }
  process.stdout.write(`two-of-everything: traffic done in ${Date.now() - startedAt} ms\n`);
}, 120_000);
