import {
  ActionFailedError,
  type ServiceError,
  ServiceUnavailableError,
  TargetForbiddenError,
  TimeoutError,
  ValidationError,
} from '@wcs/errors';
import { describeAction, isActionTimeout } from './browser-actions';
import type { BrowserEngine } from './browser-engine';
import type { BrowserPool, BrowserSlot } from './browser-pool';
import { pngSize } from './browser-screenshot';
import { pageOptionsEngine, testContext } from './test-support/page-options-engine';
import {
  CLICK_TEXT,
  type PageOptionsSite,
  RESULTS_PREFIX,
  SEARCH_PREFIX,
  startPageOptionsSite,
} from './test-support/page-options-site';
import type { BrowserAction } from './types';

// Short, so a missing element fails soon; not so short that a slow machine's layout misses it
// (1 s did once: '#hang' was not yet visible on a loaded clean-clone run).
const SELECTOR_TIMEOUT_MS = 3_000;

let site: PageOptionsSite;
let engine: BrowserEngine;

beforeAll(async () => {
  site = await startPageOptionsSite();
  // 127.0.0.2 stands for a forbidden address; the fixture on 127.0.0.1 is allowed.
  engine = pageOptionsEngine({
    actionSelectorTimeoutMs: SELECTOR_TIMEOUT_MS,
    isForbidden: (ip) => ip === '127.0.0.2',
  });
});
afterAll(async () => {
  await engine.close();
  await site.close();
});

const render = (
  path: string,
  actions: BrowserAction[],
  extra: { mobile?: boolean; timeoutMs?: number } = {},
) =>
  engine.render(
    { url: `${site.url}${path}`, actions, ...(extra.mobile ? { mobile: true } : {}) },
    testContext(extra.timeoutMs ?? 15_000),
  );

/** The render's error (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    return err as ServiceError;
  }
  throw new Error('the render succeeded');
}

describe('describeAction', () => {
  it('names selectors and keys, never texts or scripts', () => {
    expect(describeAction({ type: 'click', selector: '#more' }, 3)).toBe('Action 3 (click "#more")');
    expect(describeAction({ type: 'press', key: 'Enter' }, 0)).toBe('Action 0 (press "Enter")');
    expect(describeAction({ type: 'write', text: 'hunter2' }, 1)).toBe('Action 1 (write)');
    expect(describeAction({ type: 'executeJavascript', script: 'return "s3cret"' }, 2)).toBe(
      'Action 2 (executeJavascript)',
    );
  });
});

describe('isActionTimeout', () => {
  const aborted = (reason: unknown) => {
    const c = new AbortController();
    c.abort(reason);
    return c.signal;
  };
  const actionTimeout = new TimeoutError('Action 1 (wait) did not finish', {
    details: { action: 'wait', index: 1 },
  });

  it("keeps the action's TimeoutError when the render's deadline fired meanwhile", () => {
    expect(isActionTimeout(actionTimeout, aborted(new TimeoutError('Rendering took longer')))).toBe(true);
    expect(isActionTimeout(actionTimeout, AbortSignal.abort(new DOMException('t', 'TimeoutError')))).toBe(
      true,
    );
  });

  it("gives way to a caller's cancel and to errors that are not an action's timeout", () => {
    expect(isActionTimeout(actionTimeout, aborted(new ServiceUnavailableError('closing')))).toBe(false);
    expect(isActionTimeout(new TimeoutError('Rendering took longer'), aborted(new TimeoutError('x')))).toBe(
      false,
    );
    expect(isActionTimeout(new Error('boom'), aborted(new TimeoutError('x')))).toBe(false);
  });
});

describe('browser actions', () => {
  it('clicks, collects script returns in order, takes screenshots, and returns the body after the actions', async () => {
    const res = await render('/click', [
      { type: 'executeJavascript', script: 'return 6 * 7' },
      { type: 'click', selector: '#more' },
      { type: 'executeJavascript', script: "return document.getElementById('out').textContent" },
      { type: 'screenshot' },
      {
        type: 'executeJavascript',
        script: 'await new Promise((r) => setTimeout(r, 10)); return { a: [1, 2], b: null }',
      },
      { type: 'screenshot', fullPage: true },
      { type: 'executeJavascript', script: 'const x = 1;' },
    ]);
    expect(res.body).toContain(CLICK_TEXT);
    expect(res.actions?.javascriptReturns).toEqual([
      { type: 'number', value: 42 },
      { type: 'string', value: CLICK_TEXT },
      { type: 'object', value: { a: [1, 2], b: null } },
      { type: 'undefined', value: null },
    ]);
    expect(res.actions?.screenshots).toHaveLength(2);
    const [viewport, full] = res.actions?.screenshots ?? [];
    expect(pngSize(viewport as Buffer)).toEqual({ width: 1280, height: 720 });
    expect(pngSize(full as Buffer).width).toBe(1280);
    expect(res.screenshot).toBeUndefined();
  });

  it('click with all: true clicks every visible match', async () => {
    const res = await render('/click', [
      { type: 'click', selector: '.item', all: true },
      { type: 'executeJavascript', script: 'return document.title' },
    ]);
    expect(res.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'clicked 2' }]);
  });

  it('types into the focused input and presses Enter (script-handled)', async () => {
    const res = await render('/type', [
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'kittens' },
      { type: 'press', key: 'Enter' },
    ]);
    expect(res.body).toContain(`${SEARCH_PREFIX} kittens`);
  });

  it('types into a form and presses Enter: the content is the page it navigated to', async () => {
    const res = await render('/form', [
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'kittens & cats' },
      { type: 'press', key: 'Enter' },
    ]);
    expect(res.body).toContain(`${RESULTS_PREFIX} kittens &amp; cats`);
    expect(res.finalUrl).toBe(`${site.url}/results?q=kittens+%26+cats`);
  });

  it('waits for a selector and for milliseconds', async () => {
    const started = Date.now();
    const res = await render('/late', [
      { type: 'wait', selector: '#late' },
      { type: 'wait', milliseconds: 200 },
    ]);
    expect(res.body).toContain('arrived late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('scrolls by a viewport, and to an element', async () => {
    const res = await render('/tall?h=5000&bottom', [
      { type: 'scroll', direction: 'down' },
      { type: 'executeJavascript', script: 'return window.scrollY' },
      { type: 'scroll', direction: 'up' },
      { type: 'executeJavascript', script: 'return window.scrollY' },
      { type: 'scroll', selector: '#bottom' },
      { type: 'executeJavascript', script: 'return window.scrollY > 4000' },
    ]);
    expect(res.actions?.javascriptReturns.map((r) => r.value)).toEqual([720, 0, true]);
  });

  it('an error page gets no actions and no screenshot: it is the page’s error', async () => {
    const res = await engine.render(
      {
        url: `${site.url}/no-such-page`,
        actions: [{ type: 'click', selector: '#more' }],
        screenshot: 'viewport',
      },
      testContext(10_000),
    );
    expect(res.statusCode).toBe(404);
    expect(res.actions).toBeUndefined();
    expect(res.screenshot).toBeUndefined();
  });

  it('works on a mobile page and on a page whose CSP forbids every script', async () => {
    const mobile = await render(
      '/click',
      [
        { type: 'click', selector: '#more' },
        { type: 'executeJavascript', script: 'return window.innerWidth' },
      ],
      { mobile: true },
    );
    expect(mobile.body).toContain(CLICK_TEXT);
    expect(mobile.actions?.javascriptReturns).toEqual([{ type: 'number', value: 412 }]);
    const csp = await render('/csp', [{ type: 'executeJavascript', script: 'return document.title' }]);
    expect(csp.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'options' }]);
  });
});

describe('failing actions', () => {
  const plainRenderWorks = async () => {
    const res = await engine.render({ url: `${site.url}/plain`, engine: 'browser' }, testContext(10_000));
    expect(res.body).toContain('Plain page');
  };

  const cases: Array<{
    name: string;
    path: string;
    actions: BrowserAction[];
    index: number;
    message: RegExp;
    secret?: string;
  }> = [
    {
      name: 'a selector that matches nothing',
      path: '/click',
      actions: [
        { type: 'wait', milliseconds: 1 },
        { type: 'click', selector: '#nope' },
      ],
      index: 1,
      message: /^Action 1 \(click "#nope"\) failed: no visible element matches the selector within 3000 ms$/,
    },
    {
      name: 'a script that throws',
      path: '/plain',
      actions: [
        {
          type: 'executeJavascript',
          script: 'const token = "s3cret-token"; throw new Error("boom:   bad\\n state")',
        },
      ],
      index: 0,
      message: /^Action 0 \(executeJavascript\) failed: the script threw: boom: bad state$/,
      secret: 's3cret-token',
    },
    {
      name: 'a script that is not JavaScript',
      path: '/plain',
      actions: [{ type: 'executeJavascript', script: 'return 1 +* s3cretIdentifier' }],
      index: 0,
      message: /^Action 0 \(executeJavascript\) failed: the script is not valid JavaScript \(SyntaxError\)$/,
      secret: 's3cretIdentifier',
    },
    {
      name: 'a return value over 100 KB',
      path: '/plain',
      actions: [{ type: 'executeJavascript', script: 'return "x".repeat(200000)' }],
      index: 0,
      message: /failed: the script returned more than 102400 characters of JSON$/,
    },
    {
      name: 'an unknown key',
      path: '/type',
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'p4ssw0rd-typed' },
        { type: 'press', key: 'NoSuchKey' },
      ],
      index: 2,
      message: /^Action 2 \(press "NoSuchKey"\) failed: unknown key$/,
      secret: 'p4ssw0rd-typed',
    },
    {
      name: 'a click whose handler never returns',
      path: '/hang-on-click',
      actions: [{ type: 'click', selector: '#hang' }],
      index: 0,
      message: /^Action 0 \(click "#hang"\) failed: the element could not be clicked within 3000 ms/,
    },
    {
      name: 'an invalid selector',
      path: '/click',
      actions: [{ type: 'click', selector: 'div[' }],
      index: 0,
      message: /^Action 0 \(click "div\["\) failed: the selector is not valid$/,
    },
  ];

  it.each(cases)('$name → ActionFailedError (422) naming the action; the next render works', async (c) => {
    const err = await failure(render(c.path, c.actions));
    expect(err).toBeInstanceOf(ActionFailedError);
    expect(err.status).toBe(422);
    expect(err.code).toBe('ACTION_FAILED');
    expect(err.details).toEqual({ action: c.actions[c.index]?.type, index: c.index });
    expect(err.message).toMatch(c.message);
    if (c.secret)
      expect(JSON.stringify({ ...err.toJSON(), cause: String(err.cause) })).not.toContain(c.secret);
    await plainRenderWorks();
  });

  it('a script that never returns ends at the budget as TimeoutError naming the action; the next render works', async () => {
    const err = await failure(
      render(
        '/plain',
        [
          { type: 'wait', milliseconds: 1 },
          { type: 'executeJavascript', script: 'while (true) {}' },
        ],
        {
          timeoutMs: 3_000,
        },
      ),
    );
    // Ended by its 3 s budget (the action's TimeoutError), not hanging on the script.
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.details).toEqual({ action: 'executeJavascript', index: 1 });
    expect(err.message).toMatch(/^Action 1 \(executeJavascript\) did not finish within the render's time$/);
    await plainRenderWorks();
  });

  it('a wait longer than the time left fails at once as TimeoutError', async () => {
    const ctx = testContext(25_000);
    const err = await failure(
      engine.render({ url: `${site.url}/plain`, actions: [{ type: 'wait', milliseconds: 30_000 }] }, ctx),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.details).toEqual({ action: 'wait', index: 0 });
    // At once: the render's budget signal has not fired (waiting would have run into it).
    expect(ctx.signal.aborted).toBe(false);
  });

  it('a click that navigates to a forbidden address is TargetForbiddenError', async () => {
    const before = site.hits('/plain');
    const err = await failure(render('/link-out', [{ type: 'click', selector: '#out' }]));
    expect(err).toBeInstanceOf(TargetForbiddenError);
    expect(site.hits('/plain')).toBe(before);
    await plainRenderWorks();
  });

  it('refuses more actions than the API allows', async () => {
    const many: BrowserAction[] = Array.from({ length: 51 }, () => ({ type: 'wait', milliseconds: 1 }));
    await expect(render('/plain', many)).rejects.toBeInstanceOf(ValidationError);
  });

  /**
   * Runs `first`, waits for the pool to take its slot back (a spy that calls through: the release
   * runs after the render returns), then reads localStorage in the next render and says whether
   * that render got the same slot back.
   */
  async function readAfter(
    first: () => Promise<unknown>,
    key: string,
  ): Promise<{ broken: boolean; value: unknown; sameSlot: boolean }> {
    const pool = (engine as unknown as { pool: BrowserPool }).pool;
    const release = pool.release.bind(pool);
    const acquire = pool.acquire.bind(pool);
    let released: { slot: BrowserSlot; broken: boolean; done: Promise<void> } | undefined;
    let next: BrowserSlot | undefined;
    const onRelease = jest.spyOn(pool, 'release').mockImplementation((slot, broken) => {
      const done = release(slot, broken);
      released = { slot, broken, done };
      return done;
    });
    try {
      await first().catch(() => undefined);
      await released?.done;
    } finally {
      onRelease.mockRestore();
    }
    const onAcquire = jest.spyOn(pool, 'acquire').mockImplementation(async (signal) => {
      next = await acquire(signal);
      return next;
    });
    try {
      const out = await render('/plain', [
        { type: 'executeJavascript', script: `return localStorage.getItem('${key}')` },
      ]);
      return {
        broken: released?.broken ?? false,
        value: out.actions?.javascriptReturns[0]?.value,
        sameSlot: next !== undefined && next === released?.slot,
      };
    } finally {
      onAcquire.mockRestore();
    }
  }

  it('a kept page starts clean: the previous caller’s site storage is wiped', async () => {
    const kept = await readAfter(
      () => render('/plain', [{ type: 'executeJavascript', script: "localStorage.setItem('kept', 'yes')" }]),
      'kept',
    );
    expect(kept).toEqual({ broken: false, value: null, sameSlot: true });
  });

  it('a page a failed action left behind is not served again', async () => {
    const failed = await readAfter(
      () =>
        render('/click', [
          { type: 'executeJavascript', script: "localStorage.setItem('failed', 'yes')" },
          { type: 'click', selector: '#nope' },
        ]),
      'failed',
    );
    expect(failed).toEqual({ broken: true, value: null, sameSlot: false });
  });
});
