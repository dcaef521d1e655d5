import type { DocumentData } from '@wcs/queues';
import type { SearchIndexer } from '@wcs/search';

/** Hands a scraped page to its account's search index (returns before the write: off the answer path). */
export type DocumentIndexer = (accountId: string, data: DocumentData) => Promise<void>;

/** Pages are keyed by their final URL after redirects. */
export function createDocumentIndexer(indexer: SearchIndexer): DocumentIndexer {
  return (accountId, data) => {
    const m = data.metadata;
    const url = typeof m.finalUrl === 'string' && m.finalUrl.trim() ? m.finalUrl : m.sourceURL;
    return indexer.add(accountId, url, data);
  };
}
