import { toServiceError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import {
  type Job,
  type JobContext,
  type JobSecrets,
  openJobSecrets,
  type PayloadOf,
  remainingMs,
  type ScrapeJobResult,
} from '@wcs/queues';
import { type PageStores, type ScrapeTools, scrapeDocument } from '@wcs/scraper';
import type { DocumentIndexer } from './document-indexer';

/**
 * Our own failures (the content pipeline broke on a page, or anything unexpected) are logged
 * with the URL; the job still fails, so the caller is refunded and sees the code.
 */
export function logOwnFailure(logger: Logger | undefined, url: string, err: unknown): void {
  const se = toServiceError(err);
  if (se.code === 'CONTENT_PROCESSING_FAILED' || se.code === 'INTERNAL')
    logger?.error({ err, url, code: se.code }, 'scrape failed in our own code');
}

/** The worker's own timeout fires this long before the job's deadline, so its error is the answer. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * `scrape` jobs: the gateway waits for this return value (billing stays with the gateway). The page
 * gets the job's signal (deadline = when the gateway stops waiting, or its cancel) and a budget
 * that ends before that deadline even when the job waited in the queue.
 */
export function scrapeProcessor(
  tools: ScrapeTools,
  index?: DocumentIndexer,
  logger?: Logger,
  stores: PageStores & { secrets?: JobSecrets } = {},
) {
  return async (payload: PayloadOf<'scrape'>, _job: Job, ctx: JobContext): Promise<ScrapeJobResult> => {
    const startedAt = Date.now();
    let outcome: Awaited<ReturnType<typeof scrapeDocument>>;
    try {
      const timeoutMs = Math.max(1, Math.min(payload.timeoutMs, remainingMs(ctx) - ANSWER_MARGIN_MS));
      const secrets = await openJobSecrets(stores.secrets, payload.secrets);
      outcome = await scrapeDocument(tools, {
        url: payload.url,
        format: payload.format,
        onlyMainContent: payload.onlyMainContent,
        engine: payload.engine,
        waitForMs: payload.waitForMs,
        timeoutMs,
        signal: ctx.signal,
        accountId: payload.accountId,
        ...(payload.page ? { page: payload.page } : {}),
        ...(secrets ? { secrets } : {}),
        ...(stores.cache ? { cache: stores.cache } : {}),
        ...(stores.screenshots
          ? { screenshots: { store: stores.screenshots, accountId: payload.accountId } }
          : {}),
      });
    } catch (err) {
      logOwnFailure(logger, payload.url, err);
      throw err;
    }
    // Written behind the answer; announced before it, so a search started after the answer finds it.
    const persistStarted = performance.now();
    await index?.add(payload.accountId, outcome.data);
    const persistMs = performance.now() - persistStarted;
    return {
      data: outcome.data,
      engine: outcome.engine,
      elapsedMs: outcome.elapsedMs,
      timings: { startedAt, finishedAt: Date.now(), ...outcome.timings, persistMs },
    };
  };
}
