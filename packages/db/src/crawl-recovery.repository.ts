import { stopCrawlInTx } from './crawl-frontier.ops';
import { type Db, inTransaction } from './db';

/**
 * What the crawl-worker's reconciler asks of the database: frontier rows whose job may be lost,
 * crawls whose start job may be lost, crawls past their deadline and crawls with nothing left to
 * do. Every query uses the database clock on both sides of a comparison.
 */
export class CrawlRecoveryRepository {
  constructor(private readonly db: Db) {}

  /** Queued/running pages of running crawls untouched for olderThanMs, oldest first. */
  findStrandedPages(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ pageId: string; crawlId: string; depth: number }>> {
    return this.db.prisma.$queryRaw`
      SELECT p.id AS "pageId", p.crawl_id AS "crawlId", p.depth FROM crawl_pages p
      JOIN crawls c ON c.id = p.crawl_id AND c.status = 'processing'
      WHERE p.status IN ('queued', 'running')
        AND p.updated_at < now() - (${Math.max(0, olderThanMs)}::float8 * interval '1 millisecond')
      ORDER BY p.updated_at
      LIMIT ${Math.max(0, Math.trunc(limit))}::int`;
  }

  /** Touch pages that were checked (their job is alive) so the next pass looks at others first. */
  async touchPages(pageIds: string[]): Promise<void> {
    if (pageIds.length === 0) return;
    await this.db.prisma.$executeRaw`
      UPDATE crawl_pages SET updated_at = now()
      WHERE id = ANY(${pageIds}::text[]::uuid[]) AND status IN ('queued', 'running')`;
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
      const skippedPageIds = await inTransaction(this.db, (tx) =>
        stopCrawlInTx(
          tx,
          crawlId,
          'timeout',
          `The crawl did not finish within its deadline (${minutes > 0 ? `${minutes} min` : `${deadlineMs} ms`}); pages already crawled are kept`,
        ),
      );
      out.push({ crawlId, skippedPageIds });
    }
    return out;
  }

  /** Close running crawls whose every frontier page has finished (a missed close); returns how many. */
  async closeIdleCrawls(): Promise<number> {
    // Same rule as a closing page: a crawl that crawled nothing is failed, naming its start page's error.
    return this.db.prisma.$executeRaw`
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
                        WHERE p.crawl_id = crawls.id AND p.status IN ('queued', 'running'))`;
  }
}
