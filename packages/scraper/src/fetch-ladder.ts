/**
 * The escalation ladder: what a real browser gets past, within the request's time budget. When the
 * first answer is a wall (`detectBlock` of @wcs/content: status, headers, markup):
 *   1. a wall that is no rate limit is asked again in the browser, which waits for the challenge's
 *      own navigation (script, cookie, reload) and returns the page after it;
 *   2. a 429/503 with a `Retry-After` the remaining budget can afford is waited out once (the
 *      caller's signal aborts the wait), then asked again;
 *   3. with `proxy: "auto"`, a page still blocked is asked once more through the next of the
 *      deployment's proxies (the furthest step so far, repeated).
 * Nothing is solved or forged. A page still blocked after that is TARGET_BLOCKED naming the reason
 * and every step (`attempts`). An ordinary page costs one render and one `detectBlock`: no wait.
 */
import { type BlockSignal, detectBlock } from '@wcs/content';
import {
  ActionFailedError,
  ServiceError,
  TargetForbiddenError,
  TargetTooLargeError,
  ValidationError,
} from '@wcs/errors';
import { abortReason } from '@wcs/net';
import type { FetchAttempt } from '@wcs/queues';
import type { ChallengeAnswer, Renderer, RenderRequest, RenderResult } from '@wcs/renderer';
import { blockedError } from './verdict-outcome';

/** An escalation step starts only with at least this much of the budget left. */
const MIN_STEP_MS = 500;
/** A `Retry-After` is waited out only when this much is left after it, for the request itself. */
const RETRY_FETCH_RESERVE_MS = 1_000;
/** The browser step's share of what is left when a proxy step may still follow it. */
const BROWSER_SHARE_BEFORE_PROXY = 0.6;
/** Walls a browser meets the same way (HTTP authentication, a legal block): it would only spend a render. */
const SAME_FOR_EVERY_CLIENT: ReadonlySet<number> = new Set([401, 451]);
/** Errors of an escalation step that end the ladder as they are (not a wall: the request's own fault). */
const FINAL_CODES = new Set([
  TargetForbiddenError.code,
  TargetTooLargeError.code,
  ValidationError.code,
  ActionFailedError.code,
]);

export type LadderProxy = 'auto' | 'default' | 'none';

export interface LadderOptions {
  proxy: LadderProxy;
  /**
   * Awaited before each escalation step's request (inside the budget): the crawler's politeness
   * gap for the host, so a ladder never sends its requests closer together than the crawl allows.
   */
  beforeStep?: () => Promise<void>;
  /**
   * The wall check of an answer the renderer left undecoded (`raw`: the scraper's content thread
   * decodes it and runs detectBlock there); answers with text are checked here.
   */
  judgeRaw?: (page: RenderResult) => Promise<BlockSignal | undefined>;
}

export interface LadderResult {
  page: RenderResult;
  /** Every step, when there was more than one (the page needed escalation). */
  attempts?: FetchAttempt[];
}

/** The browser keeps waiting while the page is this: a challenge that may clear by itself. */
export function isChallenge(answer: ChallengeAnswer): boolean {
  return detectBlock(answer)?.reason === 'challenge';
}

function blockOf(page: RenderResult): BlockSignal | undefined {
  return detectBlock({ statusCode: page.statusCode, headers: page.headers, body: page.body });
}

/**
 * `Retry-After` (delta seconds or an HTTP date) → ms from now; undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its day and month; Date.parse alone would take "-1" for a year.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Render `base` (its `timeoutMs` is the whole ladder's budget) and escalate as described above.
 * A page that is no wall is returned as it came (error statuses included: the caller judges them).
 */
export async function fetchWithLadder(
  renderer: Renderer,
  base: RenderRequest & { timeoutMs: number },
  o: LadderOptions,
): Promise<LadderResult> {
  const { proxy } = o;
  const started = Date.now();
  const deadline = started + base.timeoutMs;
  const viaProxies = proxy === 'default' && renderer.features.proxies;
  const attempts: FetchAttempt[] = [];
  const record = (page: RenderResult, extra: Partial<FetchAttempt>): RenderResult => {
    attempts.push({
      engine: page.engine,
      statusCode: page.statusCode,
      ...(viaProxies ? { proxy: true } : {}),
      ...extra,
      ...(page.challenge ? { waitedForChallenge: true } : {}),
    });
    return page;
  };
  /** An escalation step: a failure without an answer is listed, and the ladder goes on. */
  const step = async (
    req: RenderRequest,
    extra: Partial<FetchAttempt>,
    share = 1,
  ): Promise<RenderResult | undefined> => {
    const engine = req.engine === 'browser' ? 'browser' : 'fetch';
    const left = deadline - Date.now();
    if (left < MIN_STEP_MS) {
      attempts.push({ engine, ...extra, skipped: 'no-budget' });
      return undefined;
    }
    try {
      await o.beforeStep?.();
      const budget = Math.round((deadline - Date.now()) * share);
      return record(await renderer.render({ ...req, timeoutMs: Math.max(1, budget) }), extra);
    } catch (err) {
      if (base.signal?.aborted || !(err instanceof ServiceError) || FINAL_CODES.has(err.code)) throw err;
      attempts.push({ engine, ...(viaProxies ? { proxy: true } : {}), ...extra, error: err.code });
      return undefined;
    }
  };

  const judge = (page: RenderResult): Promise<BlockSignal | undefined> | BlockSignal | undefined =>
    page.raw && o.judgeRaw ? o.judgeRaw(page) : blockOf(page);
  const direct: RenderRequest = { ...base, proxy };
  let current = record(await renderer.render(direct), {});
  // A 304 is the answer to the caller's validators (or, unasked, the caller's to refuse): no wall.
  if (current.statusCode === 304) return { page: { ...current, elapsedMs: Date.now() - started } };
  // Steps after the first answer ask unconditionally: that answer was no 304.
  const { revalidate: _validators, ...unconditional } = direct;
  let asked: RenderRequest = unconditional;
  let waitedOut = false;
  /** Step 2, once: a Retry-After the budget affords, then the same request again. */
  const waitOut = async (): Promise<void> => {
    if (waitedOut || (current.statusCode !== 429 && current.statusCode !== 503)) return;
    if ((await judge(current))?.reason === 'challenge') return; // the browser's job, not a wait
    const ms = retryAfterMs(current.headers['retry-after']);
    if (ms === undefined || ms > deadline - Date.now() - RETRY_FETCH_RESERVE_MS) return;
    waitedOut = true;
    await sleep(ms, base.signal);
    current = (await step(asked, { retryAfterMs: ms })) ?? current;
  };

  await waitOut();
  let block = await judge(current);
  // Step 1. The browser again only for a challenge (this time waiting for it); a rate limit is the
  // same for every engine, and so are HTTP authentication (401) and a legal block (451).
  const browserHelps =
    block !== undefined &&
    block.reason !== 'rate-limited' &&
    !SAME_FOR_EVERY_CLIENT.has(current.statusCode) &&
    (current.engine === 'fetch' || block.reason === 'challenge');
  if (browserHelps) {
    if (base.engine === 'fetch') attempts.push({ engine: 'browser', skipped: 'engine-fetch' });
    else if (!renderer.features.browser) attempts.push({ engine: 'browser', skipped: 'browser-disabled' });
    else {
      const proxyStepFollows = proxy === 'auto' && renderer.features.proxies;
      asked = { ...unconditional, engine: 'browser', awaitChallenge: isChallenge };
      const answer = await step(asked, {}, proxyStepFollows ? BROWSER_SHARE_BEFORE_PROXY : 1);
      if (answer) {
        current = answer;
        await waitOut();
      }
    }
    block = await judge(current);
  }
  // Step 3: the furthest request so far, once, through the next proxy.
  // Not for HTTP authentication: no other address changes who the caller is.
  if (block && proxy === 'auto' && renderer.features.proxies && current.statusCode !== 401) {
    const answer = await step({ ...asked, proxy: 'default' }, { proxy: true });
    if (answer) {
      current = answer;
      block = await judge(current);
    }
  }
  if (block) throw blockedError(block, current.statusCode, attempts);
  const page = { ...current, elapsedMs: Date.now() - started };
  return attempts.length > 1 ? { page, attempts } : { page };
}

/** The `Retry-After` wait: ends early (rejecting with the abort's reason) when the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
