import { type Db, inTransaction, type Tx } from './db';
import { isUuid } from './ids';
import type {
  JobWebhookBegin,
  JobWebhookDeliveryView,
  JobWebhookDispatch,
  JobWebhookEventName,
  JobWebhookEventState,
  JobWebhookEventView,
  JobWebhookKindName,
  JobWebhookPage,
} from './job-webhook.types';

/** Recorded for an attempt whose dispatcher died mid-send: the receiver may or may not have it. */
export const INTERRUPTED_JOB_DELIVERY =
  'Interrupted: the dispatcher stopped during this delivery; whether the receiver got it is unknown (not sent again)';

type EventRow = {
  id: string;
  seq: bigint;
  job_id: string;
  event: JobWebhookEventName;
  page_id: string | null;
  error: string | null;
  state: JobWebhookEventState;
  attempts: number;
  sending_since: Date | null;
  in_flight: boolean | null;
  created_at: Date;
  kind: JobWebhookKindName;
  account_id: string;
  url: string;
  headers: Record<string, string> | null;
  metadata: Record<string, unknown> | null;
};

/**
 * The webhook dispatcher's side of the job-webhook outbox (the writers are in
 * job-webhook-outbox.ops.ts). An event is sent by one attempt at a time: `begin` claims it
 * (`sending_since`), `finishAttempt` logs the attempt and settles it. A claim found still set by a
 * later run means the dispatcher died mid-send: that attempt is logged as interrupted and the event
 * is not sent again (at most once per attempt, as monitor webhooks).
 */
export class JobWebhooksRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claim the next attempt of an event, unless it is final, blocked by an earlier event of its job
   * (page events wait for `started`; `completed`/`failed` wait for every earlier event), being sent
   * right now by another run (claimed less than `inFlightMs` ago: longer than any attempt can take),
   * or was interrupted (claimed longer ago and never settled: its dispatcher died).
   */
  async begin(eventId: string, opts: { inFlightMs: number }): Promise<JobWebhookBegin> {
    if (!isUuid(eventId)) return { kind: 'skip', reason: 'unknown' };
    const r = await inTransaction(
      this.db,
      async (tx): Promise<{ done: JobWebhookBegin } | { row: EventRow }> => {
        const rows = await tx.$queryRaw<EventRow[]>`
        SELECT e.id, e.seq, e.job_id, e.event, e.page_id, e.error, e.state, e.attempts, e.sending_since,
               e.sending_since > now() - (${Math.max(0, opts.inFlightMs)}::float8 * interval '1 millisecond')
                 AS in_flight,
               e.created_at, w.kind, w.account_id, w.url, w.headers, w.metadata
        FROM job_webhook_events e JOIN job_webhooks w ON w.job_id = e.job_id
        WHERE e.id = ${eventId}::uuid FOR UPDATE OF e`;
        const e = rows[0];
        if (!e) return { done: { kind: 'skip', reason: 'unknown' } };
        if (e.state !== 'pending') return { done: { kind: 'skip', reason: 'final' } };
        if (e.in_flight) return { done: { kind: 'busy' } };
        if (e.sending_since) {
          await settleTx(tx, e, {
            attempt: e.attempts,
            statusCode: null,
            durationMs: 0,
            error: INTERRUPTED_JOB_DELIVERY,
            state: 'failed',
          });
          return { done: { kind: 'interrupted', attempt: e.attempts } };
        }
        const terminal = e.event === 'completed' || e.event === 'failed';
        const blocked = await tx.$queryRaw<Array<{ blocked: boolean }>>`
        SELECT EXISTS (
          SELECT 1 FROM job_webhook_events o
          WHERE o.job_id = ${e.job_id}::uuid AND o.state = 'pending' AND o.seq < ${e.seq}::bigint
            AND (o.event = 'started' OR ${terminal}::boolean)
        ) AS blocked`;
        if (blocked[0]?.blocked) return { done: { kind: 'blocked' } };
        await tx.$executeRaw`
        UPDATE job_webhook_events SET attempts = attempts + 1, sending_since = now(), updated_at = now()
        WHERE id = ${eventId}::uuid`;
        return { row: { ...e, attempts: e.attempts + 1 } };
      },
    );
    if ('done' in r) return r.done;
    const e = r.row;
    const dispatch: JobWebhookDispatch = {
      eventId: e.id,
      jobId: e.job_id,
      kind: e.kind,
      event: e.event,
      accountId: e.account_id,
      url: e.url,
      headers: e.headers ?? {},
      metadata: e.metadata ?? {},
      error: e.error,
      page: e.page_id ? await this.page(e.kind, e.page_id) : null,
      attempt: e.attempts,
      createdAt: e.created_at,
    };
    return { kind: 'send', dispatch };
  }

  /**
   * Log one attempt (once: unique per event and attempt) and settle the event: `delivered`,
   * `failed` (given up) or `retry` (pending again, the dispatcher sends it later). When the job has
   * ended and this was its last pending event, the webhook's headers are cleared.
   */
  async finishAttempt(d: {
    eventId: string;
    attempt: number;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    outcome: 'delivered' | 'failed' | 'retry';
  }): Promise<void> {
    if (!isUuid(d.eventId)) return;
    await inTransaction(this.db, async (tx) => {
      const rows = await tx.$queryRaw<EventRow[]>`
        SELECT e.id, e.job_id, e.event, e.state, w.kind, w.url
        FROM job_webhook_events e JOIN job_webhooks w ON w.job_id = e.job_id
        WHERE e.id = ${d.eventId}::uuid FOR UPDATE OF e`;
      const e = rows[0];
      if (e?.state !== 'pending') return;
      await settleTx(tx, e, {
        attempt: d.attempt,
        statusCode: d.statusCode,
        durationMs: d.durationMs,
        error: d.error,
        state: d.outcome === 'retry' ? 'pending' : d.outcome,
      });
    });
  }

  /** Pending events no dispatch job was added for yet (the notifier missed, or there was none). */
  async unenqueued(limit: number): Promise<string[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM job_webhook_events WHERE state = 'pending' AND enqueued_at IS NULL
      ORDER BY seq LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
    return rows.map((r) => r.id);
  }

  async markEnqueued(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db.prisma.$executeRaw`
      UPDATE job_webhook_events SET enqueued_at = now(), updated_at = now()
      WHERE id = ANY(${eventIds}::text[]::uuid[]) AND enqueued_at IS NULL`;
  }

  /** Pending events untouched for olderThanMs although enqueued: their job may be lost. Oldest first. */
  async stale(olderThanMs: number, limit: number): Promise<string[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM job_webhook_events
      WHERE state = 'pending' AND enqueued_at IS NOT NULL
        AND updated_at < now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')
      ORDER BY updated_at LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
    return rows.map((r) => r.id);
  }

  /** Checked events (their job is alive) go to the back of the stale scan. */
  async touch(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db.prisma.$executeRaw`
      UPDATE job_webhook_events SET updated_at = now()
      WHERE id = ANY(${eventIds}::text[]::uuid[]) AND state = 'pending'`;
  }

  /** Safety net: headers of ended jobs with nothing left to send. Returns how many were cleared. */
  clearSpentHeaders(): Promise<number> {
    return this.db.prisma.$executeRaw`
      UPDATE job_webhooks w SET headers = NULL
      WHERE w.headers IS NOT NULL AND w.finished_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM job_webhook_events e WHERE e.job_id = w.job_id AND e.state = 'pending')`;
  }

  /** The delivery log of a crawl or batch of this account, oldest first ([] when unknown or foreign). */
  async deliveries(accountId: string, jobId: string, limit = 1_000): Promise<JobWebhookDeliveryView[]> {
    if (!isUuid(accountId) || !isUuid(jobId)) return [];
    return this.db.prisma.$queryRaw<JobWebhookDeliveryView[]>`
      SELECT d.event_id AS "eventId", d.type, d.attempt, d.url, d.status_code AS "statusCode",
             d.duration_ms AS "durationMs", d.error, d.attempted_at AS "attemptedAt"
      FROM job_webhook_deliveries d JOIN job_webhooks w ON w.job_id = d.job_id
      WHERE d.job_id = ${jobId}::uuid AND w.account_id = ${accountId}::uuid
      ORDER BY d.attempted_at, d.attempt
      LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
  }

  /** The job's events in order ([] when unknown or foreign). */
  async events(accountId: string, jobId: string): Promise<JobWebhookEventView[]> {
    if (!isUuid(accountId) || !isUuid(jobId)) return [];
    return this.db.prisma.$queryRaw<JobWebhookEventView[]>`
      SELECT e.id AS "eventId", w.kind || '.' || e.event AS type, e.page_id AS "pageId", e.state,
             e.attempts, e.created_at AS "createdAt"
      FROM job_webhook_events e JOIN job_webhooks w ON w.job_id = e.job_id
      WHERE e.job_id = ${jobId}::uuid AND w.account_id = ${accountId}::uuid
      ORDER BY e.seq`;
  }

  /** Whether the job's webhook still holds its headers (they are cleared after its last event). */
  async holdsHeaders(jobId: string): Promise<boolean> {
    if (!isUuid(jobId)) return false;
    const rows = await this.db.prisma.$queryRaw<Array<{ held: boolean }>>`
      SELECT headers IS NOT NULL AS held FROM job_webhooks WHERE job_id = ${jobId}::uuid`;
    return rows[0]?.held ?? false;
  }

  private async page(kind: JobWebhookKindName, pageId: string): Promise<JobWebhookPage | null> {
    const rows =
      kind === 'crawl'
        ? await this.db.prisma.$queryRaw<JobWebhookPage[]>`
            SELECT url, status, status_code AS "statusCode", result, error, error_code AS "errorCode"
            FROM crawl_pages WHERE id = ${pageId}::uuid`
        : await this.db.prisma.$queryRaw<JobWebhookPage[]>`
            SELECT url, status, NULL::int AS "statusCode", result, error, error_code AS "errorCode"
            FROM batch_items WHERE id = ${pageId}::uuid`;
    return rows[0] ?? null;
  }
}

/** Log the attempt and move the event (under its row lock); clear spent headers of an ended job. */
async function settleTx(
  tx: Tx,
  e: Pick<EventRow, 'id' | 'job_id' | 'event' | 'kind' | 'url'>,
  a: {
    attempt: number;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    state: JobWebhookEventState;
  },
): Promise<void> {
  const error = a.error?.replaceAll('\0', '').slice(0, 1_000) ?? null;
  await tx.$executeRaw`
    INSERT INTO job_webhook_deliveries (event_id, job_id, attempt, type, url, status_code, duration_ms, error)
    VALUES (${e.id}::uuid, ${e.job_id}::uuid, ${a.attempt}::int, ${`${e.kind}.${e.event}`}, ${e.url},
            ${a.statusCode}::int, ${Math.max(0, Math.round(a.durationMs))}::int, ${error})
    ON CONFLICT (event_id, attempt) DO NOTHING`;
  await tx.$executeRaw`
    UPDATE job_webhook_events SET state = ${a.state}, sending_since = NULL, updated_at = now(),
           finished_at = CASE WHEN ${a.state} = 'pending' THEN NULL ELSE now() END
    WHERE id = ${e.id}::uuid`;
  if (a.state === 'pending') return;
  await tx.$executeRaw`
    UPDATE job_webhooks w SET headers = NULL
    WHERE w.job_id = ${e.job_id}::uuid AND w.headers IS NOT NULL AND w.finished_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM job_webhook_events o WHERE o.job_id = w.job_id AND o.state = 'pending')`;
}
