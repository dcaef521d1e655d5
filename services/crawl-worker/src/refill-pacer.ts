import { LRUCache } from 'lru-cache';

/** Pages of one crawl a worker finishes between two top-ups while the crawl's frontier outruns its window. */
export const REFILL_EVERY = 8;

/**
 * The pacing for a window of `size` rows: REFILL_EVERY, but at most a 64th of the window, so many
 * workers skipping top-ups together cannot drain a small window (1 — every page — below 128 rows).
 */
export function refillEvery(size: number): number {
  return Math.max(1, Math.min(REFILL_EVERY, Math.floor(size / 64)));
}

/**
 * How often a worker tops up a crawl's queue window after a page. A top-up counts the window's
 * claimed rows, which costs PostgreSQL a heap visit per row (rows just changed are not all-visible):
 * ~14 ms for a window of 1,000 at 900,000 frontier rows, more than the rest of a page's statements
 * together; and while the frontier holds more rows than the window, a top-up after every page claims
 * one row each time. So while the frontier outruns the window (the last top-up got every row it had
 * room for), a worker tops up once every REFILL_EVERY pages it finishes of that crawl: each top-up
 * refills the whole window, so it never holds fewer than size − workers × REFILL_EVERY rows. Once a
 * top-up came back short (no more rows waiting), after every page, as before: rows found late are
 * claimed at once and a crawl never waits for its last ones. A worker that has not topped up a crawl
 * yet does so at once.
 * A page that added no rows to the frontier (`quiet`) needs no top-up of its own even then: rows
 * that wait were added by a page whose own top-up claims them, or wait for a full window, which a
 * worker whose top-up found it full tops up every REFILL_EVERY pages. Quiet pages top up every
 * REFILL_EVERY pages too (a round trip to PostgreSQL saved for most pages of a recrawl, whose links
 * are mostly known), so a window never drains unseen.
 */
export class RefillPacer {
  private readonly crawls = new LRUCache<string, { since: number; short: boolean }>({ max: 10_000 });

  constructor(private readonly every: number) {}

  /** A page of the crawl finished on this worker (`quiet`: it added no rows): whether to top up now. */
  due(crawlId: string, quiet = false): boolean {
    const state = this.crawls.get(crawlId);
    if (!state || (state.short && !quiet)) return true;
    state.since++;
    return state.since >= this.every;
  }

  /** A top-up claimed `claimed` rows where the window had room for `wanted`. */
  toppedUp(crawlId: string, claimed: number, wanted: number): void {
    this.crawls.set(crawlId, { since: 0, short: claimed < wanted });
  }

  forget(crawlId: string): void {
    this.crawls.delete(crawlId);
  }
}
