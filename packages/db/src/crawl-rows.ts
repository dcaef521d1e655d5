/**
 * The row shapes and column lists of the crawls repository's raw statements, and the one statement
 * shared by its transitions (failIfNothingCrawled).
 */
import type { CrawlOptions, CrawlStopReason, CrawlView } from './crawl.types';
import { Prisma } from './generated/prisma/client';
import type { SqlClient } from './sql-client';

/** A page task's own columns (`CrawlPageStart`). */
export const PAGE_TASK_COLUMNS = `p.id AS "pageId", p.crawl_id AS "crawlId", p.url, p.url_key AS "urlKey", p.depth,
  p.attempts, p.status AS "pageStatus", c.status AS "crawlStatus", p.sitemap_lastmod AS "sitemapLastmod",
  p.created_at AS "createdAt"`;
/** Its crawl's columns (`CrawlOfTask`): the same for every page of the crawl once it runs. */
const CRAWL_TASK_COLUMNS = `c.account_id AS "accountId", c.url AS "crawlUrl", c.options,
  c.robots_txt AS "robotsTxt", c.crawl_delay_ms AS "crawlDelayMs", c.page_secrets AS "pageSecrets",
  c.created_at AS "crawlCreatedAt"`;
export const TASK_COLUMNS = Prisma.raw(`${PAGE_TASK_COLUMNS}, ${CRAWL_TASK_COLUMNS}`);

export type CrawlRow = {
  id: string;
  account_id: string;
  url: string;
  status: string;
  options: unknown;
  stop_reason: string | null;
  error: string | null;
  discovered: number;
  completed: number;
  failed: number;
  credits_used: number;
  robots_txt: string | null;
  crawl_delay_ms: number | null;
  created_at: Date;
  finished_at: Date | null;
  page_secrets: unknown;
};

export function toView(r: CrawlRow): CrawlView {
  return {
    crawlId: r.id,
    accountId: r.account_id,
    url: r.url,
    status: r.status as CrawlView['status'],
    options: r.options as CrawlOptions,
    stopReason: r.stop_reason as CrawlStopReason | null,
    error: r.error,
    discovered: r.discovered,
    completed: r.completed,
    failed: r.failed,
    creditsUsed: r.credits_used,
    robotsTxt: r.robots_txt,
    crawlDelayMs: r.crawl_delay_ms,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    pageSecrets: r.page_secrets ?? null,
  };
}

/**
 * A crawl that just closed with no page crawled (its start page failed — a private address, an HTTP
 * error, … — and so did every other seed) is `failed`, not `done`: stop reason `error`, and the
 * error names the start page's code, "The start page could not be crawled (CODE): message". Nothing
 * was billed (only done pages are), so there is nothing to refund. Same transaction as the closing
 * page, guarded on `done` with `completed = 0`.
 */
export async function failIfNothingCrawled(tx: SqlClient, crawlId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE crawls c SET status = 'failed', stop_reason = 'error', updated_at = now(),
      error = 'The start page could not be crawled (' || COALESCE(s.error_code, 'INTERNAL') || '): '
        || COALESCE(s.error, 'no page could be fetched')
    FROM (
      SELECT error_code, error FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid ORDER BY depth, created_at LIMIT 1
    ) s
    WHERE c.id = ${crawlId}::uuid AND c.status = 'done' AND c.completed = 0`;
}
