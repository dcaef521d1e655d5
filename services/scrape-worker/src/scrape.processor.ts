import type { PayloadOf, ScrapeJobResult } from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { scrapeDocument } from '@wcs/scraper';
import type { DocumentIndexer } from './document-indexer';

/** `scrape` jobs: the gateway waits for this return value (billing stays with the gateway). */
export function scrapeProcessor(renderer: Renderer, index?: DocumentIndexer) {
  return async (payload: PayloadOf<'scrape'>): Promise<ScrapeJobResult> => {
    const outcome = await scrapeDocument(renderer, {
      url: payload.url,
      format: payload.format,
      onlyMainContent: payload.onlyMainContent,
      engine: payload.engine,
      waitForMs: payload.waitForMs,
      timeoutMs: payload.timeoutMs,
    });
    // Searchable afterwards through the embedded search provider (best effort, never throws).
    await index?.(payload.accountId, outcome.data);
    return { data: outcome.data, engine: outcome.engine, elapsedMs: outcome.elapsedMs };
  };
}
