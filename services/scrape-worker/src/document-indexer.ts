import type { DocumentData } from '@wcs/queues';
import type { AnnouncedPage, SearchIndexer } from '@wcs/search';

/**
 * Hands scraped pages to their account's search index. The write runs behind the answer; what the
 * caller waits for is the page's announcement (one Redis round trip), which makes a search started
 * after the page was reported wait for it (read-your-writes, @wcs/search pending-index.ts).
 */
export interface DocumentIndexer {
  /** Announce and hand over at once (a scrape: call before answering). */
  add(accountId: string, data: DocumentData): Promise<void>;
  /** Announce only (before the page is reported); the caller then writes it, or drops it. */
  announce(accountId: string, data: DocumentData): Promise<AnnouncedPage | undefined>;
  /**
   * Announce a page still to be scraped (the round trip runs beside the fetch and conversion):
   * `add` it once scraped (resolves like `add` above), or `drop` the announcement if it fails.
   */
  reserve(accountId: string): ReservedPage;
}

export interface ReservedPage {
  add(data: DocumentData): Promise<void>;
  drop(): Promise<void>;
}

/** Pages are keyed by their final URL after redirects. */
export function createDocumentIndexer(indexer: SearchIndexer): DocumentIndexer {
  const urlOf = (data: DocumentData) => {
    const m = data.metadata;
    return typeof m.finalUrl === 'string' && m.finalUrl.trim() ? m.finalUrl : m.sourceURL;
  };
  return {
    add: (accountId, data) => indexer.add(accountId, urlOf(data), data),
    announce: (accountId, data) => indexer.announce(accountId, urlOf(data), data),
    reserve: (accountId) => {
      const reserved = indexer.reserve(accountId);
      return {
        add: async (data) => {
          await (await reserved.fill(urlOf(data), data))?.write();
        },
        drop: () => reserved.drop(),
      };
    },
  };
}
