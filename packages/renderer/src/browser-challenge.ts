/**
 * The browser's part of the scraper's escalation ladder: a challenge page (a script that sets a
 * cookie and reloads, a form that posts itself) clears by the page's own navigation, as in any
 * browser. Nothing is solved or forged here: the engine only waits, bounded, for the navigation
 * and reads the document that follows. Whether a document is still a challenge is the caller's
 * call (`awaitChallenge`).
 */
import type { Page, Response } from 'playwright-core';
import { afterNavigation } from './browser-actions';
import type { ChallengeAnswer } from './types';

/** Default longest wait for a challenge to clear itself (BROWSER_CHALLENGE_WAIT_MS). */
export const DEFAULT_CHALLENGE_WAIT_MS = 15_000;
/** Left of the render's budget after the wait: reading the page and returning it. */
const CHALLENGE_RESERVE_MS = 500;

/**
 * The main frame's documents in arrival order and the page's load events (registered before the
 * first navigation, so none is missed): the latest document, whether it has loaded, and waits.
 */
export class MainDocuments {
  latest: Response | undefined;
  private count = 0;
  private loads = 0;
  private loadsAtLatest = 0;
  private readonly waiters = new Set<() => void>();

  seen(response: Response): void {
    this.latest = response;
    this.count++;
    this.loadsAtLatest = this.loads;
    this.wake();
  }

  loaded(): void {
    this.loads++;
    this.wake();
  }

  get seenCount(): number {
    return this.count;
  }

  /** True when a document arrived after `since` (already, or within `timeoutMs`). */
  arrivedSince(since: number, timeoutMs: number): Promise<boolean> {
    return this.until(() => this.count > since, timeoutMs);
  }

  /** True when the latest document has fired its load event (already, or within `timeoutMs`). */
  latestLoaded(timeoutMs: number): Promise<boolean> {
    return this.until(() => this.loads > this.loadsAtLatest, timeoutMs);
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  private until(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (ready()) done(true);
      };
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      this.waiters.add(check);
    });
  }
}

export interface ChallengeWait {
  /** The main document the page ended on (the first one when nothing navigated). */
  response: Response;
  /** The page was a challenge after load (so the engine waited, as long as the budget let it). */
  challenged: boolean;
  waitedMs: number;
  /** A challenge gave way to a document that is none. */
  cleared: boolean;
}

/**
 * After load: while `isChallenge` says the latest main document is a challenge, wait (until
 * `until`, epoch ms) for the next one and its load. Returns at once, without waiting, for a page
 * that is no challenge.
 */
export async function awaitChallengeClear(
  page: Page,
  documents: MainDocuments,
  first: Response,
  isChallenge: (answer: ChallengeAnswer) => boolean,
  o: { deadline: number; maxWaitMs: number },
): Promise<ChallengeWait> {
  const started = Date.now();
  const until = Math.min(started + o.maxWaitMs, o.deadline - CHALLENGE_RESERVE_MS);
  let response = first;
  let waited = false;
  for (;;) {
    const seen = documents.seenCount;
    const latest = documents.latest ?? response;
    if (latest !== response) {
      response = latest;
      await documents.latestLoaded(until - Date.now());
    }
    const body = await afterNavigation(page, () => page.content()).catch(() => '');
    const answer = { statusCode: response.status(), headers: await response.allHeaders(), body };
    if (!isChallenge(answer))
      return { response, challenged: waited, waitedMs: Date.now() - started, cleared: waited };
    waited = true;
    const left = until - Date.now();
    if (left <= 0) break;
    // A navigation that began while the page was read counts too (`seen` was taken before).
    // A timer may fire a millisecond early by the wall clock: go round again until `until` passed.
    if (!(await documents.arrivedSince(seen, left)) && until - Date.now() <= 0) break;
  }
  return { response, challenged: true, waitedMs: Date.now() - started, cleared: false };
}
