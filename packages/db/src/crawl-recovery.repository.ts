import { stopCrawlInTx } from './crawl-frontier.ops';
import { type Db, inTransaction, type Tx } from './db';
import { Prisma } from './generated/prisma/client';
import type { JobWebhookNotifier } from './job-webhook.types';
import { finishCrawlWebhookTx, notifyJobWebhooks } from './job-webhook-outbox.ops';

/**
 * What the crawl-worker's reconciler asks of the database: frontier rows whose job may be lost,
 * crawls whose start job may be lost, crawls past their deadline and crawls with nothing left to
 * do. Every query uses the database clock on both sides of a comparison.
 */
export class CrawlRecoveryRepository {
  /** `onWebhookEvents`: as for CrawlsRepository (crawls it ends get their terminal webhook event). */
  constructor(
    private readonly db: Db,
    private readonly opts: { onWebhookEvents?: JobWebhookNotifier } = {},
  ) {}

  private notify(eventIds: string[]): Promise<void> {
    return notifyJobWebhooks(this.db, this.opts.onWebhookEvents, eventIds);
  }

  /**
   * Claimed queued and running pages of running crawls untouched for olderThanMs, oldest first.
   * Unclaimed rows (outside the queue window) wait by design and have no job to lose.
   */
  findStrandedPages(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ pageId: string; crawlId: string; depth: number }>> {
    const n = Math.max(0, Math.trunc(limit));
    const before = Prisma.sql`now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')`;
    // Each status walks its partial index on updated_at in order and stops after `limit` rows: a
    // large crawl keeps most of its frontier queued (waiting, not lost) for long, and a join that
    // starts from the running crawls would read and sort all of those rows on every pass.
    // Queued rows of a crawl that is not running are rare (a stopped crawl skips its pages).
    return this.db.prisma.$queryRaw`
      SELECT p.id AS "pageId", p.crawl_id AS "crawlId", p.depth FROM (
        (SELECT id, crawl_id, depth, updated_at FROM crawl_pages
         WHERE status = 'queued' AND enqueued AND updated_at < ${before} ORDER BY updated_at LIMIT ${n}::int)
        UNION ALL
        (SELECT id, crawl_id, depth, updated_at FROM crawl_pages
         WHERE status = 'running' AND updated_at < ${before} ORDER BY updated_at LIMIT ${n}::int)
      ) p JOIN crawls c ON c.id = p.crawl_id AND c.status = 'processing'
      ORDER BY p.updated_at
      LIMIT ${n}::int`;
  }

  /** Touch pages that were checked (their job is alive) so the next pass looks at others first. */
  async touchPages(pageIds: string[]): Promise<void> {
    if (pageIds.length === 0) return;
    await this.db.prisma.$executeRaw`
      UPDATE crawl_pages SET updated_at = now()
      WHERE id = ANY(${pageIds}::text[]::uuid[]) AND status IN ('queued', 'running')`;
  }

  /**
   * Running crawls untouched for olderThanMs with rows waiting outside the queue window and none in
   * it: the pages that would have claimed them never did (their worker died between a page's
   * commit and its claim, or the claim failed). The reconciler claims their window again.
   */
  findStarvedCrawls(olderThanMs: number, limit: number): Promise<Array<{ crawlId: string }>> {
    return this.db.prisma.$queryRaw`
      SELECT c.id AS "crawlId" FROM crawls c
      WHERE c.status = 'processing'
        AND c.updated_at < now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')
        AND EXISTS (SELECT 1 FROM crawl_pages p
                    WHERE p.crawl_id = c.id AND p.status = 'queued' AND NOT p.enqueued)
        AND NOT EXISTS (SELECT 1 FROM crawl_pages p
                        WHERE p.crawl_id = c.id AND p.enqueued AND p.status IN ('queued', 'running'))
      ORDER BY c.updated_at LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
  }

  /** Crawls still `pending` (start job not run) for olderThanMs. */
  findStalePendingCrawls(olderThanMs: number, limit: number): Promise<Array<{ crawlId: string }>> {
    return this.db.prisma.$queryRaw`
      SELECT id AS "crawlId" FROM crawls
      WHERE status = 'pending'
        AND updated_at < now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')
      ORDER BY updated_at LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
  }

  /** Fail every unfinished crawl older than deadlineMs; returns them with the pages they skipped. */
  async failOverdueCrawls(
    deadlineMs: number,
    limit: number,
  ): Promise<Array<{ crawlId: string; skippedPageIds: string[] }>> {
    const overdue = await this.db.prisma.$queryRaw<Array<{ crawlId: string }>>`
      SELECT id AS "crawlId" FROM crawls
      WHERE status IN ('pending', 'processing')
        AND created_at < now() - (${Math.max(0, deadlineMs)}::float8 * interval '1 millisecond')
      ORDER BY created_at LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
    const minutes = Math.round(deadlineMs / 60_000);
    const out: Array<{ crawlId: string; skippedPageIds: string[] }> = [];
    for (const { crawlId } of overdue) {
      const r = await inTransaction(this.db, (tx) =>
        stopCrawlInTx(
          tx,
          crawlId,
          'timeout',
          `The crawl did not finish within its deadline (${minutes > 0 ? `${minutes} min` : `${deadlineMs} ms`}); pages already crawled are kept`,
        ),
      );
      await this.notify(r.events);
      out.push({ crawlId, skippedPageIds: r.skippedPageIds });
    }
    return out;
  }

  /** Close running crawls whose every frontier page has finished (a missed close); returns how many. */
  async closeIdleCrawls(): Promise<number> {
    const { closed, events } = await inTransaction(this.db, async (tx) => {
      const ids = await this.closeIdleInTx(tx);
      const events: string[] = [];
      // Their webhooks' terminal events commit with the close.
      for (const id of ids) events.push(...(await finishCrawlWebhookTx(tx, id)));
      return { closed: ids.length, events };
    });
    await this.notify(events);
    return closed;
  }

  private async closeIdleInTx(tx: Tx): Promise<string[]> {
    // Same rule as a closing page: a crawl that crawled nothing is failed, naming its start page's error.
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      UPDATE crawls SET
             status = CASE WHEN completed = 0 THEN 'failed' ELSE 'done' END,
             stop_reason = CASE WHEN completed = 0 THEN 'error' ELSE COALESCE(stop_reason, 'completed') END,
             error = CASE WHEN completed = 0 THEN COALESCE(error, (
               SELECT 'The start page could not be crawled (' || COALESCE(p.error_code, 'INTERNAL') || '): '
                      || COALESCE(p.error, 'no page could be fetched')
               FROM crawl_pages p WHERE p.crawl_id = crawls.id ORDER BY p.depth, p.created_at LIMIT 1))
             ELSE error END,
             finished_at = now(), page_secrets = NULL, updated_at = now()
      WHERE status = 'processing' AND completed + failed >= discovered
        AND NOT EXISTS (SELECT 1 FROM crawl_pages p
                        WHERE p.crawl_id = crawls.id AND p.status IN ('queued', 'running'))
      RETURNING id`;
    return rows.map((r) => r.id);
  }
}
