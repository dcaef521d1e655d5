import { randomUUID } from 'node:crypto';
import type {
  CompletePageOutcome,
  CrawlOptions,
  CrawlPageStart,
  CrawlPageStartWithHistory,
  CrawlPageStatus,
  CrawlPageTask,
  CrawlPageView,
  CrawlStopReason,
  CrawlView,
  FrontierCandidate,
  FrontierPage,
  HistoryOfStart,
} from './crawl.types';
import {
  bumpCrawl,
  type CompletionResult,
  completeEachTx,
  completePagesTx,
  completePageTx,
  insertFrontier,
  lockCrawl,
  markDuplicateTx,
  pageEventsTx,
  stopCrawlInTx,
} from './crawl-frontier.ops';
import { type CrawlRow, failIfNothingCrawled, PAGE_TASK_COLUMNS, TASK_COLUMNS, toView } from './crawl-rows';
import { type Db, inTransaction } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import type { JobWebhookConfig, JobWebhookNotifier } from './job-webhook.types';
import { createJobWebhookTx, notifyJobWebhooks } from './job-webhook-outbox.ops';
import type { PageCacheRow } from './page-cache.repository';
import { HISTORY_BESIDE, type PageHistoryTouch, splitHistoryBeside } from './page-history.repository';
import { ASYNC_COMMIT, sqlClient, sqlTransaction } from './sql-client';

/** Credits per completed page (spec §8: crawl = 1 per page crawled), charged as the page completes. */
const CREDITS_PER_PAGE = 1;

/**
 * Crawls and their frontier (`crawl_pages`). PostgreSQL is the source of truth: page transitions
 * are guarded (`WHERE status IN ('queued','running')`) and every frontier change happens under
 * the crawl row's lock, so the pages that did not fail never pass maxPages (a failed page gives
 * its room back, up to maxPages of them) and the last page to finish closes
 * the crawl exactly once. Lock order: the crawl row first, always; a completion then locks the
 * account row before the page row (a running crawl's page rows change only under its crawl lock
 * or alone in one statement, so that order cannot deadlock).
 */
export class CrawlsRepository {
  /**
   * `onWebhookEvents`: told the ids of webhook outbox events after their transaction commits (the
   * crawl-worker enqueues their dispatch jobs at once); without it the dispatcher's relay does.
   */
  constructor(
    private readonly db: Db,
    private readonly opts: { onWebhookEvents?: JobWebhookNotifier } = {},
  ) {}

  private notify(eventIds: string[]): Promise<void> {
    return notifyJobWebhooks(this.db, this.opts.onWebhookEvents, eventIds);
  }

  /**
   * A new crawl in `pending`; the crawl-worker's start job seeds its frontier. With a `webhook`
   * the crawl's webhook row and its `started` event commit with the crawl.
   */
  async create(i: {
    accountId: string;
    url: string;
    options: CrawlOptions;
    /** The key that started the crawl: its pages count against that key's budget. */
    apiKeyId?: string | null;
    /** Headers and actions of every page: cleared when the crawl ends. */
    pageSecrets?: Prisma.InputJsonObject;
    webhook?: JobWebhookConfig;
  }): Promise<{ crawlId: string }> {
    const crawlId = randomUUID();
    const data = {
      id: crawlId,
      accountId: i.accountId,
      url: i.url,
      status: 'pending',
      options: { ...i.options },
      ...(i.apiKeyId && isUuid(i.apiKeyId) ? { apiKeyId: i.apiKeyId } : {}),
      ...(i.pageSecrets ? { pageSecrets: i.pageSecrets } : {}),
    };
    const { webhook } = i;
    if (!webhook) {
      await this.db.prisma.crawl.create({ data });
      return { crawlId };
    }
    const events = await inTransaction(this.db, async (tx) => {
      await tx.crawl.create({ data });
      return createJobWebhookTx(tx, { jobId: crawlId, kind: 'crawl', accountId: i.accountId, webhook });
    });
    await this.notify(events);
    return { crawlId };
  }

  /** null when unknown or owned by another account (callers answer 404 either way). */
  async get(accountId: string, crawlId: string): Promise<CrawlView | null> {
    if (!isUuid(accountId) || !isUuid(crawlId)) return null;
    const rows = await this.db.prisma.$queryRaw<CrawlRow[]>`
      SELECT * FROM crawls WHERE id = ${crawlId}::uuid AND account_id = ${accountId}::uuid`;
    return rows[0] ? toView(rows[0]) : null;
  }

  /** For workers: any account. */
  async getById(crawlId: string): Promise<CrawlView | null> {
    if (!isUuid(crawlId)) return null;
    const rows = await this.db.prisma.$queryRaw<CrawlRow[]>`SELECT * FROM crawls WHERE id = ${crawlId}::uuid`;
    return rows[0] ? toView(rows[0]) : null;
  }

  /** Finished pages of one status in the order they finished (stable while the crawl goes on). */
  async listPages(
    crawlId: string,
    status: 'done' | 'failed',
    skip: number,
    limit: number,
  ): Promise<CrawlPageView[]> {
    if (!isUuid(crawlId)) return [];
    const rows = await this.db.prisma.$queryRaw<Array<Omit<CrawlPageView, 'status'> & { status: string }>>`
      SELECT id AS "pageId", url, depth, status, status_code AS "statusCode", result, error,
             error_code AS "errorCode", finished_at AS "finishedAt"
      FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND status = ${status}
        -- Always true of a finished page; says so to the planner for the partial index.
        AND finished_at IS NOT NULL
      ORDER BY finished_at, id
      OFFSET ${Math.max(0, Math.trunc(skip))}::int LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
    return rows.map((r) => ({ ...r, status: r.status as CrawlPageStatus }));
  }

  /**
   * Cancel: the crawl becomes `failed` / `cancelled` and its unfinished pages `skipped` (returned, so
   * the caller can remove their jobs). Idempotent; null for unknown/foreign ids.
   */
  async cancel(
    accountId: string,
    crawlId: string,
  ): Promise<{ crawl: CrawlView; skippedPageIds: string[] } | null> {
    if (!(await this.get(accountId, crawlId))) return null;
    const skippedPageIds = await this.stop(crawlId, 'cancelled', 'Cancelled by the caller');
    const crawl = await this.get(accountId, crawlId);
    return crawl ? { crawl, skippedPageIds } : null;
  }

  /** Fail a crawl that is still running (guarded); returns the ids of the pages it skipped. */
  async stop(crawlId: string, reason: CrawlStopReason, error: string): Promise<string[]> {
    if (!isUuid(crawlId)) return [];
    const r = await inTransaction(this.db, (tx) => stopCrawlInTx(tx, crawlId, reason, error));
    await this.notify(r.events);
    return r.skippedPageIds;
  }

  /**
   * The start job's result: robots.txt, then the seeds (start URL first) within maxPages. The crawl
   * moves to `processing`. Repeating it (a re-delivered start job) inserts nothing twice and
   * returns every still-queued page so its job can be (re-)added under the same id.
   * null = the crawl is unknown or already finished.
   */
  async seed(
    crawlId: string,
    s: {
      robotsTxt: string | null;
      crawlDelayMs: number | null;
      pages: FrontierCandidate[];
    },
  ): Promise<FrontierPage[] | null> {
    if (!isUuid(crawlId)) return null;
    return inTransaction(this.db, async (tx) => {
      const crawl = await lockCrawl(tx, crawlId);
      if (crawl?.status !== 'pending' && crawl?.status !== 'processing') return null;
      const text = s.robotsTxt?.replaceAll('\0', '') ?? null;
      await tx.$executeRaw`
        UPDATE crawls SET status = 'processing', robots_txt = ${text}, crawl_delay_ms = ${s.crawlDelayMs}::int,
               updated_at = now()
        WHERE id = ${crawlId}::uuid`;
      const { inserted, capped } = await insertFrontier(
        tx,
        crawlId,
        crawl.maxPages - crawl.discovered,
        s.pages,
      );
      await bumpCrawl(tx, crawlId, {
        completed: 0,
        failed: 0,
        credits: 0,
        discovered: inserted.length,
        capped,
      });
      return tx.$queryRaw<FrontierPage[]>`
        SELECT id AS "pageId", url, depth FROM crawl_pages
        WHERE crawl_id = ${crawlId}::uuid AND status = 'queued' ORDER BY depth, created_at`;
    });
  }

  /** The crawl's queued rows, shallowest first (jobs are added by id: adding a live one is a no-op). */
  async queuedPages(crawlId: string): Promise<FrontierPage[]> {
    if (!isUuid(crawlId)) return [];
    return this.db.prisma.$queryRaw<FrontierPage[]>`
      SELECT id AS "pageId", url, depth FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid AND status = 'queued' ORDER BY depth, created_at`;
  }

  /**
   * Mark the page running (attempts+1) unless it or its crawl already finished. A running page may
   * start again: that is a redelivery after a worker died. null = skip the work. `duplicateOf` is
   * set when a done page's redirect already ended at this URL: call markDuplicate, do not fetch.
   */
  async startPage(pageId: string): Promise<CrawlPageTask | null> {
    if (!isUuid(pageId)) return null;
    return this.start<CrawlPageTask>(pageId, null, TASK_COLUMNS);
  }

  /**
   * `startPage` of a page of `crawlId` for a worker that already holds the crawl's columns
   * (`CrawlOfTask`: fixed once the crawl runs): the page's own columns only, so a crawl's options,
   * robots.txt and secrets are not read, sent and parsed again with every page.
   */
  async startPageOf(crawlId: string, pageId: string): Promise<CrawlPageStart | null> {
    if (!isUuid(crawlId) || !isUuid(pageId)) return null;
    return this.start<CrawlPageStart>(pageId, crawlId, Prisma.raw(PAGE_TASK_COLUMNS));
  }

  /**
   * `startPageOf` of a tracked crawl's page, with the account's change-history row under the
   * page's frontier key and `history.tag` read in the same statement (a tracked page reads it
   * before every visit: one round trip instead of two). `history` is null without a row; the
   * caller uses it only where the frontier key is the history's key (no `ignoreQueryParameters`
   * cut).
   */
  async startPageWithHistory(
    crawlId: string,
    pageId: string,
    history: HistoryOfStart,
  ): Promise<CrawlPageStartWithHistory | null> {
    if (!isUuid(crawlId) || !isUuid(pageId) || !isUuid(history.accountId)) return null;
    const started = this.startStatement(pageId, crawlId, Prisma.raw(PAGE_TASK_COLUMNS));
    const rows = await sqlClient(this.db).$queryRaw<Array<Record<string, unknown>>>`
      WITH s AS (${started})
      SELECT s.*, ${Prisma.raw(HISTORY_BESIDE)}
      FROM s LEFT JOIN page_history h
        ON h.account_id = ${history.accountId}::uuid AND h.url_key = s."urlKey" AND h.tag = ${history.tag}`;
    const row = rows[0];
    if (!row) return null;
    const { own, history: record } = splitHistoryBeside<CrawlPageStart>(row);
    return { ...own, history: record };
  }

  private async start<T>(pageId: string, crawlId: string | null, columns: Prisma.Sql): Promise<T | null> {
    const rows = await sqlClient(this.db).$queryRaw<T[]>`${this.startStatement(pageId, crawlId, columns)}`;
    return rows[0] ?? null;
  }

  /** The guarded queued/running → running transition of one page, returning `columns`. */
  private startStatement(pageId: string, crawlId: string | null, columns: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`
      UPDATE crawl_pages p SET status = 'running', attempts = p.attempts + 1, updated_at = now()
      FROM crawls c, ${ASYNC_COMMIT}
      WHERE p.id = ${pageId}::uuid AND c.id = p.crawl_id AND c.status = 'processing'
        AND p.status IN ('queued', 'running')
        AND (${crawlId}::uuid IS NULL OR p.crawl_id = ${crawlId}::uuid)
      RETURNING ${columns}, (
        SELECT k.url FROM (
          SELECT d.url, d.status FROM crawl_pages d
          WHERE d.crawl_id = p.crawl_id AND d.final_key = p.url_key OFFSET 0
        ) k WHERE k.status = 'done' LIMIT 1
      ) AS "duplicateOf"`;
  }

  /**
   * Undo a `startPage` whose page must wait for its politeness slot: back to queued, the attempt
   * not counted (only a start that may have reached the site counts toward the give-up limit).
   */
  async unstartPage(pageId: string): Promise<void> {
    if (!isUuid(pageId)) return;
    await sqlClient(this.db).$executeRaw`
      UPDATE crawl_pages SET status = 'queued', attempts = GREATEST(0, attempts - 1), updated_at = now()
      FROM ${ASYNC_COMMIT}
      WHERE id = ${pageId}::uuid AND status = 'running'`;
  }

  /** The page is one the crawl already has (see markDuplicateTx): not counted, not billed. */
  async markDuplicate(
    crawlId: string,
    pageId: string,
  ): Promise<{ applied: boolean; crawlFinished: boolean }> {
    if (!isUuid(crawlId) || !isUuid(pageId)) return { applied: false, crawlFinished: false };
    const r = await sqlTransaction(this.db, async (tx) => {
      const crawl = await lockCrawl(tx, crawlId);
      if (crawl?.status !== 'processing') return { applied: false, crawlFinished: false, events: [] };
      return markDuplicateTx(tx, crawlId, pageId);
    });
    await this.notify(r.events);
    return { applied: r.applied, crawlFinished: r.crawlFinished };
  }

  /**
   * One transaction: the page becomes `done` with its result, its credits (1, 6 with a summary) are charged (ledger reason
   * `crawl`, reference = page id, at most once), its links join the frontier (within maxPages), and
   * the crawl closes when nothing is left. When the account cannot pay, none of that is kept: the
   * crawl stops `out_of_credits` (`key_budget_exceeded` when the key that started it is at its limit). See `completePageTx` for how it stays exact in two statements.
   */
  async completePage(
    crawlId: string,
    pageId: string,
    r: {
      result: unknown;
      statusCode: number;
      finalKey: string;
      links: FrontierCandidate[];
      /** What the page costs (default 1; the `summary` format adds the model's). */
      credits?: number;
      /** A 304's history touch, written in the completion's statement (`PageCompletion`). */
      historyTouch?: PageHistoryTouch;
      /** The fetched page's page-cache copy, written in the completion's statement (`PageCompletion`). */
      cacheRow?: PageCacheRow;
    },
  ): Promise<CompletePageOutcome> {
    if (!isUuid(crawlId) || !isUuid(pageId)) return { outcome: 'skipped' };
    const done = await completePageTx(this.db, crawlId, pageId, r.credits ?? CREDITS_PER_PAGE, r);
    if (done.kind === 'done' || done.kind === 'duplicate') await this.notify(done.events);
    return this.outcomeOf(crawlId, done);
  }

  /**
   * `completePage` of many pages of the crawl in one transaction (completePagesTx: one commit), in
   * order; the outcomes of the pages attempted — it stops after the first that is neither done nor
   * a duplicate (out of credits: the crawl is stopped as `completePage` stops it).
   */
  async completePages(
    crawlId: string,
    pages: Array<Parameters<CrawlsRepository['completePage']>[2] & { pageId: string }>,
  ): Promise<CompletePageOutcome[]> {
    if (!isUuid(crawlId)) return [];
    const valid = pages.filter((p) => isUuid(p.pageId));
    const { results, events } = await completePagesTx(
      this.db,
      crawlId,
      valid.map((p) => ({ ...p, credits: p.credits ?? CREDITS_PER_PAGE })),
    );
    await this.notify(events);
    const outcomes: CompletePageOutcome[] = [];
    for (const r of results) outcomes.push(await this.outcomeOf(crawlId, r));
    return outcomes;
  }

  /**
   * `completePage` of several pages of the crawl that finished together (a worker's group commit,
   * completeEachTx: one statement and one commit for all), each completed as if alone: an outcome
   * per page, in order (an unpaid one stops the crawl as `completePage` stops it).
   */
  async completeEach(
    crawlId: string,
    pages: Array<Parameters<CrawlsRepository['completePage']>[2] & { pageId: string }>,
  ): Promise<CompletePageOutcome[]> {
    if (!isUuid(crawlId)) return pages.map(() => ({ outcome: 'skipped' }));
    const valid = pages.filter((p) => isUuid(p.pageId));
    const results = await completeEachTx(
      this.db,
      crawlId,
      valid.map((p) => ({ ...p, credits: p.credits ?? CREDITS_PER_PAGE })),
    );
    const byPage = new Map(valid.map((p, i) => [p, results[i]]));
    const outcomes: CompletePageOutcome[] = [];
    for (const page of pages) {
      const done = byPage.get(page);
      if (!done) {
        outcomes.push({ outcome: 'skipped' });
        continue;
      }
      if (done.kind === 'done' || done.kind === 'duplicate') await this.notify(done.events);
      outcomes.push(await this.outcomeOf(crawlId, done));
    }
    return outcomes;
  }

  /** A completion's outcome; an unpaid page stops the crawl (out of credits, or the key's budget). */
  private async outcomeOf(crawlId: string, done: CompletionResult): Promise<CompletePageOutcome> {
    if (done.kind === 'skipped') return { outcome: 'skipped' };
    if (done.kind === 'duplicate') return { outcome: 'duplicate', crawlFinished: done.crawlFinished };
    if (done.kind === 'done') {
      return {
        outcome: 'done',
        newPages: done.newPages,
        capped: done.capped,
        crawlFinished: done.crawlFinished,
      };
    }
    if (done.why === 'key_limit') {
      const skippedPageIds = await this.stop(
        crawlId,
        'key_budget_exceeded',
        "The API key's daily or monthly credit limit is reached: the crawl stopped. Pages already crawled are kept (and billed); raise the key's limit or wait for the period to end, and start a new crawl for the rest.",
      );
      return { outcome: 'out_of_credits', reason: 'key_budget_exceeded', skippedPageIds };
    }
    const skippedPageIds = await this.stop(
      crawlId,
      'out_of_credits',
      'Out of credits: the crawl stopped. Pages already crawled are kept (and billed); top up and start a new crawl for the rest.',
    );
    return { outcome: 'out_of_credits', reason: 'out_of_credits', skippedPageIds };
  }

  /**
   * Record a failed page (not billed). A failed page does not count against maxPages (up to
   * maxPages of them): the shallowest, oldest `spare` row (a link the cap left out; links stored
   * together are taken by key, so the choice never depends on the plan) takes its place, queued in
   * the same transaction and returned in `promoted` for the caller to enqueue. false = the page or
   * its crawl had already finished.
   */
  async failPage(
    crawlId: string,
    pageId: string,
    e: { error: string; code: string; statusCode: number | null },
  ): Promise<{ applied: boolean; crawlFinished: boolean; promoted: FrontierPage[] }> {
    const none = { applied: false, crawlFinished: false, promoted: [] as FrontierPage[] };
    if (!isUuid(crawlId) || !isUuid(pageId)) return none;
    const r = await sqlTransaction(this.db, async (tx) => {
      const crawl = await lockCrawl(tx, crawlId);
      if (crawl?.status !== 'processing') return { ...none, events: [] };
      const failed = await tx.$queryRaw<Array<{ id: string }>>`
        UPDATE crawl_pages
        SET status = 'failed', error = ${e.error.replaceAll('\0', '')}, error_code = ${e.code},
            status_code = ${e.statusCode}::int, finished_at = now(), updated_at = now()
        WHERE id = ${pageId}::uuid AND crawl_id = ${crawlId}::uuid AND status IN ('queued', 'running')
        RETURNING id`;
      if (failed.length === 0) return { ...none, events: [] };
      // Under the crawl lock: `failed` before this failure decides whether it gives room back.
      const promoted = await tx.$queryRaw<FrontierPage[]>`
        UPDATE crawl_pages SET status = 'queued', updated_at = now()
        WHERE id = (SELECT s.id FROM crawl_pages s
                    WHERE s.crawl_id = ${crawlId}::uuid AND s.status = 'spare'
                    ORDER BY s.depth, s.created_at, s.url_key LIMIT 1)
          AND (SELECT c.failed FROM crawls c WHERE c.id = ${crawlId}::uuid) < ${crawl.maxPages}::int
        RETURNING id AS "pageId", url, depth`;
      if (promoted.length > 0) {
        await tx.$executeRaw`
          UPDATE crawls SET spare_pages = spare_pages - ${promoted.length}::int WHERE id = ${crawlId}::uuid`;
      }
      const crawlFinished = await bumpCrawl(tx, crawlId, {
        completed: 0,
        failed: 1,
        credits: 0,
        discovered: promoted.length,
        capped: false,
      });
      if (crawlFinished) await failIfNothingCrawled(tx, crawlId);
      // After failIfNothingCrawled: the crawl's terminal event follows its final status.
      const events = crawl.hooked ? await pageEventsTx(tx, crawlId, { pageId, crawlFinished }) : [];
      return { applied: true, crawlFinished, promoted, events };
    });
    await this.notify(r.events);
    return { applied: r.applied, crawlFinished: r.crawlFinished, promoted: r.promoted };
  }
}
