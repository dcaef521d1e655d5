/**
 * Webhooks of crawls and batches, in Firecrawl's convention so its clients' receivers
 * work unchanged: `webhook` is a URL or `{ url, headers, metadata, events }`; each event is a POST
 * of `{ success, type, id, data, error?, metadata }` with `type` like `crawl.page` or
 * `batch_scrape.completed`, signed `X-Firecrawl-Signature: sha256=<HMAC-SHA256 of the raw body>`
 * with the account's webhook secret (the one of monitor webhooks, GET /v1/webhook/secret).
 * Headers are secrets (they often carry a receiver's token): never logged, never in a job payload.
 */
import { z } from 'zod';
import { pageHeaders } from './page-options.contract';
import type { QueueProducer } from './producer';

export const jobWebhookEvent = z.enum(['started', 'page', 'completed', 'failed']);
export type JobWebhookEvent = z.infer<typeof jobWebhookEvent>;

/** The caller's own JSON echoed in every event (at most 16 KiB serialized, checked by the route). */
export const MAX_WEBHOOK_METADATA_BYTES = 16 * 1024;

export const jobWebhookObject = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  headers: pageHeaders.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Which events are sent; default all four. */
  events: z.array(jobWebhookEvent).min(1).max(4).optional(),
});

/** The request-body field: a URL, or the object form. */
export const jobWebhook = z.union([
  z.string({ error: 'must be a URL string or an object' }),
  jobWebhookObject,
]);
export type JobWebhookInput = z.infer<typeof jobWebhook>;

/** What a crawl or batch keeps (the URL checked against the address policy at creation). */
export interface JobWebhook {
  url: string;
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
  events: JobWebhookEvent[];
}

/** `crawl` or `batch_scrape`: the prefix of the event types. */
export type JobWebhookKind = 'crawl' | 'batch_scrape';

export type JobWebhookType = `${JobWebhookKind}.${JobWebhookEvent}`;

/** The body of one event POST (Firecrawl's shape). */
export interface JobWebhookBody {
  success: boolean;
  type: JobWebhookType;
  /** the crawl's or batch's id */
  id: string;
  /** `page`: the page's document (`metadata.url` set); a failed page: its metadata only. Else []. */
  data: unknown[];
  /** `failed` events and failed pages */
  error?: string;
  /** the caller's `metadata`, echoed ({} when none) */
  metadata: Record<string, unknown>;
  /** when the event happened (ISO 8601) */
  timestamp?: string;
}

/** A receiver's check of a body (tests, examples): the fields every event has. */
export const jobWebhookBody = z.object({
  success: z.boolean(),
  type: z.templateLiteral([z.enum(['crawl', 'batch_scrape']), '.', jobWebhookEvent]),
  id: z.string(),
  data: z.array(z.unknown()),
  error: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
  timestamp: z.string().optional(),
});

export const FIRECRAWL_SIGNATURE_HEADER = 'x-firecrawl-signature';

/**
 * What a worker hands its repositories (`onWebhookEvents`): add the dispatch jobs of outbox events
 * that just committed (job id = event id: adding one twice is a no-op). A failure is only logged —
 * the webhook dispatcher's relay adds every event that has no job yet.
 */
export function enqueueJobWebhooks(
  producer: QueueProducer,
  logger: { warn(obj: object, msg?: string): void },
): (eventIds: string[]) => Promise<boolean> {
  return async (eventIds) => {
    try {
      await producer.enqueueBulk(
        'job-webhook',
        eventIds.map((eventId) => ({ payload: { eventId }, opts: { jobId: eventId } })),
      );
      return true;
    } catch (err) {
      logger.warn({ err, events: eventIds.length }, 'job webhook enqueue failed; left to the relay');
      return false;
    }
  };
}
