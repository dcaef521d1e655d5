import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { extractJobResult, mapJobResult, scrapeJobResult } from './document.contract';
import { budgetStartedAtField, deadlineAtField } from './job-budget';
import { sealedSecrets } from './job-secrets';
import { pageOptions } from './page-options.contract';

/**
 * The queue catalog: every queue's name, payload schema and default job options in one place.
 * Producers (`QueueProducer.enqueue`) and consumers (`defineWorker`) are typed from it, and
 * payloads are validated on both sides. Payloads carry ids, never secrets or API keys.
 */
export const outputFormat = z.enum(['markdown', 'html', 'text', 'json']);
export const engineChoice = z.enum(['auto', 'fetch', 'browser']);

export const scrapePayload = z.object({
  requestId: z.string().min(1),
  accountId: z.string().min(1),
  url: z.string().url(),
  format: outputFormat,
  onlyMainContent: z.boolean(),
  engine: engineChoice.default('auto'),
  waitForMs: z.number().int().min(0).max(30_000).default(0),
  timeoutMs: z.number().int().min(1_000).max(120_000),
  /** When the caller stops waiting (epoch ms); every worker aborts the job then (job-budget.ts). */
  deadlineAt: deadlineAtField,
  /** Page options (formats, mobile, location, tag filters, proxy, maxAge). */
  page: pageOptions.optional(),
  /** Headers and actions, sealed (job-secrets.ts). */
  secrets: sealedSecrets.optional(),
  /**
   * POST /v1/parse: the file the caller sent, kept in the UploadStore under `id` (upload-store.ts);
   * the worker converts it instead of fetching `url` (then `upload:` + the file's name).
   */
  upload: z.strictObject({ id: z.string().min(1).max(200) }).optional(),
});

export const batchItemPayload = z.object({
  batchId: z.string().min(1),
  itemId: z.string().min(1),
  /** Start of the attempts' shared budget (written by the worker before a retry; job-budget.ts). */
  budgetStartedAt: budgetStartedAtField,
});

/** Start of a crawl: robots.txt, sitemap seeds, the first frontier rows (crawl-worker). */
export const crawlStartPayload = z.object({ crawlId: z.string().min(1) });

/** One page of a crawl's frontier; the page row in PostgreSQL holds everything else. */
export const crawlPagePayload = z.object({
  crawlId: z.string().min(1),
  pageId: z.string().min(1),
  /** Start of the attempts' shared budget (written by the worker before a retry; job-budget.ts). */
  budgetStartedAt: budgetStartedAtField,
});

/** A map request; the gateway waits for `MapJobResult`. */
export const mapPayload = z.object({
  requestId: z.string().min(1),
  accountId: z.string().min(1),
  url: z.string().url(),
  maxUrls: z.number().int().min(1).max(100_000),
  search: z.string().max(500).optional(),
  includeSubdomains: z.boolean().default(false),
  ignoreSitemap: z.boolean().default(false),
  /** Only the sitemaps' URLs: neither the start page's links nor a shallow crawl. */
  sitemapOnly: z.boolean().optional(),
  /** Answer `pages` too: each link with the title and description of the page when it was fetched. */
  linkMetadata: z.boolean().optional(),
  timeoutMs: z.number().int().min(1_000).max(120_000),
  /** When the caller stops waiting (epoch ms); every worker aborts the job then (job-budget.ts). */
  deadlineAt: deadlineAtField,
});

/** An extract request; the gateway waits for `ExtractJobResult`. No model keys: the worker has them. */
export const extractPayload = z.object({
  requestId: z.string().min(1),
  accountId: z.string().min(1),
  url: z.string().url(),
  /** The plain extract schema (spec section 2), compiled and checked by the worker; absent = prompt-only. */
  schema: z.record(z.string(), z.json()).optional(),
  prompt: z.string().max(10_000).optional(),
  timeoutMs: z.number().int().min(1_000).max(300_000),
  /** Browser wait after load (the `waitFor` option). */
  waitForMs: z.number().int().min(0).max(30_000).optional(),
  /** When the caller stops waiting (epoch ms); every worker aborts the job then (job-budget.ts). */
  deadlineAt: deadlineAtField,
  /** Page options of the fetch (mobile, location, tag filters, proxy, maxAge). */
  page: pageOptions.optional(),
  /** Headers and actions, sealed (job-secrets.ts). */
  secrets: sealedSecrets.optional(),
});

/** One check of a monitor (fired by its BullMQ job scheduler, or once at creation as the baseline). */
export const monitorCheckPayload = z.object({
  monitorId: z.string().min(1),
  /** Not a check: re-create the monitor's job scheduler after its schedule changed (PATCH). */
  reschedule: z.boolean().optional(),
});

/** One webhook POST for a detected change; the change row holds everything else. */
export const webhookPayload = z.object({ changeId: z.string().min(1) });

/** One event of a crawl's or batch's webhook; its outbox row holds everything else. */
export const jobWebhookPayload = z.object({ eventId: z.string().min(1) });

const keepFinished = {
  removeOnComplete: { age: 600, count: 2_000 },
  removeOnFail: { age: 3_600, count: 5_000 },
} satisfies JobsOptions;

export const queueCatalog = {
  /** Interactive scrapes: the gateway waits for the job's return value. */
  scrape: {
    payload: scrapePayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
  /** One batch item; the result goes to PostgreSQL, not into the job's return value. */
  'scrape-batch': {
    payload: batchItemPayload,
    jobOptions: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      ...keepFinished,
    } satisfies JobsOptions,
  },
  crawl: {
    payload: crawlStartPayload,
    jobOptions: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      ...keepFinished,
    } satisfies JobsOptions,
  },
  'crawl-page': {
    payload: crawlPagePayload,
    jobOptions: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      ...keepFinished,
    } satisfies JobsOptions,
  },
  /** Interactive like `scrape`: no retries, the caller is waiting. */
  map: {
    payload: mapPayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
  /** Interactive; attempts 1 because every attempt may cost model tokens. */
  extract: {
    payload: extractPayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
  /** Scheduled checks; attempts 1: a failed check is recorded and the next one comes at the interval. */
  'monitor-check': {
    payload: monitorCheckPayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
  /** Spec: webhooks are never retried; the processor records every attempt and never throws for HTTP failures. */
  webhook: {
    payload: webhookPayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
  /**
   * Job webhooks. Job id = event id. Attempts 1: a failed POST is retried by the
   * dispatcher itself (the same job delayed, attempts counted in PostgreSQL, capped), so an
   * attempt is logged once and a crash mid-send is never sent twice.
   */
  'job-webhook': {
    payload: jobWebhookPayload,
    jobOptions: { attempts: 1, ...keepFinished } satisfies JobsOptions,
  },
} as const;

export type QueueName = keyof typeof queueCatalog;
export type PayloadOf<N extends QueueName> = z.infer<(typeof queueCatalog)[N]['payload']>;
export type PayloadInputOf<N extends QueueName> = z.input<(typeof queueCatalog)[N]['payload']>;
export const QUEUE_NAMES = Object.keys(queueCatalog) as QueueName[];

/** Return value of the interactive queues the gateway waits for, validated when it comes back. */
export const jobResults = {
  scrape: scrapeJobResult,
  map: mapJobResult,
  extract: extractJobResult,
} as const;
export type WaitedQueue = keyof typeof jobResults;
/** The waited queues are also the only ones whose jobs another process cancels (job-cancel.ts). */
export const isWaitedQueue = (name: QueueName): name is WaitedQueue => name in jobResults;
export type ResultOf<N extends WaitedQueue> = z.infer<(typeof jobResults)[N]>;
