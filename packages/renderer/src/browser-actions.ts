/**
 * The `actions` page option: run in order on the loaded page, each bounded by the time left for
 * the actions (`deadline`) and, where it waits for an element, by its own selector timeout. An
 * action the page cannot do is ActionFailedError (422); one that runs out of the render's time is
 * TimeoutError; both name the action by its 0-based index (as the API's validation paths do).
 * Messages never carry a `write` text or a script, only the type, selector or key.
 */
import { ActionFailedError, TimeoutError, ValidationError } from '@wcs/errors';
import type { Frame, Locator, Page, Request } from 'playwright-core';
import type { ActionOutputs, BrowserAction, RendererLogger } from './types';

/** Same limits as the API's schema (@wcs/queues page-options.contract), checked again here. */
export const MAX_ACTIONS = 50;
export const MAX_ACTIONS_WAIT_MS = 60_000;
/** How long an action waits for its selector before it fails (bounded by the deadline too). */
export const ACTION_SELECTOR_TIMEOUT_MS = 5_000;
/** An executeJavascript return value's JSON at most (characters). */
export const MAX_SCRIPT_RESULT_CHARS = 100 * 1024;
/** Texts up to this length are typed key by key (key events fire); longer ones are inserted at once. */
const TYPE_MAX_CHARS = 256;
/** Selectors are shortened to this in messages. */
const SELECTOR_IN_MESSAGE = 100;
/**
 * The actions end this long (at most a tenth of the budget) before the render's deadline, so a
 * script that never returns fails as that action's TimeoutError (the renderer's abort would
 * replace it), with time left to take the page.
 */
export const ACTIONS_RESERVE_MS = 1_000;

/** When the actions of a render must be done. */
export function actionsDeadline(ctx: { started: number; deadline: number }): number {
  return ctx.deadline - Math.min(ACTIONS_RESERVE_MS, (ctx.deadline - ctx.started) / 10);
}

/**
 * Reads the page, once more after a navigation an action started (the read's context was
 * replaced); the engine's abort bounds the wait.
 */
export async function afterNavigation<T>(page: Page, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (page.isClosed() || !/Execution context was destroyed|navigat/i.test(String(err))) throw err;
    await page.waitForLoadState('load', { timeout: 0 });
    return read();
  }
}

export interface ActionRunnerOptions {
  page: Page;
  /** Epoch ms by which the last action must be done (the engine keeps a reserve after it). */
  deadline: number;
  selectorTimeoutMs?: number;
  /** Takes a PNG of the page (a `screenshot` action). */
  screenshot(fullPage: boolean): Promise<Buffer>;
  /** Stops a script still running in the page once its time ran out (Runtime.terminateExecution). */
  terminateScript(): Promise<void>;
  logger?: RendererLogger;
}

/** `Action 3 (click "#more")`: how messages name an action. */
export function describeAction(action: BrowserAction, index: number): string {
  const shorten = (s: string) => (s.length > SELECTOR_IN_MESSAGE ? `${s.slice(0, SELECTOR_IN_MESSAGE)}…` : s);
  const what =
    'selector' in action && action.selector
      ? ` "${shorten(action.selector)}"`
      : action.type === 'press'
        ? ` "${shorten(action.key)}"`
        : '';
  return `Action ${index} (${action.type}${what})`;
}

/** Refuses what the API's schema refuses too (a caller bypassing it must not get unbounded work). */
export function assertActionLimits(actions: readonly BrowserAction[]): void {
  if (actions.length > MAX_ACTIONS) throw new ValidationError(`At most ${MAX_ACTIONS} actions`);
  const waits = actions.reduce((ms, a) => ms + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0);
  if (waits > MAX_ACTIONS_WAIT_MS)
    throw new ValidationError(`The wait actions add up to more than ${MAX_ACTIONS_WAIT_MS} ms`);
}

/** The action cannot be done on this page: `reason` completes "Action n (…) failed: ". */
class ActionProblem extends Error {}
/** The action ran out of the time left for the actions. */
class OutOfTime extends Error {}

/**
 * Runs the actions, then waits for a page one of them navigated to (a link clicked, a form sent
 * by Enter) to load, so the content is taken from it.
 */
export async function runActions(
  actions: readonly BrowserAction[],
  opts: ActionRunnerOptions,
): Promise<ActionOutputs> {
  assertActionLimits(actions);
  const navigations = new NavigationWatch(opts.page);
  try {
    const outputs = await runEach(actions, opts);
    await navigations.settle(opts.deadline);
    return outputs;
  } finally {
    navigations.dispose();
  }
}

async function runEach(actions: readonly BrowserAction[], opts: ActionRunnerOptions): Promise<ActionOutputs> {
  const outputs: ActionOutputs = { screenshots: [], javascriptReturns: [] };
  for (const [index, action] of actions.entries()) {
    const started = Date.now();
    try {
      if (opts.deadline - started <= 0) throw new OutOfTime();
      await runAction(action, opts, outputs);
    } catch (err) {
      // A closed page is the engine's business (abort, byte cap, crash): it knows why.
      if (opts.page.isClosed()) throw err;
      throw actionError(err, action, index, opts);
    } finally {
      opts.logger?.debug({ index, action: action.type, ms: Date.now() - started }, 'browser action');
    }
  }
  return outputs;
}

function actionError(
  err: unknown,
  action: BrowserAction,
  index: number,
  opts: ActionRunnerOptions,
): ActionFailedError | TimeoutError {
  const details = { action: action.type, index };
  // A Playwright timeout not turned into a reason above was bounded by the time left, too.
  if (err instanceof OutOfTime || isTimeout(err))
    return new TimeoutError(`${describeAction(action, index)} did not finish within the render's time`, {
      details,
    });
  const reason = err instanceof ActionProblem ? err.message : unexpectedReason(err, action, opts);
  // No cause: Playwright's messages can quote a script's tokens, and errors get logged whole.
  return new ActionFailedError(`${describeAction(action, index)} failed: ${reason}`, { details });
}

/** Playwright's own messages can quote arguments: only known, safe reasons are shown. */
function unexpectedReason(err: unknown, action: BrowserAction, opts: ActionRunnerOptions): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/Execution context was destroyed|navigat/i.test(msg)) return 'the page navigated away meanwhile';
  if ('selector' in action && /selector|Unexpected token|parsing/i.test(msg))
    return 'the selector is not valid';
  const secret = action.type === 'write' || action.type === 'executeJavascript';
  opts.logger?.warn(
    { action: action.type, ...(secret ? {} : { err: msg.split('\n')[0]?.slice(0, 200) }) },
    'browser action error',
  );
  return 'the browser could not do it';
}

async function runAction(
  action: BrowserAction,
  opts: ActionRunnerOptions,
  out: ActionOutputs,
): Promise<void> {
  const { page } = opts;
  const left = () => opts.deadline - Date.now();
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) {
        await waitVisible(
          page.locator(action.selector).first(),
          opts,
          'no visible element matches the selector',
        );
        return;
      }
      // Fails at once rather than sleeping into a deadline it cannot meet.
      if ((action.milliseconds ?? 0) > left()) throw new OutOfTime();
      await page.waitForTimeout(action.milliseconds ?? 0);
      return;
    case 'click':
      await click(page.locator(action.selector), action.all ?? false, opts);
      return;
    case 'write':
      await within(
        left(),
        action.text.length <= TYPE_MAX_CHARS
          ? page.keyboard.type(action.text)
          : page.keyboard.insertText(action.text),
      );
      return;
    case 'press':
      try {
        await within(left(), page.keyboard.press(action.key));
      } catch (err) {
        if (err instanceof Error && /Unknown key/i.test(err.message)) throw new ActionProblem('unknown key');
        throw err;
      }
      return;
    case 'scroll':
      if (action.selector !== undefined) {
        const target = page.locator(action.selector).first();
        await waitVisible(target, opts, 'no visible element matches the selector');
        await within(left(), target.scrollIntoViewIfNeeded({ timeout: left() }));
        return;
      }
      await within(
        left(),
        page.evaluate(
          `window.scrollBy({ top: ${action.direction === 'up' ? -1 : 1} * window.innerHeight, behavior: 'instant' })`,
        ),
      );
      return;
    case 'executeJavascript':
      out.javascriptReturns.push(await executeScript(action.script, opts));
      return;
    case 'screenshot':
      out.screenshots.push(await within(left(), opts.screenshot(action.fullPage ?? false)));
      return;
  }
}

/** Waits for the locator to be visible within the selector timeout (or the time left, if sooner). */
async function waitVisible(locator: Locator, opts: ActionRunnerOptions, missing: string): Promise<void> {
  const selectorMs = opts.selectorTimeoutMs ?? ACTION_SELECTOR_TIMEOUT_MS;
  const timeout = Math.min(selectorMs, opts.deadline - Date.now());
  if (timeout <= 0) throw new OutOfTime();
  try {
    await locator.waitFor({ state: 'visible', timeout });
  } catch (err) {
    if (!isTimeout(err)) throw err;
    if (timeout < selectorMs) throw new OutOfTime();
    throw new ActionProblem(`${missing} within ${selectorMs} ms`);
  }
}

async function click(locator: Locator, all: boolean, opts: ActionRunnerOptions): Promise<void> {
  const selectorMs = opts.selectorTimeoutMs ?? ACTION_SELECTOR_TIMEOUT_MS;
  await waitVisible(locator.first(), opts, 'no visible element matches the selector');
  const targets = all ? await locator.elementHandles() : [undefined];
  for (const handle of targets) {
    const timeout = Math.min(selectorMs, opts.deadline - Date.now());
    if (timeout <= 0) throw new OutOfTime();
    try {
      if (!handle) await locator.first().click({ timeout });
      // `all`: hidden matches (or ones removed by an earlier click) are skipped, not waited for.
      else if (await handle.isVisible()) await handle.click({ timeout });
    } catch (err) {
      if (handle && /not attached/i.test(String(err))) continue;
      if (!isTimeout(err)) throw err;
      if (timeout < selectorMs) throw new OutOfTime();
      throw new ActionProblem(
        `the element could not be clicked within ${selectorMs} ms (hidden, disabled, covered, or the page did not respond)`,
      );
    } finally {
      if (handle) void handle.dispose().catch(() => undefined);
    }
  }
}

/** After the last action, how long a navigation it scheduled may take to start (a form sent by Enter starts a task or two later). */
const NAVIGATION_GRACE_MS = 250;

/**
 * The main frame's navigations while the actions run, as a state the events move synchronously
 * (no race between a check and a wait): requested → committed → loaded. A navigation that fails,
 * or ends without a new document (204, a download), is done as well.
 */
class NavigationWatch {
  private state: 'none' | 'requested' | 'committed' | 'done' = 'none';
  private navigation: Request | undefined;
  private wake: (() => void) | undefined;
  private readonly onRequest = (r: Request) => {
    if (!r.isNavigationRequest() || r.frame() !== this.page.mainFrame()) return;
    this.navigation = r;
    this.state = 'requested';
  };
  private readonly onCommitted = (frame: Frame) => {
    if (frame === this.page.mainFrame() && this.state === 'requested') this.state = 'committed';
  };
  private readonly onLoad = () => {
    if (this.state === 'committed') this.finish();
  };
  private readonly onFailed = (r: Request) => {
    if (r === this.navigation && this.state === 'requested') this.finish();
  };

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('framenavigated', this.onCommitted);
    page.on('load', this.onLoad);
    page.on('requestfailed', this.onFailed);
    page.on('requestfinished', this.onNoDocument);
  }

  /** Waits for the navigation the actions started (if any, after a short grace) to load. */
  async settle(deadline: number): Promise<void> {
    if (this.state === 'none') {
      const grace = Math.min(NAVIGATION_GRACE_MS, deadline - Date.now());
      if (grace > 0)
        await this.page
          .waitForRequest((r) => r.isNavigationRequest() && r.frame() === this.page.mainFrame(), {
            timeout: grace,
          })
          .catch(() => undefined);
    }
    if (this.state !== 'requested' && this.state !== 'committed') return;
    const left = deadline - Date.now();
    if (left <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    // Bounded by the actions' deadline: the content is then taken as the page is.
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = setTimeout(resolve, left);
    });
    clearTimeout(timer);
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('framenavigated', this.onCommitted);
    this.page.off('load', this.onLoad);
    this.page.off('requestfailed', this.onFailed);
    this.page.off('requestfinished', this.onNoDocument);
    this.wake?.();
  }

  /** A navigation answered without a document to show (204/205) never commits. */
  private readonly onNoDocument = (r: Request) => {
    if (r !== this.navigation || this.state !== 'requested' || r.redirectedTo()) return;
    void r
      .response()
      .then((res) => {
        if (res && (res.status() === 204 || res.status() === 205) && this.state === 'requested')
          this.finish();
      })
      .catch(() => undefined);
  };

  private finish(): void {
    this.state = 'done';
    this.wake?.();
  }
}

/** The page-side wrapper: the script is a function body; its return value comes back as JSON. */
function scriptWrapper(script: string): string {
  return `(async () => {
  let value;
  try {
    value = await (async function () {\n${script}\n}).call(globalThis);
  } catch (e) {
    let message = 'a non-Error value';
    try { message = e instanceof Error ? String(e.message) : String(e); } catch {}
    return { threw: message.slice(0, 500) };
  }
  let json;
  try { json = JSON.stringify(value === undefined ? null : value); } catch { return { type: typeof value, unserialisable: true }; }
  if (json === undefined) json = 'null';
  if (typeof json !== 'string') return { type: typeof value, unserialisable: true };
  if (json.length > ${MAX_SCRIPT_RESULT_CHARS}) return { type: typeof value, tooLarge: true };
  return { type: typeof value, json };
})()`;
}

interface ScriptOutcome {
  threw?: string;
  type?: string;
  json?: string;
  unserialisable?: boolean;
  tooLarge?: boolean;
}

async function executeScript(
  script: string,
  opts: ActionRunnerOptions,
): Promise<{ type: string; value: unknown }> {
  let outcome: ScriptOutcome;
  try {
    outcome = (await within(
      opts.deadline - Date.now(),
      opts.page.evaluate(scriptWrapper(script)),
    )) as ScriptOutcome;
  } catch (err) {
    if (err instanceof OutOfTime) {
      // A script that never yields holds the renderer's main thread: stop it at once.
      await opts.terminateScript().catch(() => undefined);
      throw err;
    }
    // The message of a syntax error quotes the script: only its kind is shown.
    if (err instanceof Error && /SyntaxError/.test(err.message.split('\n')[0] ?? ''))
      throw new ActionProblem('the script is not valid JavaScript (SyntaxError)');
    throw err;
  }
  if (outcome.threw !== undefined) throw new ActionProblem(`the script threw: ${trimMessage(outcome.threw)}`);
  if (outcome.unserialisable)
    throw new ActionProblem('the script returned a value that is not JSON-serialisable');
  if (outcome.tooLarge)
    throw new ActionProblem(`the script returned more than ${MAX_SCRIPT_RESULT_CHARS} characters of JSON`);
  return { type: outcome.type ?? 'undefined', value: JSON.parse(outcome.json ?? 'null') as unknown };
}

function trimMessage(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(no message)';
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/** The work, or OutOfTime after `ms` (the work then settles unobserved). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  if (ms <= 0) throw new OutOfTime();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutOfTime()), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TimeoutError of the actions, racing the render's deadline (not a caller's cancel). */
export function isActionTimeout(err: unknown, signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return (
    err instanceof TimeoutError &&
    err.details?.action !== undefined &&
    // Ours or the platform's (AbortSignal.timeout's DOMException), by name: realms differ.
    (reason as { name?: unknown } | undefined)?.name === 'TimeoutError'
  );
}
