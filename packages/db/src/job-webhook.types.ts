/**
 * Webhooks of crawls and batches. The shapes mirror `JobWebhook` of @wcs/queues'
 * job-webhook.contract.ts (this package does not depend on the queues): a `JobWebhook` from the
 * gateway's validation is a `JobWebhookConfig`.
 */
export type JobWebhookEventName = 'started' | 'page' | 'completed' | 'failed';
export type JobWebhookKindName = 'crawl' | 'batch_scrape';

/** What the caller asked for, as stored on `job_webhooks` (the URL was checked at creation). */
export interface JobWebhookConfig {
  url: string;
  /** Secrets: kept until the job's last event is delivered or given up, then cleared. */
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
  /** Only these events are created. */
  events: readonly JobWebhookEventName[];
}

/**
 * Called with the ids of outbox events after the transaction that created them committed, so the
 * dispatch jobs are added at once; resolves true when it added them (they are then marked
 * enqueued). Optional: without it (or when it fails) the webhook dispatcher's relay adds them
 * within its interval.
 */
export type JobWebhookNotifier = (eventIds: string[]) => Promise<boolean>;

export type JobWebhookEventState = 'pending' | 'delivered' | 'failed';

/** A page event's page as stored: a crawl page (`crawl_pages`) or a batch item (`batch_items`). */
export interface JobWebhookPage {
  url: string;
  /** done | failed (a page event is created only for a finished page) */
  status: string;
  statusCode: number | null;
  /** the stored document when done */
  result: unknown;
  error: string | null;
  errorCode: string | null;
}

/** One attempt to send, claimed by the dispatcher (`JobWebhooksRepository.begin`). */
export interface JobWebhookDispatch {
  eventId: string;
  jobId: string;
  kind: JobWebhookKindName;
  event: JobWebhookEventName;
  accountId: string;
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  /** failed events: why the job failed */
  error: string | null;
  /** page events: the page (null if its row is gone) */
  page: JobWebhookPage | null;
  /** 1 for the first attempt */
  attempt: number;
  createdAt: Date;
}

export type JobWebhookBegin =
  /** unknown event, or already delivered / given up */
  | { kind: 'skip'; reason: 'unknown' | 'final' }
  /** an earlier event of the job must end first (started before pages, everything before the end) */
  | { kind: 'blocked' }
  /** another run is sending it right now */
  | { kind: 'busy' }
  /** an earlier attempt was cut off mid-send (crash): recorded, not sent again */
  | { kind: 'interrupted'; attempt: number }
  | { kind: 'send'; dispatch: JobWebhookDispatch };

/** One row of the delivery log. */
export interface JobWebhookDeliveryView {
  eventId: string;
  /** e.g. `crawl.page` */
  type: string;
  attempt: number;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: Date;
}

/** An event and where it stands (for the delivery log's readers and tests). */
export interface JobWebhookEventView {
  eventId: string;
  type: string;
  pageId: string | null;
  state: JobWebhookEventState;
  attempts: number;
  createdAt: Date;
}
