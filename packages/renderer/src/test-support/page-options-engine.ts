/** One BrowserEngine for a page-options test file, and a wait for its pool to be idle again. */
import { BrowserEngine, type BrowserEngineOptions } from '../browser-engine';
import { testContext, testOptions } from './options';

export const TEST_USER_AGENT = testOptions().userAgent;

export function pageOptionsEngine(over: Partial<BrowserEngineOptions> = {}): BrowserEngine {
  const o = testOptions();
  return new BrowserEngine({
    executablePath: '/usr/bin/chromium',
    maxPages: 2,
    userAgent: o.userAgent,
    allowPrivateTargets: true,
    maxBodyBytes: o.maxBodyBytes,
    maxRedirects: o.maxRedirects,
    ...over,
  });
}

/**
 * Resolves once no render holds a slot and at least one slot is back in the pool (a release resets
 * the page before it returns the slot): the next render then takes the slot released last.
 */
export async function poolIdle(engine: BrowserEngine, timeoutMs = 10_000): Promise<{ idle: number }> {
  const deadline = Date.now() + timeoutMs;
  while (engine.poolSize.busy > 0 || engine.poolSize.idle === 0) {
    if (Date.now() > deadline) throw new Error(`pool not idle: ${JSON.stringify(engine.poolSize)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { idle: engine.poolSize.idle };
}

/** Polls `condition` until it holds (or fails after `timeoutMs`). */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export { testContext };
