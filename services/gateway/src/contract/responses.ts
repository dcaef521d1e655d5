import { changeTrackingResult, pageMetadata, scrapeDocument, structuredDocument } from '@wcs/queues';
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
    .enum([
      'completed',
      'max_pages',
      'cancelled',
      'out_of_credits',
      'key_budget_exceeded',
      'timeout',
      'error',
    ])
    .describe('only when done or failed')
    .optional(),
  error: z.string().optional(),
};

export const crawlStatusResponse = z.strictObject({
  ...crawlStatusFields,
  pages: z.array(crawledPage),
  failedPages: z.array(failedPage),
  removed: z
    .array(z.string())
    .describe(
      "changeTracking crawls, once done, with the first page of results (skip=0): the URLs the same account's previous done crawl of the same start URL (and tag) returned that this crawl did not",
    )
    .optional(),
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
  /** With `changeTracking: true`: the hit's page against the account's previous scrape of it. */
  changeTracking: changeTrackingResult.optional(),
  summary: z.string().describe('with `summary: true`').optional(),
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
  pages: z
    .array(
      z.strictObject({
        url: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
      }),
    )
    .describe(
      'with linkMetadata: the links in the same order, with title/description where the map fetched the page',
    )
    .optional(),
  warning: z
    .string()
    .describe('present when the start page failed (or was not HTML) but other sources gave links')
    .optional(),
});

export const extractResponse = z.strictObject({
  success: ok,
  data: z.record(z.string(), z.unknown()).describe('shaped like the request schema'),
  chunks: z
    .number()
    .int()
    .min(2)
    .optional()
    .describe(
      'extension: the page was longer than the input budget and extracted in this many chunks (absent for one)',
    ),
  usage: z
    .strictObject({
      inputTokens: z.number().int().describe('model input tokens of every call (estimated when `estimated`)'),
      outputTokens: z
        .number()
        .int()
        .describe('model output tokens of every call (estimated when `estimated`)'),
      modelCalls: z
        .number()
        .int()
        .describe(
          'model calls: one per chunk, plus repair turns, retries and the call settling disagreeing values',
        ),
      chunks: z.number().int().describe('chunks the page was read in (1 for a page within the input budget)'),
      failedChunks: z
        .number()
        .int()
        .describe('chunks left out of `data`: their call failed twice or their answer stayed invalid'),
      estimated: z
        .boolean()
        .describe('true when the model server reported no token counts and they are characters / 4'),
    })
    .describe('what the extraction used; credits are not affected (always 5)'),
  truncated: z
    .boolean()
    .describe('true when part of the page was never read (past EXTRACT_MAX_CHUNKS chunks); see `warning`'),
  warning: z
    .string()
    .describe('present when the page was cut or chunks failed: `data` may miss values')
    .optional(),
});

export const monitor = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  interval: z.enum(['hourly', 'daily', 'weekly', 'cron']).describe('"cron" when the monitor runs on `cron`'),
  cron: z.string().describe('the 5-field cron expression of the checks; only for a cron schedule').optional(),
  timezone: z.string().describe('the IANA time zone `cron` is read in; only for a cron schedule').optional(),
  status: z.enum(['active', 'paused', 'cancelled']),
  createdAt: timestamp,
  webhookUrl: z.string().describe('only when set').optional(),
  ignoreText: z
    .array(z.string())
    .describe('lines left out before hashing and diffing (substrings or /regex/flags); only when set')
    .optional(),
  threshold: z.number().describe('share of words that must change (0–1); only when above 0').optional(),
  goal: z.string().describe('what the extract model judges each change against; only when set').optional(),
  webhookFormat: z
    .enum(['json', 'slack', 'discord'])
    .describe('the webhook body: a Slack or Discord message; only when not the default json')
    .optional(),
});

export const monitorSummary = monitor.extend({
  pausedBy: z
    .enum(['user', 'credits'])
    .nullable()
    .describe('who paused it (null unless paused): credits resume by themselves, user on POST …/resume'),
  lastCheckAt: timestamp.nullable(),
  nextCheckAt: timestamp.nullable(),
});

/** The goal's judge on one change. */
const judgement = z.strictObject({ relevant: z.boolean(), reason: z.string() });

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
  diff: z
    .strictObject({
      added: z
        .array(z.string())
        .describe(
          'lines added (at most 200; added and removed 64 KiB together; each line ≤ 1,000 characters)',
        ),
      removed: z.array(z.string()).describe('lines removed (at most 200)'),
      text: z
        .string()
        .describe('unified diff of the cleaned markdown (at most 16 KiB; each line ≤ 1,000 characters)'),
      truncated: z.boolean().describe('true when the bounds cut the lists or the text'),
    })
    .nullable()
    .describe('the diff against the baseline; null for changes older than this field'),
  judgement: judgement.describe("the goal's judge (only for monitors with a goal)").optional(),
});

export const monitorCheck = z.strictObject({
  checkedAt: timestamp,
  changed: z.boolean(),
  hash: z.string().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  judgement: judgement
    .describe(
      "the goal's judge when it saw this check's change (a change judged irrelevant is kept only here)",
    )
    .optional(),
});

export const irrelevantChange = z.strictObject({
  checkedAt: timestamp,
  judgement: judgement.describe("the goal's judge: relevant is false"),
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
  irrelevantChanges: z
    .array(irrelevantChange)
    .describe(
      "the latest 20 checks whose change the goal's judge found irrelevant, newest first (also when older than the 20 checks listed); [] without a goal",
    ),
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
