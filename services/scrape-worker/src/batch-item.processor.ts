import type { OutputFormat } from '@wcs/content';
import type { BatchesRepository } from '@wcs/db';
import { toServiceError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import {
  isJobLockLost,
  type Job,
  type JobContext,
  type PayloadOf,
  pageOptions,
  pageSecrets,
  remainingMs,
  retryOrRecord,
} from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { type ContentPool, type PageModel, type PageStores, scrapeDocument } from '@wcs/scraper';
import type { DocumentIndexer } from './document-indexer';
import { logOwnFailure } from './scrape.processor';

export interface BatchItemSettings {
  itemTimeoutMs: number;
  maxStarts: number;
}

/**
 * `scrape-batch` jobs. The database is the source of truth: an item already finished is skipped
 * (a re-delivered job after a crash does no work and bills nothing), and every outcome is written
 * with an idempotent transition. Target errors fail the item (and refund its credit); transient
 * ones are retried by the queue until the last attempt, or until the next attempt would start
 * past the item's budget (shared by all attempts, `ctx.deadlineAt`): then the item fails with
 * TIMEOUT. Each attempt's page gets the job's signal and at most what is left of the budget.
 */
export function batchItemProcessor(
  deps: {
    batches: BatchesRepository;
    renderer: Renderer;
    pool: ContentPool;
    model?: PageModel;
    logger: Logger;
    index?: DocumentIndexer;
    stores?: PageStores;
  },
  s: BatchItemSettings,
) {
  return async (
    payload: PayloadOf<'scrape-batch'>,
    job: Job,
    ctx: JobContext,
  ): Promise<{ itemId: string; status: string }> => {
    const item = await deps.batches.startItem(payload.itemId);
    if (!item) return { itemId: payload.itemId, status: 'already-finished' };
    if (item.attempts > s.maxStarts) {
      await deps.batches.failItem(item.itemId, {
        error: `Gave up after ${item.attempts - 1} interrupted attempts`,
        code: 'INTERNAL',
      });
      return { itemId: item.itemId, status: 'failed' };
    }
    try {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      // Written by the gateway from the same schemas; parsed again at this boundary.
      const page = pageOptions.nullable().parse(item.pageOptions);
      const secrets = pageSecrets.nullable().parse(item.pageSecrets);
      const stores = deps.stores ?? {};
      // A worker that was cut off since it took the item may have lost it to another: no fetch then.
      await ctx.confirmLock();
      const outcome = await scrapeDocument(deps, {
        url: item.url,
        format: item.format as OutputFormat,
        onlyMainContent: item.onlyMainContent,
        timeoutMs: Math.max(1, Math.min(s.itemTimeoutMs, remainingMs(ctx))),
        signal: ctx.signal,
        accountId: item.accountId,
        ...(page ? { page } : {}),
        ...(secrets ? { secrets } : {}),
        ...(stores.cache ? { cache: stores.cache } : {}),
        ...(stores.history ? { history: stores.history } : {}),
        ...(stores.screenshots
          ? { screenshots: { store: stores.screenshots, accountId: item.accountId } }
          : {}),
      });
      // Announced before the item is reported done, so a search started after that finds it;
      // written behind it (best effort, never throws).
      // A removed page (changeTracking: a 404 where content was) has no content to index.
      const removed = outcome.data.changeTracking?.changeStatus === 'removed';
      const indexed = removed ? undefined : await deps.index?.announce(item.accountId, outcome.data);
      try {
        await deps.batches.completeItem(item.itemId, outcome.data);
      } catch (err) {
        await indexed?.drop();
        throw err;
      }
      await indexed?.write();
      return { itemId: item.itemId, status: 'done' };
    } catch (err) {
      if (isJobLockLost(err)) throw err;
      logOwnFailure(deps.logger, item.url, err);
      const se = retryOrRecord(
        toServiceError(err),
        job,
        ctx,
        (n) => `Batch item gave up after ${n} attempt(s)`,
      );
      if (se === 'retry') throw toServiceError(err);
      deps.logger.debug({ itemId: item.itemId, code: se.code }, 'batch item failed');
      // A billed kind (the caller's selectors spent the budget) keeps the item's credit.
      await deps.batches.failItem(item.itemId, { error: se.message, code: se.code, billed: se.billed });
      return { itemId: item.itemId, status: 'failed' };
    }
  };
}
