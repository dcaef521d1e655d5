import type { PayloadOf, ScrapeJobResult } from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { scrapeDocument } from '@wcs/scraper';

/** `scrape` jobs: the gateway waits for this return value (billing stays with the gateway). */
export function scrapeProcessor(renderer: Renderer) {
  return async (payload: PayloadOf<'scrape'>): Promise<ScrapeJobResult> => {
    const outcome = await scrapeDocument(renderer, {
      url: payload.url,
      format: payload.format,
      onlyMainContent: payload.onlyMainContent,
      engine: payload.engine,
      waitForMs: payload.waitForMs,
      timeoutMs: payload.timeoutMs,
    });
    return { data: outcome.data, engine: outcome.engine, elapsedMs: outcome.elapsedMs };
  };
}
