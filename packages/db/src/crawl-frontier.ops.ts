import { randomUUID } from 'node:crypto';
import type { CrawlStopReason, FrontierCandidate, FrontierPage } from './crawl.types';
import type { Db } from './db';
import { Prisma } from './generated/prisma/client';
import { addPageEventsTx, finishCrawlWebhookTx } from './job-webhook-outbox.ops';
import { type PageCacheRow, pageCacheInsert } from './page-cache.repository';
import { type PageHistoryTouch, touchStatement } from './page-history.repository';
import { type SqlClient, sqlClient, sqlTransaction, toJsonb } from './sql-client';

/**
 * Frontier bookkeeping inside a caller's transaction that already holds the crawl row's lock
 * (`lockCrawl`), so counting, capping and closing see a stable crawl.
 */

export interface LockedCrawl {
  status: string;
  accountId: string;
  maxPages: number;
  discovered: number;
  /** The crawl has a webhook: its transitions write outbox events. */
  hooked: boolean;
}

export async function lockCrawl(tx: SqlClient, crawlId: string): Promise<LockedCrawl | null> {
  const rows = await tx.$queryRaw<LockedCrawl[]>`
    SELECT status, account_id AS "accountId", (options->>'maxPages')::int AS "maxPages", discovered,
           EXISTS (SELECT 1 FROM job_webhooks w WHERE w.job_id = crawls.id) AS hooked
    FROM crawls WHERE id = ${crawlId}::uuid FOR NO KEY UPDATE`;
  return rows[0] ?? null;
}

/**
 * The outbox events of a page that just finished in this transaction (`page`, when asked) and of
 * the crawl when that page closed it. Only for crawls with a webhook (`LockedCrawl.hooked`).
 */
export async function pageEventsTx(
  tx: SqlClient,
  crawlId: string,
  finished: { pageId: string | null; crawlFinished: boolean },
): Promise<string[]> {
  const ids = finished.pageId ? await addPageEventsTx(tx, crawlId, [finished.pageId]) : [];
  if (finished.crawlFinished) ids.push(...(await finishCrawlWebhookTx(tx, crawlId)));
  return ids;
}

/** Candidates unique by key, first one wins (callers order them: start URL, links in page order). */
function uniqueByKey(candidates: FrontierCandidate[]): FrontierCandidate[] {
  const byKey = new Map<string, FrontierCandidate>();
  for (const c of candidates) if (!byKey.has(c.key)) byKey.set(c.key, c);
  return [...byKey.values()];
}

/**
 * Insert candidate URLs (filtered and ordered by the caller) whose key is not yet in the frontier,
 * neither as a row's key nor as the key a row's redirect ended at, at most `room` of them.
 * `capped` = some new URL was left out for lack of room.
 */
export async function insertFrontier(
  tx: SqlClient,
  crawlId: string,
  room: number,
  candidates: FrontierCandidate[],
): Promise<{ inserted: FrontierPage[]; capped: boolean }> {
  const unique = uniqueByKey(candidates);
  if (unique.length === 0) return { inserted: [], capped: false };
  const keys = unique.map((c) => c.key);
  const existing = await tx.$queryRaw<Array<{ key: string }>>`
    SELECT url_key AS key FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND url_key = ANY(${keys}::text[])
    UNION
    SELECT final_key FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND final_key = ANY(${keys}::text[])`;
  const known = new Set(existing.map((e) => e.key));
  const fresh = unique.filter((c) => !known.has(c.key));
  const take = fresh.slice(0, Math.max(0, room));
  const capped = fresh.length > take.length;
  if (take.length === 0) return { inserted: [], capped };
  const ids = take.map(() => randomUUID());
  // ON CONFLICT is the safety net; the crawl row lock already keeps concurrent inserters apart.
  const inserted = await tx.$queryRaw<FrontierPage[]>`
    INSERT INTO crawl_pages (id, crawl_id, url, url_key, depth, sitemap_lastmod)
    SELECT t.id, ${crawlId}::uuid, t.url, t.key, t.depth, NULLIF(t.lastmod, '')::timestamptz
    FROM unnest(${ids}::text[]::uuid[], ${take.map((c) => c.url)}::text[], ${take.map((c) => c.key)}::text[],
                ${take.map((c) => c.depth)}::int[],
                ${take.map((c) => c.lastmod?.toISOString() ?? '')}::text[]) AS t(id, url, key, depth, lastmod)
    ON CONFLICT (crawl_id, url_key) DO NOTHING
    RETURNING id AS "pageId", url, depth`;
  return { inserted, capped };
}

/**
 * Count a finished page and newly discovered ones; the crawl closes (`done`) when every page of the
 * frontier has finished. A capped frontier records `max_pages` now and keeps it as the reason.
 * SET expressions see the pre-update row. Returns true when this call closed the crawl.
 */
export async function bumpCrawl(
  tx: SqlClient,
  crawlId: string,
  d: { completed: number; failed: number; credits: number; discovered: number; capped: boolean },
): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ status: string }>>`
    UPDATE crawls SET
      completed = completed + ${d.completed}::int,
      failed = failed + ${d.failed}::int,
      credits_used = credits_used + ${d.credits}::int,
      discovered = discovered + ${d.discovered}::int,
      stop_reason = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN COALESCE(CASE WHEN ${d.capped}::boolean THEN 'max_pages' END, stop_reason, 'completed')
        WHEN ${d.capped}::boolean THEN 'max_pages'
        ELSE stop_reason END,
      status = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN 'done' ELSE 'processing' END,
      -- Headers and actions of the pages are kept only while the crawl has pages left.
      page_secrets = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN NULL ELSE page_secrets END,
      finished_at = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN now() ELSE finished_at END,
      -- At most every 250 ms, as complete_crawl_page: the row's updates stay HOT.
      updated_at = CASE WHEN updated_at < now() - interval '250 milliseconds' THEN now() ELSE updated_at END
    WHERE id = ${crawlId}::uuid AND status = 'processing'
    RETURNING status`;
  return rows[0]?.status === 'done';
}

export type CompletionResult =
  | { kind: 'skipped' }
  | { kind: 'unpaid'; why: 'credits' | 'key_limit' }
  | { kind: 'duplicate'; crawlFinished: boolean; events: string[] }
  | { kind: 'done'; newPages: FrontierPage[]; capped: boolean; crawlFinished: boolean; events: string[] };

/**
 * The page of a running row turned out to be one the crawl already has (its URL, or the URL its
 * redirect ended at, is where a done page is or ended): the row becomes `duplicate` and leaves
 * the count (`discovered` - 1), nothing is billed. Under the crawl lock; guarded like every transition.
 */
export async function markDuplicateTx(
  tx: SqlClient,
  crawlId: string,
  pageId: string,
): Promise<{ applied: boolean; crawlFinished: boolean; events: string[] }> {
  const marked = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE crawl_pages SET status = 'duplicate', finished_at = now(), updated_at = now()
    WHERE id = ${pageId}::uuid AND crawl_id = ${crawlId}::uuid AND status IN ('queued', 'running')
    RETURNING id`;
  if (marked.length === 0) return { applied: false, crawlFinished: false, events: [] };
  const crawlFinished = await bumpCrawl(tx, crawlId, {
    completed: 0,
    failed: 0,
    credits: 0,
    discovered: -1,
    capped: false,
  });
  // A duplicate is not a page of its own (no page event), but it may close the crawl.
  const events = crawlFinished ? await finishCrawlWebhookTx(tx, crawlId) : [];
  return { applied: true, crawlFinished, events };
}

type CompletionRow = {
  /** The crawl has a webhook and the call was not allowed to complete it (nothing written). */
  hooked: boolean;
  eligible: boolean;
  paid: boolean;
  duplicate: boolean;
  newStatus: string | null;
  newPages: FrontierPage[] | null;
  capped: boolean;
  /** Why the page was not payable: the balance (`credits`) or the key's budget (`key_limit`). */
  unpaid: 'credits' | 'key_limit' | null;
};

/**
 * A page's completion, in one call of the `complete_crawl_page` function (its current definition
 * and why: packages/db/sql/functions/complete_crawl_page.sql):
 * 1. lock the crawl row, then its account row (no one locks an account and then a crawl);
 * 2. one statement whose READ COMMITTED snapshot is taken after those locks, so every read in it
 *    (page status, balance, ledger, frontier, counters) is current and stays so until commit:
 *    the page becomes `done` only if its crawl is processing, the page is still queued/running and
 *    the account can pay (or this page was already billed: (reason, reference) is charged once);
 *    the charge, ledger row, frontier rows and counters follow only from that `done` update.
 *    A page that ended where a done page of the crawl is (`dup`: a redirect to it, or from it)
 *    becomes `duplicate` instead: not billed, not counted, no links.
 * When the account cannot pay, or the key that started the crawl is at its daily or monthly
 * limit, nothing is written (`unpaid`, with which of the two); the caller stops the crawl.
 * Both run inside PostgreSQL, so the crawl's lock is held for one statement and its commit, not for
 * four client round trips. A crawl with a webhook is completed by the same function inside a
 * transaction that also writes its outbox events.
 */
export async function completePageTx(
  db: Db,
  crawlId: string,
  pageId: string,
  credits: number,
  r: PageCompletion,
): Promise<CompletionResult> {
  const page = { ...r, pageId, credits };
  const [row] = await callComplete(sqlClient(db), crawlId, page, false);
  // Webhook outbox, same transaction: only for crawls with a webhook (the touch is written).
  // The first statement wrote the touch and the cache copy already: not again.
  if (row?.hooked)
    return completeHookedTx(db, crawlId, { ...page, historyTouch: undefined, cacheRow: undefined });
  return completionResult(row, []);
}

type PageToComplete = PageCompletion & { pageId: string; credits: number };

/** A page of a crawl with a webhook: completed in a transaction that also writes its outbox events. */
async function completeHookedTx(db: Db, crawlId: string, page: PageToComplete): Promise<CompletionResult> {
  return sqlTransaction(db, async (tx) => {
    const [row] = await callComplete(tx, crawlId, page, true);
    return completionResult(row, await completionEventsTx(tx, crawlId, page.pageId, row));
  });
}

/**
 * `completePageTx` of several pages of one crawl handed over together (a worker's group commit):
 * one call of complete_crawl_pages — one statement, one lock of the crawl row, one commit — each
 * page completed by complete_crawl_page as if alone, in order; a result per page. The pages of a
 * crawl with a webhook are then completed one by one, each with its outbox events.
 */
export async function completeEachTx(
  db: Db,
  crawlId: string,
  pages: PageToComplete[],
): Promise<CompletionResult[]> {
  if (pages.length === 0) return [];
  const call = Prisma.sql`
    SELECT o_ord AS ord, o_hooked AS hooked, o_eligible AS eligible, o_paid AS paid,
           o_duplicate AS duplicate, o_new_status AS "newStatus", o_new_pages AS "newPages",
           o_capped AS capped, o_unpaid AS unpaid
    FROM complete_crawl_pages(${crawlId}::uuid, ${toJsonb(
      pages.map((p) => {
        const unique = uniqueByKey(p.links);
        return {
          pageId: p.pageId,
          credits: p.credits,
          result: p.result,
          statusCode: p.statusCode,
          finalKey: p.finalKey,
          urls: unique.map((c) => c.url),
          keys: unique.map((c) => c.key),
          depths: unique.map((c) => c.depth),
        };
      }),
    )}::jsonb)`;
  const rows = await queryCompletion<CompletionRow & { ord: number }>(sqlClient(db), pages, call);
  const byOrd = new Map(rows.map((r) => [Number(r.ord), r]));
  const results: CompletionResult[] = [];
  for (const [i, page] of pages.entries()) {
    const row = byOrd.get(i + 1);
    results.push(
      row?.hooked
        ? await completeHookedTx(db, crawlId, { ...page, historyTouch: undefined, cacheRow: undefined })
        : completionResult(row, []),
    );
  }
  return results;
}

/**
 * `completePageTx` of many pages of one crawl in one transaction (pages with no job of their own:
 * a recrawl's pages vouched for by the sitemap's lastmod), in order, each through the same function
 * call: one commit, so the crawl's lock is taken and the WAL flushed once for all of them instead
 * of once a page. Stops after the first page that is neither done nor a duplicate (unpaid: the
 * caller stops the crawl; skipped: the crawl no longer takes pages); the results are those of the
 * pages attempted, and the outbox events of all of them.
 */
export async function completePagesTx(
  db: Db,
  crawlId: string,
  pages: PageToComplete[],
): Promise<{ results: CompletionResult[]; events: string[] }> {
  if (pages.length === 0) return { results: [], events: [] };
  return sqlTransaction(db, async (tx) => {
    const results: CompletionResult[] = [];
    const events: string[] = [];
    const [{ hooked } = { hooked: false }] = await tx.$queryRaw<Array<{ hooked: boolean }>>`
      SELECT EXISTS (SELECT 1 FROM job_webhooks WHERE job_id = ${crawlId}::uuid) AS hooked`;
    for (const page of pages) {
      const [row] = await callComplete(tx, crawlId, page, true);
      const ids = hooked ? await completionEventsTx(tx, crawlId, page.pageId, row) : [];
      events.push(...ids);
      const result = completionResult(row, ids);
      results.push(result);
      if (result.kind !== 'done' && result.kind !== 'duplicate') break;
    }
    return { results, events };
  });
}

/** What a page's completion stores: its result, status, where it ended and the links it found. */
export interface PageCompletion {
  result: unknown;
  statusCode: number;
  finalKey: string;
  links: FrontierCandidate[];
  /**
   * The page was a 304 answered from the account's change history: the row's move (its time and
   * validators), written in the completion's statement instead of a round trip of its own — also
   * when the completion does not apply, as the site confirmed the copy either way.
   */
  historyTouch?: PageHistoryTouch;
  /**
   * The page-cache copy of the fetched page (`PageCacheRepository.row`), written in the
   * completion's statement instead of one of its own: committed with the page it lists, also when
   * the completion does not apply (the page was fetched either way).
   */
  cacheRow?: PageCacheRow;
}

type SideWrites = Pick<PageCompletion, 'historyTouch' | 'cacheRow'>;

/**
 * `call`, with the pages' history touches and page-cache copies (if any) as data-modifying CTEs of
 * the same statement. Cache rows of one key: the latest fetch only (a statement updates a row once).
 */
function withSideWrites(pages: SideWrites[], call: Prisma.Sql, withCache = true): Prisma.Sql {
  const touches = pages.flatMap((p) => (p.historyTouch ? [p.historyTouch] : []));
  const latest = new Map<string, PageCacheRow>();
  if (withCache)
    for (const { cacheRow: r } of pages) {
      const seen = r && latest.get(r.key);
      if (r && (!seen || seen.fetchedAt <= r.fetchedAt)) latest.set(r.key, r);
    }
  const ctes = [
    ...(touches.length > 0 ? [Prisma.sql`touched AS (${touchStatement(touches)})`] : []),
    ...(latest.size > 0 ? [Prisma.sql`cached AS (${pageCacheInsert([...latest.values()])})`] : []),
  ];
  return ctes.length === 0 ? call : Prisma.sql`WITH ${Prisma.join(ctes)} ${call}`;
}

/**
 * The completion's statement with its side writes. The page cache is best effort: a statement that
 * failed with cache rows in it (it wrote nothing) goes once more without them, so a cache row can
 * never fail a page. Not inside a transaction: a failed statement would have aborted it.
 */
async function queryCompletion<T>(tx: SqlClient, pages: SideWrites[], call: Prisma.Sql): Promise<T[]> {
  try {
    return await tx.$queryRaw<T[]>(withSideWrites(pages, call));
  } catch (err) {
    if (!pages.some((p) => p.cacheRow)) throw err;
    return tx.$queryRaw<T[]>(withSideWrites(pages, call, false));
  }
}

function callComplete(
  tx: SqlClient,
  crawlId: string,
  page: PageToComplete,
  hookedOk: boolean,
): PromiseLike<CompletionRow[]> {
  const unique = uniqueByKey(page.links);
  return queryCompletion<CompletionRow>(
    tx,
    [page],
    Prisma.sql`
      SELECT o_hooked AS hooked, o_eligible AS eligible, o_paid AS paid, o_duplicate AS duplicate,
             o_new_status AS "newStatus", o_new_pages AS "newPages", o_capped AS capped,
             o_unpaid AS unpaid
      FROM complete_crawl_page(${crawlId}::uuid, ${page.pageId}::uuid, ${page.credits}::int,
        ${toJsonb(page.result)}::jsonb, ${page.statusCode}::int, ${page.finalKey}::text,
        ${unique.map((c) => c.url)}::text[], ${unique.map((c) => c.key)}::text[],
        ${unique.map((c) => c.depth)}::int[], ${hookedOk}::boolean)`,
  );
}

/** The outbox events of one completion of a crawl with a webhook (page, and crawl closed). */
async function completionEventsTx(
  tx: SqlClient,
  crawlId: string,
  pageId: string,
  row: CompletionRow | undefined,
): Promise<string[]> {
  if (!row?.eligible || (!row.duplicate && !row.paid)) return [];
  return pageEventsTx(tx, crawlId, {
    pageId: row.duplicate ? null : pageId,
    crawlFinished: row.newStatus === 'done',
  });
}

function completionResult(row: CompletionRow | undefined, events: string[]): CompletionResult {
  if (!row?.eligible) return { kind: 'skipped' };
  if (row.duplicate) return { kind: 'duplicate', crawlFinished: row.newStatus === 'done', events };
  if (!row.paid) return { kind: 'unpaid', why: row.unpaid === 'key_limit' ? 'key_limit' : 'credits' };
  return {
    kind: 'done',
    newPages: row.newPages ?? [],
    capped: row.capped,
    crawlFinished: row.newStatus === 'done',
    events,
  };
}

/**
 * Fail a running crawl (guarded) and skip its unfinished pages; returns the skipped pages that had
 * a job (claimed by the queue window) and the webhook's outbox events (`failed`, when asked).
 */
export async function stopCrawlInTx(
  tx: SqlClient,
  crawlId: string,
  reason: CrawlStopReason,
  error: string,
): Promise<{ skippedPageIds: string[]; events: string[] }> {
  const stopped = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE crawls SET status = 'failed', stop_reason = ${reason}, error = ${error}, finished_at = now(),
           page_secrets = NULL, updated_at = now()
    WHERE id = ${crawlId}::uuid AND status IN ('pending', 'processing')
    RETURNING id`;
  if (stopped.length === 0) return { skippedPageIds: [], events: [] };
  // Only claimed rows (`enqueued`, the queue window) have a job to remove.
  const skipped = await tx.$queryRaw<Array<{ id: string }>>`
    WITH s AS (
      UPDATE crawl_pages SET status = 'skipped', updated_at = now()
      WHERE crawl_id = ${crawlId}::uuid AND status IN ('queued', 'running')
      RETURNING id, enqueued)
    SELECT id FROM s WHERE enqueued`;
  const events = await finishCrawlWebhookTx(tx, crawlId);
  return { skippedPageIds: skipped.map((s) => s.id), events };
}
