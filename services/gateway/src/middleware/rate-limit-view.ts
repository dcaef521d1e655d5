/**
 * Share of the plan's limit under which a request goes on without waiting for Redis: this
 * gateway's view of the window (the count Redis last answered plus the hits sent since) is at most
 * this far along. The rest of the limit absorbs what other gateways (and this one's unanswered
 * hits) add between two answers: a request waits for Redis's count again well before the limit.
 */
export const RATE_LIMIT_TRUSTED_SHARE = 0.5;
/** Accounts kept at most; past it, views of ended windows are dropped first, then the oldest. */
export const RATE_LIMIT_VIEW_MAX_ACCOUNTS = 10_000;

interface WindowView {
  window: number;
  /** The highest count Redis answered for this account's window (every gateway's hits in it). */
  heard: number;
  /** Hits this gateway sent that Redis has not answered yet. */
  unanswered: number;
}

/**
 * What this gateway knows of each account's current rate-limit window, so that a request far from
 * the limit does not wait for a Redis round trip before its work starts. The hit is still counted
 * in Redis for every request (the count there stays exact: GET /v1/account, other gateways); only
 * the wait for the answer is skipped. The first request of a window, and every request once the
 * view reaches `RATE_LIMIT_TRUSTED_SHARE` of the limit, waits for Redis's count as before, so the
 * 429 comes at the same request as before for a client that sends one request at a time.
 */
export class RateLimitView {
  private readonly accounts = new Map<string, WindowView>();

  constructor(private readonly opts: { maxAccounts?: number } = {}) {}

  /**
   * Counts one hit of `accountId` in `window` locally when the view allows it: the count the request
   * can report (Redis's last answer plus unanswered hits, this one included), else undefined (wait
   * for Redis). A hit counted here must be settled with `answered` or `failed`.
   */
  tryPass(accountId: string, window: number, limit: number): number | undefined {
    const view = this.accounts.get(accountId);
    if (!view || view.window !== window) return undefined;
    const count = view.heard + view.unanswered + 1;
    if (count > Math.floor(limit * RATE_LIMIT_TRUSTED_SHARE)) return undefined;
    view.unanswered++;
    return count;
  }

  /**
   * Redis answered a hit with the window's count. `local` = the hit was one `tryPass` let through
   * (it is no longer unanswered).
   */
  answered(accountId: string, window: number, count: number, local: boolean): void {
    let view = this.accounts.get(accountId);
    if (!view || view.window < window) {
      // A new window (or a new account): what was unanswered belonged to the old one.
      if (!view) this.makeRoom(window);
      view = { window, heard: 0, unanswered: 0 };
      this.accounts.set(accountId, view);
    } else if (view.window > window) {
      return; // an answer of an ended window
    } else if (local) {
      view.unanswered = Math.max(0, view.unanswered - 1);
    }
    view.heard = Math.max(view.heard, count);
  }

  /**
   * Redis did not answer a hit: the view is dropped, so the account's next request waits for Redis
   * (and is let through if Redis is still down, as the limiter does).
   */
  failed(accountId: string): void {
    this.accounts.delete(accountId);
  }

  /** Accounts with a view (tests). */
  get size(): number {
    return this.accounts.size;
  }

  /** Room for one more account whose window is `window`. */
  private makeRoom(window: number): void {
    const max = this.opts.maxAccounts ?? RATE_LIMIT_VIEW_MAX_ACCOUNTS;
    if (this.accounts.size < max) return;
    for (const [id, v] of this.accounts) if (v.window < window) this.accounts.delete(id);
    while (this.accounts.size >= max) {
      const oldest = this.accounts.keys().next();
      if (oldest.done) break;
      this.accounts.delete(oldest.value);
    }
  }
}
