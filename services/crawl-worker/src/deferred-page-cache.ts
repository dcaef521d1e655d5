import type { CachedPageRecord, PageCacheRow } from '@wcs/db';
import type { CachedPage, PageCacheStore, PageValidators } from '@wcs/scraper';

/** What makes a page-cache row of a page (`PageCacheRepository.row`). */
export interface PageCacheRows {
  row(key: string, page: CachedPageRecord): Promise<PageCacheRow | undefined>;
}

/**
 * One crawl page's view of the page cache: reads and refreshes go to the cache itself, but the
 * fetched page's copy is only kept here, to be written by the page's completion in its own
 * statement (`PageCompletion.cacheRow`) — one statement and one commit less a page, and the copy
 * is committed with the page that lists it. A page that ends without a completion (a failure
 * after its fetch) writes the copy on its own (`flush`).
 */
export class DeferredPageCache implements PageCacheStore {
  private entry: { key: string; page: CachedPage } | undefined;

  constructor(
    private readonly cache: PageCacheStore,
    private readonly rows: PageCacheRows,
  ) {}

  get(key: string, fetchedAfter: Date): Promise<CachedPage | undefined> {
    return this.cache.get(key, fetchedAfter);
  }

  latest(key: string): Promise<CachedPage | undefined> {
    return this.cache.latest(key);
  }

  refresh(key: string, was: Date, fetchedAt: Date, validators: PageValidators): Promise<boolean> {
    return this.cache.refresh(key, was, fetchedAt, validators);
  }

  put(key: string, page: CachedPage): Promise<void> {
    this.entry = { key, page };
    return Promise.resolve();
  }

  /** The kept copy as the row the completion writes (taken: asked once); undefined when none or unstorable. */
  async takeRow(): Promise<PageCacheRow | undefined> {
    const entry = this.entry;
    this.entry = undefined;
    return entry ? this.rows.row(entry.key, entry.page).catch(() => undefined) : undefined;
  }

  /** The kept copy written on its own (best effort, never rejects): the page will not complete. */
  async flush(): Promise<void> {
    const entry = this.entry;
    this.entry = undefined;
    if (entry) await this.cache.put(entry.key, entry.page).catch(() => undefined);
  }
}
