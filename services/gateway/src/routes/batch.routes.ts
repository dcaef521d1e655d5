import type { BatchItemPage, BatchWithItems } from '@wcs/db';
import { NotFoundError, ValidationError } from '@wcs/errors';
import { pageCredits } from '@wcs/queues';
import { Router } from 'express';
import { z } from 'zod';
import { type BatchBody, batchBody, MAX_BATCH_ITEMS } from '../contract/batch.request';
import type { Body, batchStartResponse } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import { setCreditHeaders } from '../jobs/credit-headers';
import { authOf } from '../middleware/auth.middleware';
import { checkJobWebhook } from '../validation/job-webhook';
import { requireModelForPage } from '../validation/model-check';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';
import { crawlCreditHeaders } from './crawl.routes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pageQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_BATCH_ITEMS).default(MAX_BATCH_ITEMS),
});

/** Results are matched to items by `id`: two items with one id would be indistinguishable. */
function assertUniqueIds(items: ReadonlyArray<{ id?: string | undefined }>): void {
  const seen = new Map<string, number>();
  items.forEach((it, i) => {
    if (it.id === undefined) return;
    const first = seen.get(it.id);
    if (first !== undefined) {
      throw new ValidationError(
        `items.${i}.id: duplicate id "${it.id.slice(0, 100)}" (also items.${first}.id); ids must be unique within a batch`,
        { details: { field: `items.${i}.id`, duplicateOf: `items.${first}.id` } },
      );
    }
    seen.set(it.id, i);
  });
}

/**
 * Start a batch (POST /v1/batch/scrape and the Firecrawl-compatible routes): validates the items
 * and page options, charges and stores the batch, enqueues one job per item.
 */
export async function startBatchOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: BatchBody,
): Promise<{ batchId: string; total: number; credits: { used: number; remaining: number } }> {
  // `items` takes precedence over `urls` (spec 4.5).
  const field = body.items ? 'items' : 'urls';
  const raw = body.items ?? body.urls?.map((url) => ({ url, id: undefined }));
  if (!raw) throw new ValidationError('Either urls or items is required');
  if (raw.length === 0) throw new ValidationError(`${field}: must contain at least one URL`);
  if (raw.length > MAX_BATCH_ITEMS) {
    throw new ValidationError(`${field}: at most ${MAX_BATCH_ITEMS} URLs per batch (got ${raw.length})`);
  }
  assertUniqueIds(raw);
  const { webhook: webhookInput, ...pageBody } = body;
  const { options, secrets } = checkPageOptions(pageBody, { format: body.format });
  requireModelForPage(deps.deployment, options);
  // No https:// prefix for bare domains here: the spec asks callers to send full URLs.
  const items = raw.map((it, i) => ({
    url: normalizeTargetUrl(it.url, {
      prependHttps: false,
      field: field === 'items' ? `items.${i}.url` : `urls.${i}`,
    }),
    ...(it.id !== undefined ? { clientId: it.id } : {}),
  }));

  const webhook = webhookInput !== undefined ? await checkJobWebhook(webhookInput, deps.settings) : undefined;
  const batch = await deps.batches.create({
    accountId: auth.accountId,
    keyId: auth.keyId,
    items,
    format: body.format ?? 'markdown',
    onlyMainContent: body.onlyMainContent,
    // 1 per item, 6 with the `summary` format (pageCredits of @wcs/queues).
    creditsPerItem: pageCredits(options),
    ...(Object.keys(options).length > 0 ? { pageOptions: options } : {}),
    ...(secrets ? { pageSecrets: secrets } : {}),
    ...(webhook
      ? ({ webhook } satisfies Pick<Parameters<GatewayDeps['batches']['create']>[0], 'webhook'>)
      : {}),
  });
  try {
    await deps.producer.enqueueBulk(
      'scrape-batch',
      // Priority = position in the batch: the queue serves every batch's first items before any
      // batch's later ones, so a batch created behind a big one does not wait for all of it
      // (docs/reliability/content.md).
      batch.items.map((it, i) => ({
        payload: { batchId: batch.batchId, itemId: it.itemId },
        opts: { jobId: it.itemId, priority: i + 1 },
      })),
    );
  } catch (err) {
    // The batch and its items are committed; the scrape worker's reconciler enqueues them
    // once Redis is back, so the caller still gets its batch id.
    deps.logger.warn({ err, batchId: batch.batchId }, 'batch enqueue failed; left to the reconciler');
  }
  return {
    batchId: batch.batchId,
    total: batch.items.length,
    // Charged up front, one per URL; failed items are refunded later (the status's creditsUsed).
    credits: { used: batch.charged, remaining: batch.balance },
  };
}

/**
 * The caller's batch with its items — all of them, or one page of those in `page.statuses` (a
 * status answer; `limit: 0` = the counters only). Unknown ids and other accounts' ids are the same 404.
 */
export async function batchStatusOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  id: string,
  page?: BatchItemPage,
): Promise<BatchWithItems> {
  // Never confirm another account's job.
  const batch = !UUID.test(id)
    ? null
    : page
      ? await deps.batches.getPage(auth.accountId, id, page)
      : await deps.batches.get(auth.accountId, id);
  if (!batch) throw new NotFoundError('Batch not found');
  return batch;
}

const COUNTERS_ONLY: BatchItemPage = { statuses: [], skip: 0, limit: 0 };

/** The error code of items a cancel stopped (they are refunded like any failed item). */
export const BATCH_CANCELLED_CODE = 'CANCELLED';

/**
 * Cancel a batch (idempotent): every item not finished yet ends `failed` with code CANCELLED and
 * is refunded, through the same guarded transition as a failure, so a worker that has not started
 * it skips it and one that is running it records nothing. Their queue jobs are removed (best effort).
 */
export async function cancelBatchOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  id: string,
): Promise<{ batch: BatchWithItems; cancelled: number }> {
  // The open items only (no documents to read), then the counters they leave.
  const open = (await batchStatusOperation(deps, auth, id, { statuses: ['queued', 'running'], skip: 0 }))
    .items;
  let cancelled = 0;
  for (const it of open) {
    const stopped = await deps.batches.failItem(it.itemId, {
      error: 'Cancelled by the caller',
      code: BATCH_CANCELLED_CODE,
    });
    if (stopped) cancelled += 1;
  }
  try {
    const queue = deps.producer.queue('scrape-batch');
    await Promise.all(open.map((it) => queue.remove(it.itemId).catch(() => 0)));
  } catch (err) {
    deps.logger.warn({ err, batchId: id }, 'removing cancelled batch jobs failed');
  }
  return { batch: await batchStatusOperation(deps, auth, id, COUNTERS_ONLY), cancelled };
}

/** The head of every batch answer (status and cancel): its id, status and counts. */
function batchCounts(b: {
  batchId: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
}) {
  return {
    success: true as const,
    id: b.batchId,
    status: b.status,
    total: b.total,
    completed: b.completed,
    failed: b.failed,
    creditsUsed: b.creditsUsed,
  };
}

/** POST/GET/DELETE /v1/batch/scrape — spec 4.5 and 4.6; DELETE cancels. */
export function batchRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/v1/batch/scrape', async (req, res) => {
    const body = parseBody(batchBody, req.body);
    const batch = await startBatchOperation(deps, authOf(res), body);
    setCreditHeaders(res, batch.credits);
    res
      .status(202)
      .json({ success: true, id: batch.batchId, total: batch.total } satisfies Body<
        typeof batchStartResponse
      >);
  });

  router.get('/v1/batch/scrape/:id', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const page = pageQuery.safeParse(req.query);
    if (!page.success)
      throw new ValidationError('skip and limit must be non-negative integers (limit ≤ 500)');
    const batch = await batchStatusOperation(deps, auth, id, {
      statuses: ['done', 'failed'],
      skip: page.data.skip,
      limit: page.data.limit,
    });
    await crawlCreditHeaders(deps, res, auth, batch.creditsUsed);
    const finished = batch.completed + batch.failed;
    const results = batch.items.map((it) => ({
      ...(it.clientId !== null ? { id: it.clientId } : {}),
      url: it.url,
      status: it.status,
      ...(it.status === 'done'
        ? { data: it.result }
        : { error: it.error ?? 'Scrape failed', code: it.errorCode }),
    }));
    res.json({
      ...batchCounts(batch),
      results,
      ...(page.data.skip + page.data.limit < finished
        ? {
            next: `/v1/batch/scrape/${batch.batchId}?skip=${page.data.skip + page.data.limit}&limit=${page.data.limit}`,
          }
        : {}),
    });
  });

  router.delete('/v1/batch/scrape/:id', async (req, res) => {
    const { batch, cancelled } = await cancelBatchOperation(deps, authOf(res), String(req.params.id));
    res.json({ ...batchCounts(batch), cancelled });
  });

  return router;
}
