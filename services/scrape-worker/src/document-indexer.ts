import type { DocumentsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { DocumentData } from '@wcs/queues';

/** Adds a scraped page to its account's search index (the embedded search provider's corpus). */
export type DocumentIndexer = (accountId: string, data: DocumentData) => Promise<void>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/**
 * Best effort by design: an indexing failure is logged and never fails (or bills differently)
 * the scrape that produced the page. Pages are keyed by their final URL after redirects.
 */
export function createDocumentIndexer(deps: {
  documents: DocumentsRepository;
  logger: Logger;
}): DocumentIndexer {
  return async (accountId, data) => {
    const m = data.metadata;
    const url = str(m.finalUrl) ?? m.sourceURL;
    // A document asked for without markdown (`formats`) is not indexed: search serves markdown.
    if (data.markdown === undefined || (!data.markdown.trim() && !str(m.title))) return;
    try {
      await deps.documents.upsert({
        accountId,
        url,
        title: str(m.title),
        description: str(m.description),
        markdown: data.markdown,
        language: str(m.language),
      });
    } catch (err) {
      deps.logger.warn({ err, url }, 'indexing a scraped page for search failed');
    }
  };
}
