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
  type UploadStore,
} from '@wcs/queues';
import { documentFromUpload, type PageStores, type ScrapeTools, scrapeDocument } from '@wcs/scraper';
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
  stores: PageStores & { secrets?: JobSecrets; uploads?: UploadStore } = {},
) {
  return async (payload: PayloadOf<'scrape'>, _job: Job, ctx: JobContext): Promise<ScrapeJobResult> => {
    const startedAt = Date.now();
    if (payload.upload) return parseUpload(tools, stores.uploads, payload, ctx, logger);
    // The page's search announcement is made while it is fetched and converted, not after: the
    // answer waits for it all the same (read-your-writes), one round trip sooner. Only pages that
    // will have markdown are indexed.
    const formats = payload.page?.formats;
    const reserved = !formats || formats.includes('markdown') ? index?.reserve(payload.accountId) : undefined;
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
        ...(stores.history ? { history: stores.history } : {}),
        ...(stores.screenshots
          ? { screenshots: { store: stores.screenshots, accountId: payload.accountId } }
          : {}),
      });
    } catch (err) {
      // Behind the error's answer: searches held by the announcement wait until it is taken back.
      void reserved?.drop();
      logOwnFailure(logger, payload.url, err);
      throw err;
    }
    // Written behind the answer; announced before it, so a search started after the answer finds it.
    const persistStarted = performance.now();
    // A removed page (changeTracking: a 404 where content was) has no content to index.
    if (outcome.data.changeTracking?.changeStatus === 'removed') await reserved?.drop();
    else await (reserved ? reserved.add(outcome.data) : index?.add(payload.accountId, outcome.data));
    const persistMs = performance.now() - persistStarted;
    return {
      data: outcome.data,
      engine: outcome.engine,
      elapsedMs: outcome.elapsedMs,
      timings: { startedAt, finishedAt: Date.now(), ...outcome.timings, persistMs },
    };
  };
}

/**
 * A `scrape` job of POST /v1/parse: the caller's file (kept in the UploadStore) converted like a
 * fetched page. Not indexed for search: an upload has no address of its own to be found by.
 */
async function parseUpload(
  tools: ScrapeTools,
  uploads: UploadStore | undefined,
  payload: PayloadOf<'scrape'>,
  ctx: JobContext,
  logger?: Logger,
): Promise<ScrapeJobResult> {
  const startedAt = Date.now();
  const id = payload.upload?.id;
  if (!uploads || id === undefined)
    throw new Error('This worker cannot read uploaded files (no UploadStore wired)');
  try {
    const bytes = await uploads.take(id);
    const t0 = performance.now();
    const page = payload.page;
    const data = await documentFromUpload(tools.pool, {
      bytes,
      sourceUrl: payload.url,
      format: payload.format,
      onlyMainContent: payload.onlyMainContent,
      signal: ctx.signal,
      budgetMs: Math.max(1, Math.min(payload.timeoutMs, remainingMs(ctx) - ANSWER_MARGIN_MS)),
      accountId: payload.accountId,
      ...(tools.model ? { model: tools.model } : {}),
      ...(page
        ? {
            page: {
              ...(page.formats ? { formats: page.formats } : {}),
              ...(page.includeTags ? { includeTags: page.includeTags } : {}),
              ...(page.excludeTags ? { excludeTags: page.excludeTags } : {}),
            },
          }
        : {}),
    });
    const contentMs = performance.now() - t0;
    return {
      data,
      engine: 'fetch',
      elapsedMs: 0,
      timings: { startedAt, finishedAt: Date.now(), fetchMs: 0, contentMs, persistMs: 0 },
    };
  } catch (err) {
    logOwnFailure(logger, payload.url, err);
    throw err;
  }
}
