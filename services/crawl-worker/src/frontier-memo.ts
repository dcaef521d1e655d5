/**
 * The URL keys this process knows to be in a crawl's frontier, so that the links a crawl already
 * has are not sent to PostgreSQL to be looked up again with every page. On most sites a page's
 * links are largely the navigation, footer and related links that every other page carries too.
 *
 * Only what the database confirmed is remembered: every link of a completion that was not capped
 * (each one is in the frontier after it), or the pages a capped one inserted. Rows never leave a
 * crawl's frontier, so a remembered key stays true. Forgetting is always safe (the database
 * decides again), so memory is bounded: past `maxKeys` in all, the crawls used least recently are
 * forgotten first, and a crawl that alone fills the memo stops growing.
 */
export class FrontierMemo {
  /** By crawl id, least recently used first (a Map keeps insertion order). */
  private readonly crawls = new Map<string, Set<string>>();
  private total = 0;

  constructor(private readonly maxKeys = 200_000) {}

  /** The crawl's remembered keys (marks the crawl as used). */
  known(crawlId: string): ReadonlySet<string> | undefined {
    return this.touch(crawlId, false);
  }

  remember(crawlId: string, keys: Iterable<string>): void {
    const known = this.touch(crawlId, true);
    if (!known) return;
    for (const key of keys) {
      if (known.has(key)) continue;
      if (this.total >= this.maxKeys && !this.evictOther(crawlId)) return;
      known.add(key);
      this.total++;
    }
  }

  /** A finished crawl's keys are of no more use. */
  forget(crawlId: string): void {
    const known = this.crawls.get(crawlId);
    if (!known) return;
    this.crawls.delete(crawlId);
    this.total -= known.size;
  }

  get size(): number {
    return this.total;
  }

  private touch(crawlId: string, create: boolean): Set<string> | undefined {
    let known = this.crawls.get(crawlId);
    if (known) this.crawls.delete(crawlId);
    else if (create) known = new Set();
    if (known) this.crawls.set(crawlId, known);
    return known;
  }

  /** Forget the least recently used crawl other than `keep`; false when there is none. */
  private evictOther(keep: string): boolean {
    for (const [crawlId, keys] of this.crawls) {
      if (crawlId === keep) continue;
      this.crawls.delete(crawlId);
      this.total -= keys.size;
      return true;
    }
    return false;
  }
}
