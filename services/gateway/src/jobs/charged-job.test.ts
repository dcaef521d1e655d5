import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { rawEnv } from '@wcs/config';
import { AccountsRepository, CreditsRepository, type Db } from '@wcs/db';
import { openTestDb } from '@wcs/db/src/test-support/test-database';
import {
  InsufficientCreditsError,
  SelectorTooExpensiveError,
  TargetHttpError,
  TimeoutError,
} from '@wcs/errors';
import { type DefinedWorker, defineWorker, QueueProducer, type ScrapeJobResult } from '@wcs/queues';
import { BalanceHints } from './balance-hints';
import { runChargedJob, runChargedWork } from './charged-job';
import { PendingWork } from './pending-work';

/** The billing mechanism against real PostgreSQL (and, for runChargedJob, a real BullMQ queue). */
let db: Db;
let credits: CreditsRepository;
let accounts: AccountsRepository;

beforeAll(async () => {
  db = await openTestDb();
  credits = new CreditsRepository(db);
  accounts = new AccountsRepository(db);
});
afterAll(() => db.close());

async function account(balance: number): Promise<string> {
  return (await accounts.create({ plan: 'free', credits: balance })).accountId;
}

/** The account's ledger without its opening grant, oldest first. */
async function ledger(accountId: string) {
  const rows = await credits.ledger(accountId, 1000);
  return rows
    .filter((r) => r.reason !== 'grant')
    .reverse()
    .map((r) => ({ reason: r.reason, amount: r.amount, reference: r.reference }));
}

const terms = (accountId: string, requestId = randomUUID()) => ({
  accountId,
  requestId,
  reserve: 8,
  reason: 'search' as const,
  refundReason: 'search_refund' as const,
});

describe('runChargedWork', () => {
  it('reserves up front and refunds what the work did not use in one row, same reference', async () => {
    const accountId = await account(100);
    const pending = new PendingWork();
    const t = terms(accountId);
    let balanceDuringWork = -1;
    const r = await runChargedWork({ credits, pending }, t, async () => {
      balanceDuringWork = await credits.balance(accountId);
      return { value: 'three results', cost: 6 };
    });
    expect(r).toEqual({ value: 'three results', cost: 6 });
    expect(balanceDuringWork).toBe(92);
    expect(await credits.balance(accountId)).toBe(94);
    expect(await ledger(accountId)).toEqual([
      { reason: 'search', amount: -8, reference: t.requestId },
      { reason: 'search_refund', amount: 2, reference: t.requestId },
    ]);
    expect(pending.size).toBe(0);
  });

  it('settling to the full reserve writes no refund row', async () => {
    const accountId = await account(10);
    const t = terms(accountId);
    await runChargedWork({ credits, pending: new PendingWork() }, t, async () => ({ value: 1, cost: 8 }));
    expect(await credits.balance(accountId)).toBe(2);
    expect(await ledger(accountId)).toEqual([{ reason: 'search', amount: -8, reference: t.requestId }]);
  });

  it('a failing work is refunded completely and rethrown as a ServiceError', async () => {
    const accountId = await account(10);
    const pending = new PendingWork();
    const t = terms(accountId);
    await expect(
      runChargedWork({ credits, pending }, t, async () => {
        throw new TimeoutError('too slow');
      }),
    ).rejects.toMatchObject({ code: 'TIMEOUT', message: 'too slow' });
    await expect(
      runChargedWork({ credits, pending }, terms(accountId), async () => {
        throw new Error('database hiccup');
      }),
    ).rejects.toMatchObject({ code: 'INTERNAL', message: 'database hiccup' });
    expect(await credits.balance(accountId)).toBe(10);
    const rows = await ledger(accountId);
    expect(rows.slice(0, 2)).toEqual([
      { reason: 'search', amount: -8, reference: t.requestId },
      { reason: 'search_refund', amount: 8, reference: t.requestId },
    ]);
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(0);
    expect(pending.size).toBe(0);
  });

  it("a failure the caller's own options caused (a billed kind) keeps the reserve, rethrown as itself", async () => {
    const accountId = await account(10);
    const t = terms(accountId);
    const cut = new SelectorTooExpensiveError('includeTags took too long', {
      details: { selectorBudgetMs: 5000, field: 'includeTags' },
    });
    await expect(
      runChargedWork({ credits, pending: new PendingWork() }, t, async () => {
        throw cut;
      }),
    ).rejects.toBe(cut);
    expect(await credits.balance(accountId)).toBe(2);
    expect(await ledger(accountId)).toEqual([{ reason: 'search', amount: -8, reference: t.requestId }]);
    // With a billedFailureCost (extract: the page, not the model), the rest goes back.
    const t2 = { ...terms(accountId), reserve: 2, billedFailureCost: 1 };
    await expect(
      runChargedWork({ credits, pending: new PendingWork() }, t2, async () => {
        throw cut;
      }),
    ).rejects.toBe(cut);
    expect(await credits.balance(accountId)).toBe(1);
  });

  it('a cost outside 0…reserve is a bug: INTERNAL, everything refunded', async () => {
    const accountId = await account(10);
    await expect(
      runChargedWork({ credits, pending: new PendingWork() }, terms(accountId), async () => ({
        value: null,
        cost: 9,
      })),
    ).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(await credits.balance(accountId)).toBe(10);
  });

  it('cannot reserve: 402, nothing charged, the work never starts', async () => {
    const accountId = await account(7);
    const pending = new PendingWork();
    let started = false;
    await expect(
      runChargedWork({ credits, pending }, terms(accountId), async () => {
        started = true;
        return { value: null, cost: 0 };
      }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(started).toBe(false);
    expect(await ledger(accountId)).toEqual([]);
    expect(pending.size).toBe(0);
  });

  it('is idempotent per request id: the same id again charges and refunds nothing more', async () => {
    const accountId = await account(100);
    const t = terms(accountId);
    const deps = { credits, pending: new PendingWork() };
    await runChargedWork(deps, t, async () => ({ value: null, cost: 4 }));
    await runChargedWork(deps, t, async () => ({ value: null, cost: 2 }));
    await expect(
      runChargedWork(deps, t, async () => {
        throw new Error('boom');
      }),
    ).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(await credits.balance(accountId)).toBe(96);
    expect(await ledger(accountId)).toEqual([
      { reason: 'search', amount: -8, reference: t.requestId },
      { reason: 'search_refund', amount: 4, reference: t.requestId },
    ]);
  });

  it('shutdown waits on work in flight until its refund is written', async () => {
    const accountId = await account(10);
    const pending = new PendingWork();
    let fail: (err: Error) => void = () => {};
    const running = runChargedWork(
      { credits, pending },
      terms(accountId),
      () =>
        new Promise<{ value: null; cost: number }>((_, reject) => {
          fail = reject;
        }),
    ).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    expect(pending.size).toBe(1);
    expect(await pending.settle(50)).toBe(1);
    const settled = pending.settle(10_000);
    fail(new Error('queue closed'));
    expect(await settled).toBe(0);
    // Settled means refunded: the balance is whole again the moment settle() returns.
    expect(await credits.balance(accountId)).toBe(10);
    await expect(running).resolves.toMatchObject({ code: 'INTERNAL' });
  });
});

/** A `scrape` job result inside the document contract. */
function okResult(requestId: string, url: string): ScrapeJobResult {
  return {
    data: {
      markdown: `# ${requestId}`,
      html: '<h1></h1>',
      text: requestId,
      metadata: { title: requestId, statusCode: 200, sourceURL: url, finalUrl: url, language: null },
    },
    engine: 'fetch',
    elapsedMs: 1,
  };
}

describe('runChargedJob', () => {
  const prefix = `t-${randomUUID().slice(0, 8)}`;
  const redisUrl = rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379';
  let producer: QueueProducer;
  let worker: DefinedWorker;
  const hangs = new Map<string, { deadlineAt?: number | undefined; abortedAt?: number; reason?: unknown }>();
  /** Request ids of every job a worker ran. */
  const ran = new Set<string>();

  beforeAll(async () => {
    producer = new QueueProducer(redisUrl, prefix);
    // The worker's answer depends on the URL: /ok answers, /off-contract answers outside the
    // document contract, /hang runs until its signal fires, anything else is the target's 404.
    worker = defineWorker(
      'scrape',
      async (p, _job, ctx) => {
        ran.add(p.requestId);
        if (p.url.endsWith('/ok')) return okResult(p.requestId, p.url);
        if (p.url.endsWith('/hang')) {
          hangs.set(p.requestId, { deadlineAt: p.deadlineAt });
          return new Promise<never>((_, reject) =>
            ctx.signal.addEventListener('abort', () => {
              hangs.set(p.requestId, {
                deadlineAt: p.deadlineAt,
                abortedAt: Date.now(),
                reason: ctx.signal.reason,
              });
              reject(ctx.signal.reason);
            }),
          );
        }
        if (p.url.endsWith('/off-contract')) {
          const r = okResult(p.requestId, p.url);
          return { ...r, data: { ...r.data, metadata: { ...r.data.metadata, statusCode: '200', extra: 1 } } };
        }
        throw new TargetHttpError(404);
      },
      { redis: redisUrl, prefix, concurrency: 2, lockDurationMs: 30_000, stalledIntervalMs: 15_000 },
    );
    await worker.worker.waitUntilReady();
    await producer.queueEvents('scrape').waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
    await producer?.close();
  });

  const scrape = (
    accountId: string,
    requestId: string,
    url: string,
    more: {
      waitMs?: number;
      caller?: EventEmitter & { writableFinished: boolean };
      credits?: CreditsRepository;
      balances?: BalanceHints;
    } = {},
  ) =>
    runChargedJob(
      {
        credits: more.credits ?? credits,
        producer,
        pending: new PendingWork(),
        ...(more.balances ? { balances: more.balances } : {}),
      },
      {
        accountId,
        requestId,
        cost: 1,
        reason: 'scrape',
        refundReason: 'scrape_refund',
        queue: 'scrape',
        payload: { requestId, accountId, url, format: 'markdown', onlyMainContent: true, timeoutMs: 5_000 },
        waitMs: more.waitMs ?? 10_000,
        ...(more.caller ? { caller: more.caller } : {}),
      },
    );

  it("charges the full cost when the job answers, and returns the job's value", async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    await expect(scrape(accountId, requestId, 'https://example.com/ok')).resolves.toEqual(
      okResult(requestId, 'https://example.com/ok'),
    );
    expect(await ledger(accountId)).toEqual([{ reason: 'scrape', amount: -1, reference: requestId }]);
  });

  it('validates the result against the document contract: outside it is INTERNAL and refunded', async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    const err = await scrape(accountId, requestId, 'https://example.com/off-contract').catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'INTERNAL', status: 500 });
    const issues = (err as { details: { issues: Array<{ path: string }> } }).details.issues;
    expect(issues.map((i) => i.path).sort()).toEqual(['data.metadata', 'data.metadata.statusCode']);
    expect(await credits.balance(accountId)).toBe(3);
  });

  it("refunds when the job fails; the worker's error kind survives the queue", async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    await expect(scrape(accountId, requestId, 'https://example.com/missing')).rejects.toMatchObject({
      code: 'TARGET_HTTP_ERROR',
      status: 502,
    });
    expect(await credits.balance(accountId)).toBe(3);
    expect(await ledger(accountId)).toEqual([
      { reason: 'scrape', amount: -1, reference: requestId },
      { reason: 'scrape_refund', amount: 1, reference: requestId },
    ]);
  });

  it('leaves no job and runs nothing when the account cannot pay', async () => {
    const accountId = await account(0);
    const requestId = randomUUID();
    await expect(scrape(accountId, requestId, 'https://example.com/ok')).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    expect(await producer.queue('scrape').getJob(requestId)).toBeUndefined();
    expect(ran.has(requestId)).toBe(false);
  });

  it('adds the job while the credits are reserved, held from the workers until the charge is in', async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    const queue = producer.queue('scrape');
    const seen: { state?: string; ran?: boolean } = {};
    // The real repository, its charge started only once the job is in the queue.
    const slow = Object.create(credits) as CreditsRepository;
    slow.charge = async (...args: Parameters<CreditsRepository['charge']>) => {
      for (let i = 0; i < 3_000 && !(await queue.getJob(requestId)); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      seen.state = await queue.getJobState(requestId);
      seen.ran = ran.has(requestId);
      return credits.charge(...args);
    };
    await expect(scrape(accountId, requestId, 'https://example.com/ok', { credits: slow })).resolves.toEqual(
      okResult(requestId, 'https://example.com/ok'),
    );
    expect(seen).toEqual({ state: 'delayed', ran: false });
    expect(await ledger(accountId)).toEqual([{ reason: 'scrape', amount: -1, reference: requestId }]);
  });

  /** The real repository, its charge made only once `ready` holds (the job's progress). */
  const chargeOnce = (ready: () => boolean | Promise<boolean>, seen?: () => Promise<void>) => {
    const slow = Object.create(credits) as CreditsRepository;
    slow.charge = async (...args: Parameters<CreditsRepository['charge']>) => {
      for (let i = 0; i < 3_000 && !(await ready()); i++) await new Promise((r) => setTimeout(r, 10));
      await seen?.();
      return credits.charge(...args);
    };
    return slow;
  };

  it("starts the job beside the charge when the key's last charge left enough; answers once charged", async () => {
    const accountId = await account(3);
    const balances = new BalanceHints();
    // The first request of the key waits for its charge (nothing known yet), and leaves a hint.
    const first = randomUUID();
    await scrape(accountId, first, 'https://example.com/ok', { balances });
    const requestId = randomUUID();
    let ranBeforeCharge = false;
    const slow = chargeOnce(
      () => ran.has(requestId),
      async () => {
        ranBeforeCharge = ran.has(requestId);
      },
    );
    await expect(
      scrape(accountId, requestId, 'https://example.com/ok', { balances, credits: slow }),
    ).resolves.toEqual(okResult(requestId, 'https://example.com/ok'));
    expect(ranBeforeCharge).toBe(true);
    expect(await ledger(accountId)).toEqual([
      { reason: 'scrape', amount: -1, reference: first },
      { reason: 'scrape', amount: -1, reference: requestId },
    ]);
  });

  it('a hint gone stale: the charge is refused (402), the started job cancelled, nothing billed', async () => {
    const accountId = await account(2);
    const balances = new BalanceHints();
    await scrape(accountId, randomUUID(), 'https://example.com/ok', { balances });
    // Another gateway spends the rest: this one still believes 1 credit is left.
    await credits.charge(accountId, 1, { reason: 'scrape', reference: randomUUID() });
    const requestId = randomUUID();
    const err = await scrape(accountId, requestId, 'https://example.com/hang', {
      balances,
      credits: chargeOnce(() => hangs.has(requestId)),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    const seen = await waitFor(
      () => hangs.get(requestId)?.abortedAt !== undefined,
      () => hangs.get(requestId),
    );
    expect(String((seen?.reason as Error | undefined)?.message)).toMatch(/charge was refused/);
    expect(await credits.balance(accountId)).toBe(0);
    expect((await ledger(accountId)).map((r) => r.reference)).not.toContain(requestId);
    // The key waits for its charges again: the next request's job is held until its charge.
    await credits.credit(accountId, 1, { reason: 'topup', reference: randomUUID() });
    const next = randomUUID();
    const state: { at?: string } = {};
    const held = chargeOnce(
      async () => (await producer.queue('scrape').getJob(next)) !== undefined,
      async () => {
        state.at = await producer.queue('scrape').getJobState(next);
      },
    );
    await scrape(accountId, next, 'https://example.com/ok', { balances, credits: held });
    expect(state.at).toBe('delayed');
  });

  it('a held job the queue cannot release is UNAVAILABLE (503), refunded, and never runs', async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    const queue = producer.queue('scrape');
    // The real repository; before its charge, the held job is taken out of the queue behind our back.
    const racing = Object.create(credits) as CreditsRepository;
    racing.charge = async (...args: Parameters<CreditsRepository['charge']>) => {
      for (let i = 0; i < 3_000 && !(await queue.getJob(requestId)); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      await queue.remove(requestId);
      return credits.charge(...args);
    };
    await expect(
      scrape(accountId, requestId, 'https://example.com/ok', { credits: racing }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(ran.has(requestId)).toBe(false);
    expect(await ledger(accountId)).toEqual([
      { reason: 'scrape', amount: -1, reference: requestId },
      { reason: 'scrape_refund', amount: 1, reference: requestId },
    ]);
  });

  it('gives the job its deadline and cancels it when the wait times out; refunded once', async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    const sent = Date.now();
    await expect(
      scrape(accountId, requestId, 'https://example.com/hang', { waitMs: 1_000 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    const gaveUpAt = Date.now();
    const seen = await waitFor(
      () => hangs.get(requestId)?.abortedAt !== undefined,
      () => hangs.get(requestId),
    );
    expect(seen?.deadlineAt).toBeGreaterThanOrEqual(sent + 1_000);
    expect(seen?.deadlineAt).toBeLessThanOrEqual(gaveUpAt + 50);
    // Aborted by the gateway's cancel or by its own deadline (the gateway's), which coincide.
    expect(seen?.reason).toMatchObject({ code: 'TIMEOUT', retryable: false });
    expect(await ledger(accountId)).toEqual([
      { reason: 'scrape', amount: -1, reference: requestId },
      { reason: 'scrape_refund', amount: 1, reference: requestId },
    ]);
  });

  it('cancels the job when the caller goes away before the answer; refunded once', async () => {
    const accountId = await account(3);
    const requestId = randomUUID();
    const caller = Object.assign(new EventEmitter(), { writableFinished: false });
    const running = scrape(accountId, requestId, 'https://example.com/hang', { caller }).catch(
      (e: unknown) => e,
    );
    await waitFor(
      () => hangs.has(requestId),
      () => true,
    );
    caller.emit('close');
    await expect(running).resolves.toMatchObject({ code: 'TIMEOUT' });
    const seen = await waitFor(
      () => hangs.get(requestId)?.abortedAt !== undefined,
      () => hangs.get(requestId),
    );
    // Aborted by the disconnect (its reason), not by the job's deadline.
    expect(String((seen?.reason as Error | undefined)?.message)).toMatch(/client disconnected/);
    expect(await credits.balance(accountId)).toBe(3);
    expect((await ledger(accountId)).filter((r) => r.reason === 'scrape_refund')).toHaveLength(1);
  });
});

/** Poll `ready` every 10 ms for up to 10 s, then return `value()`. */
async function waitFor<T>(ready: () => boolean, value: () => T): Promise<T> {
  // A safety net, generous for a loaded machine: the conditions are events, not speeds.
  const end = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > end) throw new Error('condition not met within 30 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  return value();
}
