import type { Db } from './db';
import type { JobWebhookConfig, JobWebhookKindName, JobWebhookNotifier } from './job-webhook.types';
import type { SqlClient } from './sql-client';

/**
 * The outbox of job webhooks, written inside the transaction of the state change each event
 * reports (a crawl or batch created, a page finished, the job ended): the event exists iff the
 * change committed, so a crash can neither lose nor invent one. Only the events the caller asked
 * for are inserted; unique partial indexes make a repeated transition insert nothing twice.
 * Every function returns the ids of the events it inserted (for `JobWebhookNotifier`).
 */

/** JSON for a jsonb parameter, without the NUL escapes PostgreSQL rejects. */
function json(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}

/** The webhook row of a new crawl or batch and, when asked, its `started` event. One statement. */
export async function createJobWebhookTx(
  tx: SqlClient,
  i: { jobId: string; kind: JobWebhookKindName; accountId: string; webhook: JobWebhookConfig },
): Promise<string[]> {
  const w = i.webhook;
  const headers = w.headers && Object.keys(w.headers).length > 0 ? json(w.headers) : null;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    WITH w AS (
      INSERT INTO job_webhooks (job_id, kind, account_id, url, headers, metadata, events)
      VALUES (${i.jobId}::uuid, ${i.kind}, ${i.accountId}::uuid, ${w.url}, ${headers}::jsonb,
              ${json(w.metadata ?? {})}::jsonb, ${[...w.events]}::text[])
      RETURNING job_id, events
    )
    INSERT INTO job_webhook_events (job_id, event)
    SELECT job_id, 'started' FROM w WHERE 'started' = ANY(events)
    RETURNING id`;
  return rows.map((r) => r.id);
}

/**
 * `page` events for pages that just finished (done or failed), in the given order, when the job's
 * webhook asks for them and the job has not ended. Nothing (and one cheap statement) otherwise.
 */
export async function addPageEventsTx(tx: SqlClient, jobId: string, pageIds: string[]): Promise<string[]> {
  if (pageIds.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO job_webhook_events (job_id, event, page_id)
    SELECT w.job_id, 'page', p.id
    FROM job_webhooks w, unnest(${pageIds}::text[]::uuid[]) WITH ORDINALITY AS p(id, ord)
    WHERE w.job_id = ${jobId}::uuid AND 'page' = ANY(w.events) AND w.finished_at IS NULL
    ORDER BY p.ord
    ON CONFLICT DO NOTHING
    RETURNING id`;
  return rows.map((r) => r.id);
}

/**
 * The job ended: its webhook takes no more events, and gets its terminal event when asked —
 * `completed`, or `failed` with the job's error. When nothing is left to send, the headers (secrets)
 * are cleared now; otherwise the dispatcher clears them after the last event. Idempotent.
 */
export async function finishJobWebhookTx(
  tx: SqlClient,
  jobId: string,
  end: { failed: boolean; error: string | null },
): Promise<string[]> {
  const event = end.failed ? 'failed' : 'completed';
  const error = end.failed ? (end.error ?? 'The job failed').replaceAll('\0', '') : null;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    WITH pending AS (
      SELECT EXISTS (
        SELECT 1 FROM job_webhook_events WHERE job_id = ${jobId}::uuid AND state = 'pending'
      ) AS found
    ), w AS (
      UPDATE job_webhooks SET finished_at = now(),
        headers = CASE WHEN (SELECT found FROM pending) OR ${event} = ANY(events) THEN headers END
      WHERE job_id = ${jobId}::uuid AND finished_at IS NULL
      RETURNING job_id, events
    )
    INSERT INTO job_webhook_events (job_id, event, error)
    SELECT job_id, ${event}, ${error} FROM w WHERE ${event} = ANY(events)
    ON CONFLICT DO NOTHING
    RETURNING id`;
  return rows.map((r) => r.id);
}

/**
 * A crawl that just reached `done` or `failed` in this transaction (after every status change of
 * the transaction: a closing crawl that crawled nothing turns `failed` before this is called).
 */
export async function finishCrawlWebhookTx(tx: SqlClient, crawlId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ status: string; error: string | null }>>`
    SELECT c.status, c.error FROM crawls c JOIN job_webhooks w ON w.job_id = c.id
    WHERE c.id = ${crawlId}::uuid AND w.finished_at IS NULL`;
  const c = rows[0];
  if (!c || (c.status !== 'done' && c.status !== 'failed')) return [];
  return finishJobWebhookTx(tx, crawlId, { failed: c.status === 'failed', error: c.error });
}

/**
 * After the commit: hand the events to the notifier (which adds their dispatch jobs) and mark the
 * ones it added, so the dispatcher's relay leaves them alone. Never throws: an event not marked is
 * added by the relay.
 */
export async function notifyJobWebhooks(
  db: Db,
  notifier: JobWebhookNotifier | undefined,
  eventIds: string[],
): Promise<void> {
  if (eventIds.length === 0 || !notifier) return;
  try {
    if (!(await notifier(eventIds))) return;
    await db.prisma.$executeRaw`
      UPDATE job_webhook_events SET enqueued_at = now()
      WHERE id = ANY(${eventIds}::text[]::uuid[]) AND enqueued_at IS NULL`;
  } catch {
    // The relay adds and marks what is left.
  }
}
