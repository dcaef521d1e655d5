/**
 * Read-your-writes for the embedded search: a page is written to the index behind the answer
 * (search-indexer.ts), so a search that starts right after a scrape answered, a batch item was
 * reported done or a crawl page was listed would miss it. Each page is therefore announced (a mark
 * per account, visible to every process, made for the page or shared with the pages the process
 * announced just before it: shared-marks.ts) before it is reported anywhere, and its mark is
 * removed once it (and every page sharing it) is written; a search first waits, bounded, until the
 * marks of its account that existed when it started are gone. `@wcs/queues`' SearchIndexMarks
 * implements it over Redis.
 */

/** One announced page: whose it is and the mark that names it. */
export interface PendingMark {
  accountId: string;
  mark: string;
}

/** What the indexer writes to (announce, settle). */
export interface PendingIndexWriter {
  /** Announce a page of the account that is about to be reported; resolves once every process can see it. */
  add(accountId: string): Promise<PendingMark>;
  /** The pages are written (or given up): their marks go. */
  remove(marks: readonly PendingMark[]): Promise<void>;
}

/** What a search reads. */
export interface PendingIndexReader {
  /**
   * Resolves when every page of the account announced before the call is written, true; or false
   * once `maxWaitMs` has passed first (the search then runs over what is written).
   */
  settled(accountId: string, maxWaitMs: number, signal?: AbortSignal): Promise<boolean>;
}
