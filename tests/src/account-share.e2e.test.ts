/**
 * A fair share of the scrape worker's job slots per account, through the real stack (gateway +
 * one scrape worker of concurrency 2, PostgreSQL, Redis): one account's scrapes cannot hold every
 * slot while another account's scrape waits behind them in the queue. The target holds A's pages
 * until the test releases them, so the order of events (not a stopwatch) is what is checked.
 */
import { createServer, type ServerResponse } from 'node:http';
import { QueueProducer } from '@wcs/queues';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_REDIS_URL,
  type TestAccount,
} from './harness';

jest.setTimeout(90_000);

const PAGE = '<html><head><title>t</title></head><body><main><h1>Page</h1><p>Text.</p></main></body></html>';

/** Every page's arrival at either target, in order. */
const order: string[] = [];

/** `/hold?id=` answers when the test calls `release(id)`; `/ok?id=` at once. Arrivals in order. */
async function startTarget() {
  const arrivals: string[] = [];
  const held = new Map<string, ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id') ?? url.pathname;
    arrivals.push(id);
    order.push(id);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (url.pathname === '/hold') held.set(id, res);
    else res.end(PAGE);
  });
  const listening: ListeningServer = await listenLocal(server);
  return {
    server: listening,
    arrivals,
    release(id: string) {
      held.get(id)?.end(PAGE);
      held.delete(id);
    },
  };
}

let stack: Stack;
let targetA: Awaited<ReturnType<typeof startTarget>>;
/** A host of its own, so no per-host limit of the fetcher ties B's page to A's. */
let targetB: Awaited<ReturnType<typeof startTarget>>;
let a: TestAccount;
let b: TestAccount;
let producer: QueueProducer;

beforeAll(async () => {
  targetA = await startTarget();
  targetB = await startTarget();
  stack = await startStack({ env: { WORKER_CONCURRENCY: '2' } });
  a = await createTestAccount({ plan: 'hobby', credits: 100 });
  b = await createTestAccount({ plan: 'hobby', credits: 100 });
  producer = new QueueProducer(TEST_REDIS_URL, stack.env.QUEUE_PREFIX ?? '');
});
afterAll(async () => {
  await producer?.close();
  await stack?.close();
  await targetA?.server.close();
  await targetB?.server.close();
});

function scrape(account: TestAccount, url: string, timeout: number): Promise<Response> {
  return fetch(`${stack.url}/v1/scrape`, {
    method: 'POST',
    headers: { ...account.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url, timeout, engine: 'fetch' }),
  });
}

/** Until `n` scrape jobs wait in the queue (none running). */
const waiting = (n: number) =>
  pollUntil(
    async () => ((await producer.queue('scrape').getWaitingCount()) === n ? true : undefined),
    30_000,
    20,
  );

/** How many times the worker took each completed scrape job whose page id starts with `prefix`. */
async function startsOf(prefix: string): Promise<number[]> {
  const jobs = await producer.queue('scrape').getJobs(['completed'], 0, -1);
  return jobs
    .filter((j) =>
      new URL(String((j.data as { url: string }).url)).searchParams.get('id')?.startsWith(prefix),
    )
    .map((j) => j.attemptsStarted);
}

const arrived = (target: typeof targetA, ...ids: string[]) =>
  pollUntil(async () => (ids.every((id) => target.arrivals.includes(id)) ? true : undefined), 30_000, 20);

describe('scrape worker: a fair share of its slots per account', () => {
  it("runs another account's scrape before an account's jobs beyond its share, keeping every charge", async () => {
    // A alone: it gets both slots (no one else waits), and a third job waits in the queue.
    const a1 = scrape(a, `${targetA.server.url}/hold?id=a1`, 60_000);
    const a2 = scrape(a, `${targetA.server.url}/hold?id=a2`, 60_000);
    await arrived(targetA, 'a1', 'a2');
    const a3 = scrape(a, `${targetA.server.url}/hold?id=a3`, 60_000);
    // a3 is queued before B's scrape: B's job waits behind it.
    await waiting(1);
    const b1 = scrape(b, `${targetB.server.url}/ok?id=b1`, 20_000);
    await waiting(2);

    // One of A's slots frees. First in line is a3, but A holds its share (1 of 2) and B waits:
    // a3 goes back behind B, and B's scrape answers while A's other pages are still held.
    targetA.release('a1');
    const bAnswer = await b1;
    expect(bAnswer.status).toBe(200);

    // Then a3 runs too, after B's page: the same job, charged once, never refunded.
    await arrived(targetA, 'a3');
    expect(order.indexOf('b1')).toBeLessThan(order.indexOf('a3'));
    targetA.release('a2');
    targetA.release('a3');
    const answers = await Promise.all([a1, a2, a3]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    // a3 was taken, put back (no work done), and taken again; a1 and a2 once.
    const [a1Starts, a2Starts, a3Starts] = await Promise.all(['a1', 'a2', 'a3'].map(startsOf));
    expect([a1Starts, a2Starts]).toEqual([[1], [1]]);
    expect(a3Starts?.[0]).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(a.accountId)).toBe(97);
    expect(await balanceOf(b.accountId)).toBe(99);
  });

  it('never puts back the jobs of an account alone, even with its own jobs waiting', async () => {
    // Four of A's pages, two slots, no other account: A holds both (over its share of 1) and its
    // own two waiting jobs are not "someone else waiting".
    const ids = ['alone1', 'alone2', 'alone3', 'alone4'];
    const answers = ids.slice(0, 2).map((id) => scrape(a, `${targetA.server.url}/hold?id=${id}`, 60_000));
    await arrived(targetA, 'alone1', 'alone2');
    answers.push(...ids.slice(2).map((id) => scrape(a, `${targetA.server.url}/hold?id=${id}`, 60_000)));
    await waiting(2);
    targetA.release('alone1');
    // The freed slot goes to whichever of the two was queued first (both sent at once).
    const third = await pollUntil(
      async () => ['alone3', 'alone4'].find((id) => targetA.arrivals.includes(id)),
      30_000,
      20,
    );
    const fourth = third === 'alone3' ? 'alone4' : 'alone3';
    for (const id of ['alone2', third]) targetA.release(id);
    await arrived(targetA, fourth);
    targetA.release(fourth);
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Each job was taken once: none went back to the delayed set.
    expect(await startsOf('alone')).toEqual([1, 1, 1, 1]);
  });

  it("serves a batch created behind another account's batch without waiting for all of it", async () => {
    // A's batch of four held pages: two run, two wait.
    const urls = (ids: string[], t: typeof targetA, path: string) =>
      ids.map((id) => `${t.server.url}${path}?id=${id}`);
    const startA = await batch(a, urls(['ba1', 'ba2', 'ba3', 'ba4'], targetA, '/hold'));
    expect(startA.status).toBe(202);
    await arrived(targetA, 'ba1', 'ba2');
    const startB = await batch(b, urls(['bb1'], targetB, '/ok'));
    expect(startB.status).toBe(202);
    const bId = ((await startB.json()) as { id: string }).id;
    // B's item is queued behind A's two waiting items.
    await pollUntil(
      async () => {
        const counts = await producer.queue('scrape-batch').getJobCounts('waiting', 'prioritized');
        return (counts.waiting ?? 0) + (counts.prioritized ?? 0) === 3 ? true : undefined;
      },
      30_000,
      20,
    );

    // A slot frees: B's first item goes before A's third, and B's batch ends while A's are held.
    targetA.release('ba1');
    await pollUntil(async () => ((await batchStatus(b, bId)) === 'done' ? true : undefined), 30_000, 50);
    await arrived(targetA, 'ba3');
    expect(order.indexOf('bb1')).toBeLessThan(order.indexOf('ba3'));
    for (const id of ['ba2', 'ba3']) targetA.release(id);
    await arrived(targetA, 'ba4');
    targetA.release('ba4');
    const aId = ((await startA.json()) as { id: string }).id;
    await pollUntil(async () => ((await batchStatus(a, aId)) === 'done' ? true : undefined), 30_000, 50);
  });
});

function batch(account: TestAccount, urls: string[]): Promise<Response> {
  return fetch(`${stack.url}/v1/batch/scrape`, {
    method: 'POST',
    headers: { ...account.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ urls }),
  });
}

async function batchStatus(account: TestAccount, id: string): Promise<string> {
  const res = await fetch(`${stack.url}/v1/batch/scrape/${id}`, { headers: account.auth });
  return ((await res.json()) as { status: string }).status;
}
