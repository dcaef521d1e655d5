import { pageMetadata, scrapeDocument, structuredDocument } from '@wcs/queues';
import { z } from 'zod';

/**
 * The response contract of every endpoint, in zod. The OpenAPI document's responses are generated
 * from these (`z.toJSONSchema`), the client types are checked against that document
 * (tests/src/contract-drift.test.ts), and the scrape document itself comes from
 * `packages/queues/src/document.contract.ts`. Objects are strict: `additionalProperties: false`.
 */

/** What a route sends for a response schema (routes check their bodies with `satisfies Body<…>`). */
export type Body<S extends z.ZodType> = z.output<S>;

const ok = z.literal(true);
const count = z.number().int();
const timestamp = z.iso.datetime().describe('ISO 8601, milliseconds, UTC');

export const scrapeResponse = z.strictObject({ success: ok, data: scrapeDocument });

export const batchStartResponse = z.strictObject({ success: ok, id: z.uuid(), total: count });

export const batchItemResult = z.strictObject({
  id: z.string().describe('only when given in items').optional(),
  url: z.string(),
  status: z.enum(['done', 'failed']),
  data: scrapeDocument.optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});

export const batchStatusResponse = z.strictObject({
  success: ok,
  id: z.string(),
  status: z.enum(['pending', 'processing', 'done']),
  total: count,
  completed: count,
  failed: count,
  creditsUsed: count,
  results: z.array(batchItemResult),
  next: z.string().describe('present when more results remain').optional(),
});

/** DELETE /v1/batch/scrape/:id: the batch's counts after the cancel, and how many items it stopped. */
export const batchCancelResponse = batchStatusResponse
  .omit({ results: true, next: true })
  .extend({ cancelled: count.describe('items that had not finished: failed CANCELLED and refunded') });

/** GET /v1/crawl/:id/webhook-deliveries and /v1/batch/scrape/:id/webhook-deliveries. */
export const jobWebhookDeliveriesResponse = z.strictObject({
  success: ok,
  data: z.array(
    z.strictObject({
      type: z.string().describe('crawl.started, crawl.page, … batch_scrape.completed'),
      attempt: z.number().int().min(1),
      url: z.string(),
      statusCode: z.number().int().nullable().describe('null when no answer came'),
      durationMs: count,
      error: z.string().nullable(),
      attemptedAt: z.string(),
    }),
  ),
});

export const crawlStartResponse = z.strictObject({ success: ok, id: z.uuid(), url: z.string() });

/** A crawled page: the scrape document (fields per `format`, or exactly `scrapeOptions.formats`) and its URL. */
export const crawledPage = scrapeDocument.extend({ url: z.string() });

export const failedPage = z.strictObject({
  url: z.string(),
  error: z.string(),
  code: z.string(),
  statusCode: z.number().int().optional(),
});

const crawlStatusFields = {
  success: ok,
  id: z.string(),
  status: z.enum(['pending', 'processing', 'done', 'failed']),
  url: z.string(),
  total: count.describe('pages in the frontier (≤ maxPages)'),
  completed: count,
  failed: count,
  creditsUsed: count,
  stopReason: z
    .enum(['completed', 'max_pages', 'cancelled', 'out_of_credits', 'timeout', 'error'])
    .describe('only when done or failed')
    .optional(),
  error: z.string().optional(),
};

export const crawlStatusResponse = z.strictObject({
  ...crawlStatusFields,
  pages: z.array(crawledPage),
  failedPages: z.array(failedPage),
  next: z.string().describe('present when more pages remain').optional(),
});

/** DELETE /v1/crawl/:id: the status without pages. */
export const crawlCancelResponse = z.strictObject(crawlStatusFields);

export const searchResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  markdown: z.string().nullable().describe('null when this page failed to scrape').optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  json: structuredDocument.optional(),
  metadata: pageMetadata.optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});

export const searchResponse = z.strictObject({
  success: ok,
  data: z.array(searchResult),
  creditsUsed: count,
});

export const mapResponse = z.strictObject({
  success: ok,
  links: z.array(z.string()),
  total: count,
  warning: z
    .string()
    .describe('present when the start page failed (or was not HTML) but other sources gave links')
    .optional(),
});

export const extractResponse = z.strictObject({
  success: ok,
  data: z.record(z.string(), z.unknown()).describe('shaped like the request schema'),
});

export const monitor = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  interval: z.enum(['hourly', 'daily', 'weekly']),
  status: z.enum(['active', 'paused', 'cancelled']),
  createdAt: timestamp,
  webhookUrl: z.string().describe('only when set').optional(),
});

export const monitorSummary = monitor.extend({
  pausedBy: z
    .enum(['user', 'credits'])
    .nullable()
    .describe('who paused it (null unless paused): credits resume by themselves, user on POST …/resume'),
  lastCheckAt: timestamp.nullable(),
  nextCheckAt: timestamp.nullable(),
});

export const monitorChange = z.strictObject({
  id: z.string(),
  detectedAt: timestamp,
  hash: z.string(),
  snapshot: z.string(),
  previousSnapshot: z
    .string()
    .nullable()
    .describe(
      'the snapshot before this change (the baseline for the first); null for changes older than this field',
    ),
});

export const monitorCheck = z.strictObject({
  checkedAt: timestamp,
  changed: z.boolean(),
  hash: z.string().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});

export const webhookDelivery = z.strictObject({
  changeId: z.string(),
  url: z.string(),
  attemptedAt: timestamp,
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const monitorDetail = monitorSummary.extend({
  checkCount: count,
  changes: z.array(monitorChange),
  checks: z.array(monitorCheck),
  webhookDeliveries: z.array(webhookDelivery),
});

export const monitorCreateResponse = z.strictObject({ success: ok, data: monitor });
export const monitorListResponse = z.strictObject({
  success: ok,
  total: count,
  data: z.array(monitorSummary),
  next: z.string().describe('present when more monitors remain').optional(),
});
export const monitorDetailResponse = z.strictObject({ success: ok, data: monitorDetail });
export const monitorCancelResponse = z.strictObject({ success: ok, data: monitorSummary });
export const webhookSecretResponse = z.strictObject({
  success: ok,
  data: z.strictObject({ secret: z.string() }),
});

/** `{ success: false, error, code }` (+ `details` for some): every error, every endpoint. */
export const errorResponse = z.strictObject({
  success: z.literal(false),
  error: z.string().describe('human-readable message'),
  code: z.string().describe('stable error code (see README, "What failures look like")'),
  details: z.record(z.string(), z.unknown()).optional(),
});
