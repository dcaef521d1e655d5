/**
 * The content pool shared by accounts (real worker threads): a page's budget counts from when a
 * thread begins it, accounts are served round-robin, a page whose caller gives up while it waits
 * is dropped, and costly selectors are cut by their own budget with a billed error.
 */
import { SelectorTooExpensiveError, ServiceUnavailableError, TimeoutError } from '@wcs/errors';
import type { ContentTask } from './content.task';
import { ContentPool, type ConvertedPage } from './content-pool';
import { heavyPages } from './test-support/heavy-pages';

const task = (body: string, over: Partial<ContentTask> = {}): ContentTask => ({
  body,
  contentType: 'text/html',
  finalUrl: 'http://site.test/page',
  sourceUrl: 'http://site.test/page',
  statusCode: 200,
  format: 'markdown',
  onlyMainContent: true,
  links: false,
  ...over,
});

/** The probe's flood: a selector quadratic in the siblings, on a page of 40,000 (~30 s uncut). */
const hostile = (): ContentTask => task(heavyPages.wideSiblings(), { includeTags: ['div:has(~ div)'] });

/** Settles to the value or the error, and records in `log` when it did. */
function settled(
  log: string[],
  name: string,
  p: Promise<ConvertedPage>,
): Promise<{ ok: true; page: ConvertedPage } | { ok: false; err: unknown }> {
  return p.then(
    (page) => {
      log.push(name);
      return { ok: true as const, page };
    },
    (err: unknown) => {
      log.push(name);
      return { ok: false as const, err };
    },
  );
}

describe('ContentPool: the budget counts from when a thread begins the page', () => {
  it('a page queued behind one that spends its whole budget still gets its own budget', async () => {
    // Selector budget above the page budget: the first page runs until TIMEOUT holds the thread.
    const pool = new ContentPool({
      threads: 1,
      idleTimeoutMs: 5_000,
      taskTimeoutMs: 3_000,
      selectorBudgetMs: 600_000,
      heapMb: 512,
    });
    try {
      const slow = pool.run(hostile(), undefined, undefined, 'acct-a').catch((e: unknown) => e);
      const queued = pool.run(task(heavyPages.normal()), undefined, undefined, 'acct-b');
      expect(pool.stats()).toMatchObject({ running: 1, queued: 1 });
      const err = await slow;
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as TimeoutError).details).toEqual({ contentTimeoutMs: 3_000 });
      // Counted from its hand-off, its budget would have run out while it waited.
      expect((await queued).data.markdown).toContain('Normal page');
    } finally {
      await pool.close();
    }
  });

  it("a new thread's start (loading the pipeline) is not the page's time", async () => {
    // A cold thread loads its code first (0.5-3 s under tsx); the page itself takes milliseconds.
    const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: 1_000, heapMb: 256 });
    try {
      expect(pool.threadCount).toBe(0);
      expect((await pool.run(task(heavyPages.normal()))).data.markdown).toContain('Normal page');
    } finally {
      await pool.close();
    }
  });
});

describe('ContentPool: accounts share the threads', () => {
  it("one account's flood does not sit in front of another account's page", async () => {
    const pool = new ContentPool({
      threads: 2,
      idleTimeoutMs: 5_000,
      taskTimeoutMs: 60_000,
      selectorBudgetMs: 1_500,
      heapMb: 512,
    });
    try {
      const log: string[] = [];
      const flood = [1, 2, 3, 4].map((i) =>
        settled(log, `a${i}`, pool.run(hostile(), undefined, undefined, 'acct-a')),
      );
      const mine = settled(log, 'b', pool.run(task(heavyPages.normal()), undefined, undefined, 'acct-b'));
      expect(pool.stats()).toMatchObject({ running: 2, queued: 3 });
      const b = await mine;
      const a = await Promise.all(flood);
      expect(b.ok && b.page.data.markdown).toContain('Normal page');
      // B went to the first thread A freed, ahead of A's third and fourth pages (FIFO: after a3).
      expect(log.indexOf('b')).toBeLessThan(log.indexOf('a3'));
      expect(log.indexOf('b')).toBeLessThan(log.indexOf('a4'));
      // Every hostile page was cut by its selector budget, with the billed kind.
      for (const r of a) {
        expect(r.ok).toBe(false);
        const err = (r as { err: unknown }).err;
        expect(err).toBeInstanceOf(SelectorTooExpensiveError);
        expect((err as SelectorTooExpensiveError).details).toEqual({
          selectorBudgetMs: 1_500,
          field: 'includeTags',
        });
        expect((err as SelectorTooExpensiveError).billed).toBe(true);
      }
    } finally {
      await pool.close();
    }
  });

  it('a page whose caller gives up while it waits is dropped, never run', async () => {
    const pool = new ContentPool({
      threads: 1,
      idleTimeoutMs: 5_000,
      taskTimeoutMs: 60_000,
      selectorBudgetMs: 2_000,
      heapMb: 512,
    });
    try {
      const busy = pool.run(hostile(), undefined, undefined, 'acct-a').catch((e: unknown) => e);
      // The job's deadline (its budgetMs) passes while it waits: TIMEOUT, not a run.
      const late = pool.run(task(heavyPages.normal()), undefined, 50, 'acct-b').catch((e: unknown) => e);
      // The job is cancelled while it waits: its signal's reason.
      const ac = new AbortController();
      const cancelled = pool
        .run(task(heavyPages.normal()), ac.signal, undefined, 'acct-c')
        .catch((e: unknown) => e);
      expect(pool.stats()).toMatchObject({ running: 1, queued: 2 });
      const reason = new Error('job cancelled');
      ac.abort(reason);
      expect(await cancelled).toBe(reason);
      const lateErr = await late;
      expect(lateErr).toBeInstanceOf(TimeoutError);
      // What was left of its 50 ms budget when it was queued (a millisecond may pass before that).
      const queued = (lateErr as TimeoutError).details?.contentQueuedMs as number;
      expect(queued).toBeGreaterThan(40);
      expect(queued).toBeLessThanOrEqual(50);
      // Neither ran: the hostile page still holds the only thread, nothing waits.
      expect(pool.stats()).toMatchObject({ running: 1, queued: 0 });
      expect(await busy).toBeInstanceOf(SelectorTooExpensiveError);
      expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  });

  it('closing the pool fails the pages still waiting (UNAVAILABLE, retryable) instead of leaving them', async () => {
    const pool = new ContentPool({ threads: 1, idleTimeoutMs: 5_000, taskTimeoutMs: 60_000, heapMb: 512 });
    const busy = pool.run(hostile(), undefined, undefined, 'acct-a').catch((e: unknown) => e);
    const waiting = pool
      .run(task(heavyPages.normal()), undefined, undefined, 'acct-b')
      .catch((e: unknown) => e);
    expect(pool.stats()).toMatchObject({ running: 1, queued: 1 });
    await pool.close();
    const err = await waiting;
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryable).toBe(true);
    // Handed its thread just before the close, not yet on it: it does not start a new piscina.
    expect(await busy).toBeInstanceOf(ServiceUnavailableError);
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
    expect(pool.threadCount).toBe(0);
  });
});
