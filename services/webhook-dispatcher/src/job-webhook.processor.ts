import type { JobWebhookDispatch, JobWebhooksRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { Dispatcher } from '@wcs/net';
import { DelayedError, FIRECRAWL_SIGNATURE_HEADER, type Job, type PayloadOf } from '@wcs/queues';
import { jobWebhookBody } from './job-webhook-body';
import { postToReceiver, type ReceiverAnswer } from './receiver-post';
import { signBody } from './webhook-signature';

export interface JobWebhookDeps {
  webhooks: JobWebhooksRepository;
  /** The account's webhook signing secret (the one of monitor webhooks, GET /v1/webhook/secret). */
  secret: (accountId: string) => Promise<string>;
  /** SSRF-guarded (createSafeDispatcher): every connection is checked against private ranges. */
  dispatcher: Dispatcher;
  logger: Logger;
}

export interface JobWebhookOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  userAgent: string;
  /** Attempts per event, the first included (JOB_WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Wait before the first retry; doubles for each further one (JOB_WEBHOOK_RETRY_DELAY_MS). */
  retryDelayMs: number;
  /** How long an event waits for an earlier event of its job before it looks again. */
  blockedDelayMs?: number;
}

export type JobWebhookResult =
  | { sent: false; reason: 'unknown' | 'final' | 'interrupted' }
  /** an earlier event of the job has to end first, or another run is sending it: look again after delayMs */
  | { sent: false; reason: 'blocked' | 'busy'; delayMs: number }
  | {
      sent: true;
      attempt: number;
      statusCode: number | null;
      error: string | null;
      outcome: 'delivered' | 'failed' | 'retry';
      /** retry: when to send again */
      delayMs?: number;
    };

const BLOCKED_DELAY_MS = 250;
const BUSY_DELAY_MS = 1_000;
const IN_FLIGHT_MARGIN_MS = 15_000;
const MAX_RETRY_DELAY_MS = 10 * 60_000;

/** The receiver may do better next time: no answer, a timeout, 408, 425, 429 or a 5xx. */
function worthRetrying(statusCode: number | null, retryableError: boolean): boolean {
  if (statusCode === null) return retryableError;
  return statusCode === 408 || statusCode === 425 || statusCode === 429 || statusCode >= 500;
}

/**
 * One attempt of one event (`job-webhook` queue, payload `{ eventId }`). The outbox row is the
 * source of truth: `begin` claims the attempt (or says the event is final, blocked behind an
 * earlier event of its job, or was interrupted mid-send by a crash — logged, not sent again), the
 * POST goes out signed `X-Firecrawl-Signature: sha256=<HMAC-SHA256 of the raw body>` with the
 * caller's headers, and `finishAttempt` logs it (status code, duration, error) and settles the
 * event: delivered (2xx), retry (no answer, timeout, 408/425/429/5xx, attempts left) or failed.
 * HTTP failures never throw: a retry is the same job delayed (`runJobWebhook`).
 */
export async function deliverJobWebhook(
  deps: JobWebhookDeps,
  opts: JobWebhookOptions,
  eventId: string,
): Promise<JobWebhookResult> {
  // An attempt cannot outlast the POST's budget plus the reads around it: a claim older than that
  // was cut off by a crash; a younger one is another run's (a job re-added under another prefix).
  const begun = await deps.webhooks.begin(eventId, { inFlightMs: opts.timeoutMs + IN_FLIGHT_MARGIN_MS });
  if (begun.kind === 'skip') return { sent: false, reason: begun.reason };
  if (begun.kind === 'blocked' || begun.kind === 'busy') {
    const delayMs = begun.kind === 'busy' ? BUSY_DELAY_MS : (opts.blockedDelayMs ?? BLOCKED_DELAY_MS);
    return { sent: false, reason: begun.kind, delayMs };
  }
  if (begun.kind === 'interrupted') {
    deps.logger.warn(
      { eventId, attempt: begun.attempt },
      'job webhook interrupted mid-send (not sent again)',
    );
    return { sent: false, reason: 'interrupted' };
  }
  const d = begun.dispatch;
  const { statusCode, error, retryable, durationMs } = await post(deps, opts, d);
  const outcome =
    error === null
      ? 'delivered'
      : d.attempt < opts.maxAttempts && worthRetrying(statusCode, retryable)
        ? 'retry'
        : 'failed';
  await deps.webhooks.finishAttempt({
    eventId: d.eventId,
    attempt: d.attempt,
    statusCode,
    durationMs,
    error,
    outcome,
  });
  // Never the headers or the body: the caller's headers are secrets.
  if (error) {
    deps.logger.info(
      { jobId: d.jobId, event: d.event, attempt: d.attempt, statusCode, error, outcome },
      'job webhook attempt failed',
    );
  }
  const delayMs =
    outcome === 'retry' ? Math.min(MAX_RETRY_DELAY_MS, opts.retryDelayMs * 2 ** (d.attempt - 1)) : undefined;
  return { sent: true, attempt: d.attempt, statusCode, error, outcome, ...(delayMs ? { delayMs } : {}) };
}

/** The event's body, signed with the account's secret, to the caller's URL with their headers. */
async function post(
  deps: JobWebhookDeps,
  opts: JobWebhookOptions,
  d: JobWebhookDispatch,
): Promise<ReceiverAnswer> {
  const body = JSON.stringify(jobWebhookBody(d));
  const secret = await deps.secret(d.accountId);
  return postToReceiver({ ...opts, dispatcher: deps.dispatcher }, d.url, body, {
    ...d.headers,
    'content-type': 'application/json',
    [FIRECRAWL_SIGNATURE_HEADER]: signBody(secret, body),
  });
}

/** The queue's processor: a blocked event or a retry is the same job moved to the delayed set. */
export function jobWebhookProcessor(deps: JobWebhookDeps, opts: JobWebhookOptions) {
  return async (payload: PayloadOf<'job-webhook'>, job: Job): Promise<JobWebhookResult> => {
    const r = await deliverJobWebhook(deps, opts, payload.eventId);
    const delayMs = r.sent || r.reason === 'blocked' || r.reason === 'busy' ? r.delayMs : undefined;
    if (delayMs === undefined) return r;
    await job.moveToDelayed(Date.now() + delayMs, job.token);
    throw new DelayedError();
  };
}
