/**
 * Firecrawl-compatible batch scrape: POST/GET/DELETE `/v2/batch/scrape[/:id]`,
 * `GET /v2/batch/scrape/:id/errors`, and the same under `/v1`. The native operations of
 * ../routes/batch.routes run everything; this file translates requests and answers.
 */
import type { BatchWithItems } from '@wcs/db';
import { ValidationError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { batchBody, MAX_BATCH_ITEMS } from '../contract/batch.request';
import type { GatewayDeps } from '../deps';
import { setCreditHeaders } from '../jobs/credit-headers';
import { authOf } from '../middleware/auth.middleware';
import { batchStatusOperation, cancelBatchOperation, startBatchOperation } from '../routes/batch.routes';
import { crawlCreditHeaders } from '../routes/crawl.routes';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';
import {
  batchStatusOf,
  compatUrl,
  cutStatusPage,
  expiresAtOf,
  parseStatusPageQuery,
  statusBody,
  storedDocument,
} from './job-status.compat';
import {
  FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
  type FirecrawlScrapeOptionsV2,
  firecrawlScrapeOptionsV1Fields,
  firecrawlScrapeOptionsV2Fields,
  type TranslatedScrapeOptions,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

const jobFields = {
  urls: z
    .array(z.string({ error: 'must be a string' }), { error: 'is required and must be an array of URLs' })
    .min(1, 'must contain at least one URL')
    .max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} URLs per batch`),
  webhook: z.unknown().optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  // Refused when set (no counterpart).
  appendToId: z.unknown().optional(),
  maxConcurrency: z.unknown().optional(),
};

const batchV2 = z.strictObject({ ...firecrawlScrapeOptionsV2Fields, ...jobFields });
const batchV1 = z.strictObject({ ...firecrawlScrapeOptionsV1Fields, ...jobFields });

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** Firecrawl's `ignoreInvalidURLs`: the URLs the native check refuses are reported, not fatal. */
function splitInvalid(urls: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const [i, url] of urls.entries()) {
    try {
      normalizeTargetUrl(url, { prependHttps: false, field: `urls.${i}` });
      valid.push(url);
    } catch {
      invalid.push(url);
    }
  }
  if (valid.length === 0) refuse('urls', 'none of the URLs is valid (absolute http(s) URLs are needed)');
  return { valid, invalid };
}

/** The native batch body: the scrape options at top level, as the native route takes them. */
function nativeBody(
  urls: string[],
  scrape: TranslatedScrapeOptions,
  webhook: unknown,
): Record<string, unknown> {
  const { onlyMainContent, timeout, waitFor, ...page } = scrape.page;
  if (timeout !== undefined) refuse('timeout', 'is not supported for batch scrapes (only for scrape)');
  if (waitFor !== undefined)
    refuse('waitFor', 'is not supported for batch scrapes; use a { type: "wait" } action');
  return {
    urls,
    ...page,
    ...(onlyMainContent !== undefined ? { onlyMainContent } : {}),
    ...(webhook !== undefined ? { webhook } : {}),
  };
}

async function startBatch(deps: GatewayDeps, req: Request, res: Response, version: 'v1' | 'v2') {
  const b = version === 'v2' ? parseBody(batchV2, req.body) : parseBody(batchV1, req.body);
  const { urls, webhook, ignoreInvalidURLs, appendToId, maxConcurrency, ...options } = b;
  if (appendToId !== undefined && appendToId !== null)
    refuse('appendToId', 'is not supported; start a new batch');
  if (maxConcurrency !== undefined && maxConcurrency !== null) {
    refuse('maxConcurrency', 'is not supported; the service sets its own scrape concurrency');
  }
  const scrape =
    version === 'v2'
      ? toNativePageFields(options as FirecrawlScrapeOptionsV2, {
          allowJson: false,
          defaultMaxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
        })
      : toNativePageFieldsV1(options, { allowJson: false });
  const { valid, invalid } = ignoreInvalidURLs ? splitInvalid(urls) : { valid: urls, invalid: [] };
  const body = parseBody(batchBody, nativeBody(valid, scrape, webhook));
  const { batchId, credits } = await startBatchOperation(deps, authOf(res), body);
  setCreditHeaders(res, credits);
  res.status(200).json({
    success: true,
    id: batchId,
    url: compatUrl(req, `/${version}/batch/scrape/${batchId}`),
    ...(ignoreInvalidURLs ? { invalidURLs: invalid } : {}),
  });
}

/** The Firecrawl status of a batch, one page of its documents (position order). */
/** The page of done items a status request asks for (read alone: batchStatusOperation's `page`). */
export function doneItemsPage(req: Request): { statuses: ['done']; skip: number; limit: number } {
  const q = parseStatusPageQuery(req.query);
  return { statuses: ['done'], skip: q.skip, limit: q.limit };
}

/** `batch` holds the page of done items asked for (`doneItemsPage`). */
export function batchStatusResponse(
  req: Request,
  batch: BatchWithItems,
  path: string,
): Record<string, unknown> {
  const q = parseStatusPageQuery(req.query);
  const page = cutStatusPage(batch.items, (it) => storedDocument(it.result, { url: it.url }), {
    skip: q.skip,
    available: batch.completed,
  });
  const limit = req.query.limit !== undefined ? `&limit=${q.limit}` : '';
  return statusBody({
    status: batchStatusOf(batch),
    completed: batch.completed,
    total: batch.total,
    creditsUsed: batch.creditsUsed,
    expiresAt: expiresAtOf(batch.createdAt, null),
    page,
    nextUrl: (skip) => compatUrl(req, `${path}?skip=${skip}${limit}`),
  });
}

/** Failed items in Firecrawl's errors shape (robots-blocked URLs are not recorded for batches). */
export function batchErrors(batch: BatchWithItems): Record<string, unknown> {
  return {
    success: true,
    errors: batch.items
      .filter((it) => it.status === 'failed')
      .map((it) => ({
        id: it.itemId,
        url: it.url,
        error: it.error ?? 'Scrape failed',
        ...(it.errorCode ? { code: it.errorCode } : {}),
      })),
    robotsBlocked: [],
  };
}

export function batchCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  for (const version of ['v1', 'v2'] as const) {
    router.post(`/${version}/batch/scrape`, (req, res) => startBatch(deps, req, res, version));

    router.get(`/${version}/batch/scrape/:id`, async (req, res) => {
      const id = String(req.params.id);
      const auth = authOf(res);
      const batch = await batchStatusOperation(deps, auth, id, doneItemsPage(req));
      await crawlCreditHeaders(deps, res, auth, batch.creditsUsed);
      res.json(batchStatusResponse(req, batch, `/${version}/batch/scrape/${batch.batchId}`));
    });

    router.delete(`/${version}/batch/scrape/:id`, async (req, res) => {
      const { batch } = await cancelBatchOperation(deps, authOf(res), String(req.params.id));
      res.json({ success: true, status: batchStatusOf(batch) });
    });

    const errors = async (req: Request, res: Response) => {
      const batch = await batchStatusOperation(deps, authOf(res), String(req.params.id));
      res.json(batchErrors(batch));
    };
    router.get(`/${version}/batch/scrape/:id/errors`, errors);
    // FirecrawlAppV1.checkBatchScrapeErrors sends a DELETE to this path.
    if (version === 'v1') router.delete('/v1/batch/scrape/:id/errors', errors);
  }
  return router;
}
