import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '@wcs/errors';
import type {
  BatchItemPage,
  BatchItemStatus,
  BatchItemView,
  BatchWithItems,
  NewBatch,
  StartedBatchItem,
} from './batch.types';
import { type ChangeRow, changeResult, chargeInTx, creditInTx, throwIfRefused } from './credits.ops';
import { type Db, inTransaction } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import type { JobWebhookNotifier } from './job-webhook.types';
import {
  addPageEventsTx,
  createJobWebhookTx,
  finishJobWebhookTx,
  notifyJobWebhooks,
} from './job-webhook-outbox.ops';
import { ASYNC_COMMIT, type SqlClient, sqlClient, sqlTransaction, toJsonb } from './sql-client';

/** Credits per batch item, deducted upfront and refunded per failed item (spec §8). */
const CREDITS_PER_ITEM = 1;

type Outcome =
  | { status: 'done'; result: unknown }
  | { status: 'failed'; error: string; code: string; billed?: boolean };

/** The items of a new batch in one statement (Prisma's createMany compiled 500 rows' parameters in the caller's thread). */
async function insertItems(
  tx: SqlClient,
  batchId: string,
  items: Array<{ id: string; position: number; url: string; clientId: string | null }>,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO batch_items (id, batch_id, position, url, client_id)
    SELECT t.id, ${batchId}::uuid, t.position, t.url, t.client_id
    FROM unnest(${items.map((it) => it.id)}::text[]::uuid[], ${items.map((it) => it.position)}::int[],
                ${items.map((it) => it.url)}::text[], ${items.map((it) => it.clientId)}::text[])
         AS t(id, position, url, client_id)`;
}

/**
 * Batch scrapes. Item transitions are guarded in SQL (`WHERE status IN ('queued','running')`), so
 * duplicate deliveries of the same job after a crash or a Redis loss do the bookkeeping once.
 * Lock order everywhere: item -> batch -> account.
 */
export class BatchesRepository {
  /**
   * `onWebhookEvents`: told the ids of webhook outbox events after their transaction commits (the
   * scrape worker enqueues their dispatch jobs at once); without it the dispatcher's relay does.
   */
  constructor(
    private readonly db: Db,
    private readonly opts: { onWebhookEvents?: JobWebhookNotifier } = {},
  ) {}

  /** Items started here whose batch has no webhook: their `done` needs no outbox statements. */
  private readonly unhooked = new RecentIds(10_000);

  private notify(eventIds: string[]): Promise<void> {
    return notifyJobWebhooks(this.db, this.opts.onWebhookEvents, eventIds);
  }

  /**
   * Charge the whole batch upfront (InsufficientCreditsError if it can't pay), then insert it. With
   * a `webhook` its webhook row and `started` event commit with the batch.
   */
  async create(i: NewBatch): Promise<{
    batchId: string;
    items: Array<{ itemId: string; position: number; url: string }>;
    /** Credits charged (one per URL; failed items are refunded later). */
    charged: number;
    /** The account's balance right after the charge. */
    balance: number;
  }> {
    if (i.items.length === 0) throw new ValidationError('A batch needs at least one item');
    const batchId = randomUUID();
    const items = i.items.map((it, position) => ({
      id: randomUUID(),
      batchId,
      position,
      url: it.url,
      clientId: it.clientId ?? null,
    }));
    const cost = items.length * (i.creditsPerItem ?? CREDITS_PER_ITEM);
    const { webhook } = i;
    if (!webhook) {
      const balance = await this.createCharged(i, batchId, items, cost);
      return {
        batchId,
        items: items.map((it) => ({ itemId: it.id, position: it.position, url: it.url })),
        charged: cost,
        balance,
      };
    }
    const keyId = i.keyId && isUuid(i.keyId) ? i.keyId : null;
    const { events, balance } = await inTransaction(this.db, async (tx) => {
      const created = await tx.batch.create({
        select: { createdAt: true },
        data: {
          id: batchId,
          accountId: i.accountId,
          apiKeyId: keyId,
          status: 'pending',
          format: i.format,
          onlyMainContent: i.onlyMainContent,
          ...(i.pageOptions ? { pageOptions: i.pageOptions } : {}),
          ...(i.pageSecrets ? { pageSecrets: i.pageSecrets } : {}),
          total: items.length,
          creditsCharged: cost,
        },
      });
      await insertItems(tx, batchId, items);
      // The charge last: it locks the account's row until the commit.
      // At the batch's created_at: an item's refund gives back to the key's spend of that day.
      const { balance } = await chargeInTx(tx, i.accountId, cost, {
        reason: 'batch',
        reference: batchId,
        keyId,
        at: created.createdAt,
      });
      const events = await createJobWebhookTx(tx, {
        jobId: batchId,
        kind: 'batch_scrape',
        accountId: i.accountId,
        webhook,
      });
      return { events, balance };
    });
    await this.notify(events);
    return {
      batchId,
      items: items.map((it) => ({ itemId: it.id, position: it.position, url: it.url })),
      charged: cost,
      balance,
    };
  }

  /**
   * A batch without a webhook in one statement: the charge (`change_key_balance`), the batch row and its
   * items, committed as the statement ends. Every batch of an account waits for that account's row
   * lock; here it is held for one statement inside PostgreSQL. In an interactive transaction it was
   * held across client round trips, which wait on the gateway's event loop: 200 batches of 500 URLs
   * sent at once queued one behind the other until the pool's 10 s wait ran out (500 answers).
   * Nothing is written when the account cannot pay.
   */
  private async createCharged(
    i: NewBatch,
    batchId: string,
    items: Array<{ id: string; position: number; url: string; clientId: string | null }>,
    cost: number,
  ): Promise<number> {
    if (!isUuid(i.accountId)) throw new NotFoundError('Account not found');
    const json = (v: unknown) => (v === undefined ? null : toJsonb(v));
    const keyId = i.keyId && isUuid(i.keyId) ? i.keyId : null;
    // The charge's time (the transaction's now()) is the batch's created_at: refunds pass it back.
    const rows = await sqlClient(this.db).$queryRaw<ChangeRow[]>`
      WITH charge AS MATERIALIZED (
        SELECT o_status, o_balance, o_at, o_period, o_limit, o_spent, o_resets_at
        FROM change_key_balance(${i.accountId}::uuid, ${-cost}::int, 'batch', ${batchId}::text,
                                ${keyId}::uuid, NULL::timestamptz)
      ), b AS (
        INSERT INTO batches (id, account_id, status, format, only_main_content, page_options, page_secrets,
                             total, credits_charged, api_key_id, created_at)
        SELECT ${batchId}::uuid, ${i.accountId}::uuid, 'pending', ${i.format}, ${i.onlyMainContent}::boolean,
               ${json(i.pageOptions)}::jsonb, ${json(i.pageSecrets)}::jsonb, ${items.length}::int, ${cost}::int,
               ${keyId}::uuid, o_at
        FROM charge WHERE o_status = 'applied'
        RETURNING id
      ), it AS (
        INSERT INTO batch_items (id, batch_id, position, url, client_id)
        SELECT t.id, b.id, t.position, t.url, t.client_id
        FROM b, unnest(${items.map((x) => x.id)}::text[]::uuid[], ${items.map((x) => x.position)}::int[],
                       ${items.map((x) => x.url)}::text[], ${items.map((x) => x.clientId)}::text[])
             AS t(id, position, url, client_id)
      )
      SELECT o_status AS status, o_balance AS balance, o_at AS at, o_period AS period, o_limit AS "limit",
             o_spent AS spent, o_resets_at AS "resetsAt"
      FROM charge`;
    const r = changeResult(rows);
    throwIfRefused(cost, r);
    if (r.status !== 'applied') throw new Error(`change_key_balance answered ${r.status} for a new batch`);
    return r.balance;
  }

  /** null when unknown or owned by another account (callers answer 404 either way). */
  get(accountId: string, batchId: string): Promise<BatchWithItems | null> {
    return this.read(accountId, batchId);
  }

  /**
   * The batch's counters and one page of its items in `statuses` (by position): what a status
   * answer shows, without reading every finished item's document (polling a large batch read them
   * all on every call — the gateway's and PostgreSQL's largest cost while a batch ran).
   */
  getPage(accountId: string, batchId: string, page: BatchItemPage): Promise<BatchWithItems | null> {
    return this.read(accountId, batchId, page);
  }

  /** Polled by every status call: two prepared statements through pg (sql-client.ts). */
  private async read(
    accountId: string,
    batchId: string,
    page?: BatchItemPage,
  ): Promise<BatchWithItems | null> {
    if (!isUuid(accountId) || !isUuid(batchId)) return null;
    const sql = sqlClient(this.db);
    // Only a finished batch can have been cut by a cancel (its open items all failed CANCELLED).
    const heads = await sql.$queryRaw<Array<Omit<BatchWithItems, 'items'>>>`
      SELECT b.id AS "batchId", b.account_id AS "accountId", b.status, b.total, b.completed, b.failed,
             b.credits_charged - b.credits_refunded AS "creditsUsed", b.format,
             b.only_main_content AS "onlyMainContent", b.created_at AS "createdAt",
             (b.status = 'done' AND EXISTS (
               SELECT 1 FROM batch_items c WHERE c.batch_id = b.id AND c.error_code = ${CANCELLED_CODE}
             )) AS cancelled
      FROM batches b WHERE b.id = ${batchId}::uuid AND b.account_id = ${accountId}::uuid`;
    const head = heads[0];
    if (!head) return null;
    if (page?.limit === 0) return { ...head, items: [] };
    const statuses: BatchItemStatus[] = page?.statuses ?? ['queued', 'running', 'done', 'failed'];
    const items = await sql.$queryRaw<BatchItemView[]>`
      SELECT id AS "itemId", position, client_id AS "clientId", url, status, result, error,
             error_code AS "errorCode"
      FROM batch_items
      WHERE batch_id = ${batchId}::uuid AND status = ANY(${statuses}::text[])
      ORDER BY position OFFSET ${page?.skip ?? 0}::int LIMIT ${page?.limit ?? null}::int`;
    return { ...head, items };
  }

  /**
   * Mark the item running (attempts+1) unless it already finished; the batch leaves 'pending'.
   * A running item may start again: that is a redelivery after a worker died. null = skip the work.
   */
  async startItem(itemId: string): Promise<StartedBatchItem | null> {
    if (!isUuid(itemId)) return null;
    // One statement: both updates commit together (data-modifying CTEs always run).
    const rows = await sqlClient(this.db).$queryRaw<Array<StartedBatchItem & { hooked: boolean }>>`
      WITH item AS (
        UPDATE batch_items
        SET status = 'running', attempts = attempts + 1, started_at = now(), updated_at = now()
        WHERE id = ${itemId}::uuid AND status IN ('queued', 'running')
        RETURNING id, batch_id, url, attempts
      ), moved AS (
        UPDATE batches SET status = 'processing', updated_at = now()
        FROM item WHERE batches.id = item.batch_id AND batches.status = 'pending'
        RETURNING batches.id
      )
      SELECT item.id AS "itemId", item.batch_id AS "batchId", b.account_id AS "accountId", item.url,
             b.format, b.only_main_content AS "onlyMainContent", item.attempts,
             b.page_options AS "pageOptions", b.page_secrets AS "pageSecrets",
             EXISTS (SELECT 1 FROM job_webhooks w WHERE w.job_id = b.id) AS hooked
      FROM item JOIN batches b ON b.id = item.batch_id CROSS JOIN ${ASYNC_COMMIT}`;
    const row = rows[0];
    if (!row) return null;
    const { hooked, ...item } = row;
    if (!hooked) this.unhooked.remember(item.itemId);
    return item;
  }

  /** Record a result. false = the item had already finished (nothing changed). */
  completeItem(itemId: string, result: unknown): Promise<boolean> {
    return this.finish(itemId, { status: 'done', result });
  }

  /**
   * Record a failure and refund its credit — unless `billed` (the caller's own options spent the
   * item's budget: the work was done for them), then the credit stays spent. false = the item
   * had already finished.
   */
  failItem(itemId: string, e: { error: string; code: string; billed?: boolean }): Promise<boolean> {
    return this.finish(itemId, { status: 'failed', error: e.error, code: e.code, billed: e.billed === true });
  }

  /** Items still queued/running, untouched for olderThanMs: their queue job may be lost. Oldest first. */
  async findUnfinishedItems(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ itemId: string; batchId: string }>> {
    // The database clock on both sides of the comparison (updated_at is written with now()).
    return this.db.prisma.$queryRaw<Array<{ itemId: string; batchId: string }>>`
      SELECT id AS "itemId", batch_id AS "batchId" FROM batch_items
      WHERE status IN ('queued', 'running')
        AND updated_at < now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')
      ORDER BY updated_at
      LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
  }

  private async finish(itemId: string, o: Outcome): Promise<boolean> {
    if (!isUuid(itemId)) return false;
    // The common case — a page done in a batch without a webhook (known from this item's start
    // here) — is one statement; anything else (refunds, webhook events) one transaction.
    if (o.status === 'done' && this.unhooked.take(itemId)) return finishDone(sqlClient(this.db), itemId, o);
    const r = await sqlTransaction(this.db, async (tx) => {
      const batchId = await finishItemRow(tx, itemId, o);
      if (!batchId) return { applied: false, events: [] };
      const { accountId, keyId, chargedAt, closed, hooked, perItem } = await bumpBatch(tx, batchId, o.status);
      if (o.status === 'failed' && !o.billed && perItem > 0) {
        const r = await creditInTx(tx, accountId, perItem, {
          reason: 'batch_refund',
          reference: itemId,
          keyId,
          at: chargedAt,
        });
        if (r.applied) {
          await tx.$executeRaw`
            UPDATE batches SET credits_refunded = credits_refunded + ${perItem}::int
            WHERE id = ${batchId}::uuid`;
        }
      }
      // Webhook outbox, same transaction; statements only for batches with a webhook.
      if (!hooked) return { applied: true, events: [] };
      return { applied: true, events: await batchEventsTx(tx, batchId, itemId, o, closed) };
    });
    await this.notify(r.events);
    return r.applied;
  }
}

/** Items a cancel stopped (DELETE /v1/batch/scrape/:id) fail with this code. */
const CANCELLED_CODE = 'CANCELLED';

/**
 * Webhook outbox events of an item that just finished: its `page` event (not for an
 * item a cancel stopped: it was never scraped) and, when it closed the batch, the terminal event —
 * `failed` when the batch was cancelled (Firecrawl's convention), `completed` otherwise.
 */
async function batchEventsTx(
  tx: SqlClient,
  batchId: string,
  itemId: string,
  o: Outcome,
  closed: boolean,
): Promise<string[]> {
  const cancelled = o.status === 'failed' && o.code === CANCELLED_CODE;
  const events = cancelled ? [] : await addPageEventsTx(tx, batchId, [itemId]);
  if (!closed) return events;
  const c = await tx.$queryRaw<Array<{ found: boolean }>>`
    SELECT EXISTS (
      SELECT 1 FROM batch_items WHERE batch_id = ${batchId}::uuid AND error_code = ${CANCELLED_CODE}
    ) AS found`;
  const wasCancelled = c[0]?.found ?? false;
  events.push(
    ...(await finishJobWebhookTx(tx, batchId, {
      failed: wasCancelled,
      error: wasCancelled ? 'Cancelled by the caller' : null,
    })),
  );
  return events;
}

/** The guarded transition; the row lock makes concurrent finishers wait, then find it finished. */
/**
 * The columns one finished item moves on its batch (besides its counter). Right-hand sides read the
 * row before the update: `completed + failed + 1` counts this item. The items' headers and actions
 * are kept only while the batch has work left.
 */
const ITEM_FINISHED_COLUMNS = Prisma.sql`
  status = CASE WHEN completed + failed + 1 >= total THEN 'done' ELSE 'processing' END,
  finished_at = CASE WHEN completed + failed + 1 >= total THEN now() ELSE finished_at END,
  page_secrets = CASE WHEN completed + failed + 1 >= total THEN NULL ELSE page_secrets END,
  updated_at = now()`;

/**
 * A page done in a batch without a webhook, in one statement: the item's guarded transition and
 * its batch's counters (data-modifying CTEs all run, and commit together). false = already finished.
 */
async function finishDone(sql: SqlClient, itemId: string, o: Extract<Outcome, { status: 'done' }>) {
  const rows = await sql.$queryRaw<Array<{ id: string }>>`
    WITH item AS (
      UPDATE batch_items
      SET status = 'done', result = ${o.result === undefined ? null : toJsonb(o.result)}::jsonb,
          error = NULL, error_code = NULL, finished_at = now(), updated_at = now()
      WHERE id = ${itemId}::uuid AND status IN ('queued', 'running')
      RETURNING batch_id
    )
    UPDATE batches SET completed = completed + 1, ${ITEM_FINISHED_COLUMNS}
    FROM item WHERE batches.id = item.batch_id
    RETURNING batches.id`;
  return rows.length > 0;
}

/** A bounded set of ids (oldest forgotten first): hints, never the source of truth. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max: number) {}
  remember(id: string): void {
    if (this.ids.size >= this.max) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    this.ids.add(id);
  }
  take(id: string): boolean {
    return this.ids.delete(id);
  }
}

async function finishItemRow(tx: SqlClient, itemId: string, o: Outcome): Promise<string | null> {
  const result = o.status === 'done' && o.result !== undefined ? toJsonb(o.result) : null;
  const error = o.status === 'failed' ? o.error.replaceAll('\0', '') : null;
  const code = o.status === 'failed' ? o.code : null;
  const rows = await tx.$queryRaw<Array<{ batchId: string }>>`
    UPDATE batch_items
    SET status = ${o.status}, result = ${result}::jsonb, error = ${error}, error_code = ${code},
        finished_at = now(), updated_at = now()
    WHERE id = ${itemId}::uuid AND status IN ('queued', 'running')
    RETURNING batch_id AS "batchId"`;
  return rows[0]?.batchId ?? null;
}

/** Count the item; the last one closes the batch. SET expressions see the pre-update row. */
async function bumpBatch(
  tx: SqlClient,
  batchId: string,
  status: 'done' | 'failed',
): Promise<{
  accountId: string;
  keyId: string | null;
  chargedAt: Date;
  closed: boolean;
  hooked: boolean;
  perItem: number;
}> {
  const dc = status === 'done' ? 1 : 0;
  const df = status === 'failed' ? 1 : 0;
  // What one item was charged: every item of a batch costs the same (NewBatch.creditsPerItem).
  const rows = await tx.$queryRaw<
    Array<{
      accountId: string;
      keyId: string | null;
      chargedAt: Date;
      closed: boolean;
      hooked: boolean;
      perItem: number;
    }>
  >`
    UPDATE batches SET
      completed = completed + ${dc}::int,
      failed = failed + ${df}::int,
      ${ITEM_FINISHED_COLUMNS}
    WHERE id = ${batchId}::uuid
    RETURNING account_id AS "accountId", api_key_id AS "keyId", created_at AS "chargedAt", status = 'done' AS closed,
              (credits_charged / GREATEST(total, 1))::int AS "perItem",
              EXISTS (SELECT 1 FROM job_webhooks w WHERE w.job_id = batches.id) AS hooked`;
  return rows[0]!;
}
