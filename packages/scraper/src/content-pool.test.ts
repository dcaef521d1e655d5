import { once } from 'node:events';
import { contentEnv, loadEnv } from '@wcs/config';
import { TargetTooLargeError, TimeoutError } from '@wcs/errors';
import type { RenderResult } from '@wcs/renderer';
import { DOCX_BOMB_TEXT, docxBomb } from '@wcs/testing';
import type { ContentTask } from './content.task';
import { ContentPool, type ContentPoolOptions, contentPoolOptions } from './content-pool';
import { documentFromPage } from './scrape-document';
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

/**
 * What the calling process may grow by over a heavy page (its memory lives in the threads). Growth,
 * not absolute RSS: jest runs many files in one process, so its RSS at the start is not ours.
 */
const RSS_GROWTH_BOUND_MB = 400;
// A safety net, not the assertion: the input caps must answer (with a warning) long before it.
// Under jest's 60 s per test, so a page past it fails as TIMEOUT rather than as a jest timeout.
const BUDGET_MS = 40_000;

describe('ContentPool warm-up', () => {
  const poolOf = (threads: number, over: Partial<ContentPoolOptions> = {}) =>
    new ContentPool({ threads, idleTimeoutMs: 60_000, taskTimeoutMs: BUDGET_MS, heapMb: 256, ...over });

  it('starts every thread and runs the built-in page through them; pages convert as usual after it', async () => {
    const warm = poolOf(2);
    try {
      expect(await warm.warmUp(4)).toBe(8);
      expect(warm.threadCount).toBe(2);
      const out = await warm.run(task(heavyPages.normal()));
      expect(out.data.markdown).toContain('# Normal page');
    } finally {
      await warm.close();
    }
  });

  it('a real page ends the warm-up: the threads take it after at most the warm-up page they are on', async () => {
    const warm = poolOf(2);
    try {
      const warming = warm.warmUp(30);
      const out = await warm.run(task(heavyPages.normal()));
      expect(out.data.markdown).toContain('# Normal page');
      // Each thread finishes the page it was on, and starts no other.
      expect(await warming).toBeLessThanOrEqual(2);
    } finally {
      await warm.close();
    }
  });

  it('warmUpIfWanted starts nothing without `warmUp`', async () => {
    const cold = poolOf(1);
    cold.warmUpIfWanted();
    expect(cold.threadCount).toBe(0);
    await cold.close();
  });

  it('with `warmUp` set, warmUpIfWanted starts the threads; closing the pool meanwhile ends the warm-up', async () => {
    const warm = poolOf(1, { warmUp: true });
    warm.warmUpIfWanted();
    expect(warm.threadCount).toBe(1);
    await warm.close();
    expect(warm.threadCount).toBe(0);
  });
});

describe('ContentPool', () => {
  const pool = new ContentPool({ threads: 2, idleTimeoutMs: 300, taskTimeoutMs: BUDGET_MS, heapMb: 768 });
  afterAll(() => pool.close());

  it('converts a page in a thread, links from the same parse, no warning', async () => {
    const out = await pool.run(task(heavyPages.normal(), { links: true }));
    expect(out.data.markdown).toContain('# Normal page');
    expect(out.data.metadata).toMatchObject({
      title: 'Normal',
      statusCode: 200,
      sourceURL: 'http://site.test/page',
    });
    expect(out.data.warning).toBeUndefined();
    expect(out.links?.map((l) => l.url)).toEqual(['http://site.test/', 'http://site.test/next']);
  });

  it.each([
    ['100k nested divs', heavyPages.nestedDivs, /nesting too deep/],
    ['a 5 MB text node', heavyPages.hugeTextNode, /text nodes were cut/],
    ['100k links', heavyPages.manyLinks, /links beyond 20000/],
    ['20 MB of HTML', heavyPages.twentyMb, /the page beyond 12000000 characters/],
  ])('%s: an answer within the budget, with the warning', async (_name, build, warning) => {
    const rssBefore = process.memoryUsage().rss;
    // Within the budget: past taskTimeoutMs the pool rejects with TIMEOUT instead of answering.
    const out = await pool.run(task(build(), { links: true }));
    expect(out.data.warning).toMatch(warning);
    expect(out.data.markdown?.length).toBeGreaterThan(0);
    expect((process.memoryUsage().rss - rssBefore) / 2 ** 20).toBeLessThan(RSS_GROWTH_BOUND_MB);
  });

  it('idle threads exit: an idle service holds none', async () => {
    await pool.run(task(heavyPages.normal()));
    const threads = pool.threads();
    expect(threads.length).toBeGreaterThan(0);
    await Promise.all(threads.map((t) => once(t, 'exit')));
    expect(pool.threadCount).toBe(0);
  });
});

describe('ContentPool budgets', () => {
  it('a normal page beside a slow one is not queued behind it; past its budget a page fails TIMEOUT', async () => {
    const pool = new ContentPool({ threads: 2, idleTimeoutMs: 5_000, taskTimeoutMs: 30_000, heapMb: 768 });
    try {
      // Warm both threads (a cold one loads tsx) so the timings below are the pages'.
      await Promise.all([pool.run(task(heavyPages.normal())), pool.run(task(heavyPages.normal()))]);
      // Built before the probe starts: making the 20 MB string is this test's own work on the loop
      // (1 s on a loaded machine), not the pool's.
      const twentyMb = task(heavyPages.twentyMb());
      // Beside a page that takes seconds (1.2 s idle, 3-8 s loaded), a normal page is done first:
      // it went to the other thread, not into a queue behind it. Ordered by events, not a bound, so
      // a slow machine slows both alike.
      const ac = new AbortController();
      let heavySettledAt = 0;
      const heavy = pool.run(twentyMb, ac.signal).then(
        () => (heavySettledAt = Date.now()),
        () => (heavySettledAt = Date.now()),
      );
      const normal = await pool.run(task(heavyPages.normal()));
      const normalAt = Date.now();
      ac.abort();
      await heavy;
      expect(normal.data.markdown).toContain('Normal page');
      expect(normalAt).toBeLessThanOrEqual(heavySettledAt);
      // That order also shows the event loop stayed free: in-process, the conversion would block it
      // until the heavy page was done, and the normal page could only finish after it. The loop's
      // worst lag meanwhile (the 20 MB hand-off) is printed by `pnpm bench:content`.
      // Past its budget: TIMEOUT, and the pool goes on.
      const late = await pool.run(twentyMb, undefined, 400).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(TimeoutError);
      expect((await pool.run(task(heavyPages.normal()))).data.markdown).toContain('Normal page');
    } finally {
      await pool.close();
    }
  });

  it('a page that needs more than the heap cap kills only its thread: TARGET_TOO_LARGE', async () => {
    const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: 30_000, heapMb: 24 });
    try {
      await expect(pool.run(task(heavyPages.twentyMb()))).rejects.toBeInstanceOf(TargetTooLargeError);
      // The pool replaces the thread: the next page converts.
      const out = await pool.run(task(heavyPages.normal()));
      expect(out.data.markdown).toContain('Normal page');
    } finally {
      await pool.close();
    }
  });

  it('a DOCX bomb stops at DOCUMENT_MAX_INFLATED_BYTES in its thread: TARGET_TOO_LARGE, the thread serves on', async () => {
    const maxInflatedBytes = 4 * 1024 * 1024;
    const pool = new ContentPool(
      contentPoolOptions(
        loadEnv(contentEnv, {
          CONTENT_POOL_THREADS: '1',
          DOCUMENT_MAX_INFLATED_BYTES: String(maxInflatedBytes),
        }),
      ),
    );
    const docx = (bytes: Buffer) =>
      task('', { bytes, documentKind: 'docx', contentType: 'application/octet-stream' });
    try {
      const err = await pool
        .run(docx(docxBomb({ inflatedBytes: 64 * 1024 * 1024, sizes: 'lying' })))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetTooLargeError);
      expect((err as TargetTooLargeError).details).toEqual({ maxInflatedBytes });
      const thread = pool.threads()[0];
      const out = await pool.run(docx(docxBomb({ inflatedBytes: 64 * 1024 })));
      expect(out.data.markdown).toContain(DOCX_BOMB_TEXT);
      // Not an out-of-memory death: the same thread converted the next document.
      expect(pool.threads()).toEqual([thread]);
    } finally {
      await pool.close();
    }
  });

  it("honours the caller's AbortSignal", async () => {
    const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: 30_000, heapMb: 768 });
    try {
      const ac = new AbortController();
      const reason = new Error('caller gone');
      const run = pool.run(task(heavyPages.twentyMb()), ac.signal);
      ac.abort(reason);
      await expect(run).rejects.toBe(reason);
    } finally {
      await pool.close();
    }
  });
});

describe('documentFromPage', () => {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: BUDGET_MS, heapMb: 768 });
  afterAll(() => pool.close());

  it('converts a rendered page through the pool', async () => {
    const page: RenderResult = {
      requestedUrl: 'http://site.test/a',
      finalUrl: 'http://site.test/b',
      statusCode: 200,
      contentType: 'text/html',
      body: heavyPages.normal(),
      engine: 'fetch',
      headers: {},
      redirects: ['http://site.test/b'],
      elapsedMs: 1,
    };
    const out = await documentFromPage(
      page,
      { url: 'http://site.test/a', format: 'markdown', onlyMainContent: true, links: true },
      pool,
    );
    expect(out.data.metadata.sourceURL).toBe('http://site.test/a');
    expect(out.links?.map((l) => l.url)).toContain('http://site.test/next');
    // Markdown, html and text without formats; `onlyFormats` (the crawler's) converts just those.
    expect(Object.keys(out.data)).toEqual(expect.arrayContaining(['markdown', 'html', 'text']));
    const only = await documentFromPage(
      page,
      { url: 'http://site.test/a', format: 'html', onlyMainContent: true, onlyFormats: ['markdown', 'html'] },
      pool,
    );
    expect(only.data.markdown).toBe(out.data.markdown);
    expect(only.data.html).toBe(out.data.html);
    expect(only.data.text).toBeUndefined();
  });
});

describe('ContentPool with 0 threads (in-process, for debugging and test seams)', () => {
  it('converts on the calling thread and starts no thread', async () => {
    const pool = new ContentPool({ threads: 0, idleTimeoutMs: 300, taskTimeoutMs: BUDGET_MS, heapMb: 768 });
    const out = await pool.run(task(heavyPages.normal(), { links: true }));
    expect(out.data.markdown).toContain('# Normal page');
    expect(out.links?.length).toBe(2);
    expect(pool.threadCount).toBe(0);
    await pool.close();
  });
});
