import type { Db } from './db';
import { isUuid } from './ids';

/** A batch as its account's job list shows it. */
export interface BatchSummary {
  id: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A crawl as its account's job list shows it. */
export interface CrawlSummary {
  id: string;
  url: string;
  status: string;
  stopReason: string | null;
  discovered: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** One result row of a job, without its document (the title comes out of the stored JSON in SQL). */
export interface JobResultRow {
  id: string;
  url: string;
  status: string;
  title: string | null;
  error: string | null;
  code: string | null;
  /** batch: the item's position; crawl: the page's depth */
  position: number;
  statusCode: number | null;
}

export interface JobResultDetail extends Omit<JobResultRow, 'title'> {
  document: unknown | null;
}

type ResultSqlRow = {
  id: string;
  url: string;
  status: string;
  title: string | null;
  error: string | null;
  code: string | null;
  position: number;
  status_code: number | null;
};

function resultRow(r: ResultSqlRow): JobResultRow {
  return {
    id: r.id,
    url: r.url,
    status: r.status,
    title: r.title,
    error: r.error,
    code: r.code,
    position: r.position,
    statusCode: r.status_code,
  };
}

/**
 * The account's batches and crawls, and their results one row at a time, for the dashboard's job
 * pages and the listing endpoints. Every read is scoped by account: an id of another
 * account reads as unknown.
 */
export class JobListingsRepository {
  constructor(private readonly db: Db) {}

  async listBatches(
    accountId: string,
    skip: number,
    limit: number,
  ): Promise<{ total: number; rows: BatchSummary[] }> {
    if (!isUuid(accountId)) return { total: 0, rows: [] };
    const [total, rows] = await Promise.all([
      this.db.prisma.batch.count({ where: { accountId } }),
      this.db.prisma.batch.findMany({
        where: { accountId },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        skip,
        take: limit,
      }),
    ]);
    return {
      total,
      rows: rows.map((b) => ({
        id: b.id,
        status: b.status,
        total: b.total,
        completed: b.completed,
        failed: b.failed,
        creditsUsed: b.creditsCharged - b.creditsRefunded,
        createdAt: b.createdAt,
        finishedAt: b.finishedAt,
      })),
    };
  }

  async listCrawls(
    accountId: string,
    skip: number,
    limit: number,
  ): Promise<{ total: number; rows: CrawlSummary[] }> {
    if (!isUuid(accountId)) return { total: 0, rows: [] };
    const [total, rows] = await Promise.all([
      this.db.prisma.crawl.count({ where: { accountId } }),
      this.db.prisma.crawl.findMany({
        where: { accountId },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        skip,
        take: limit,
        select: {
          id: true,
          url: true,
          status: true,
          stopReason: true,
          discovered: true,
          completed: true,
          failed: true,
          creditsUsed: true,
          createdAt: true,
          finishedAt: true,
        },
      }),
    ]);
    return { total, rows };
  }

  /** The batch's items by position; null when the batch is unknown or another account's. */
  async batchResults(
    accountId: string,
    batchId: string,
    skip: number,
    limit: number,
  ): Promise<{ total: number; rows: JobResultRow[] } | null> {
    if (!isUuid(accountId) || !isUuid(batchId)) return null;
    const batch = await this.db.prisma.batch.findFirst({
      where: { id: batchId, accountId },
      select: { total: true },
    });
    if (!batch) return null;
    const rows = await this.db.prisma.$queryRaw<ResultSqlRow[]>`
      SELECT id::text AS id, url, status, result->'metadata'->>'title' AS title, error,
             error_code AS code, position, (result->'metadata'->>'statusCode')::int AS status_code
      FROM batch_items WHERE batch_id = ${batchId}::uuid
      ORDER BY position OFFSET ${skip} LIMIT ${limit}`;
    return { total: batch.total, rows: rows.map(resultRow) };
  }

  async batchResult(accountId: string, batchId: string, itemId: string): Promise<JobResultDetail | null> {
    if (!isUuid(accountId) || !isUuid(batchId) || !isUuid(itemId)) return null;
    const it = await this.db.prisma.batchItem.findFirst({
      where: { id: itemId, batchId, batch: { accountId } },
    });
    if (!it) return null;
    const statusCode = (it.result as { metadata?: { statusCode?: unknown } } | null)?.metadata?.statusCode;
    return {
      id: it.id,
      url: it.url,
      status: it.status,
      error: it.error,
      code: it.errorCode,
      position: it.position,
      statusCode: typeof statusCode === 'number' ? statusCode : null,
      document: it.result ?? null,
    };
  }

  /** Every frontier row of the crawl in discovery order; null when unknown or another account's. */
  async crawlResults(
    accountId: string,
    crawlId: string,
    skip: number,
    limit: number,
  ): Promise<{ total: number; rows: JobResultRow[] } | null> {
    if (!isUuid(accountId) || !isUuid(crawlId)) return null;
    const crawl = await this.db.prisma.crawl.findFirst({
      where: { id: crawlId, accountId },
      select: { id: true },
    });
    if (!crawl) return null;
    const [total, rows] = await Promise.all([
      // Spare rows (links past maxPages kept for failed pages' places) are not pages of the crawl.
      this.db.prisma.crawlPage.count({ where: { crawlId, status: { not: 'spare' } } }),
      this.db.prisma.$queryRaw<ResultSqlRow[]>`
        SELECT id::text AS id, url, status, result->'metadata'->>'title' AS title, error,
               error_code AS code, depth AS position, status_code
        FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND status <> 'spare'
        ORDER BY created_at, url, id OFFSET ${skip} LIMIT ${limit}`,
    ]);
    return { total, rows: rows.map(resultRow) };
  }

  async crawlResult(accountId: string, crawlId: string, pageId: string): Promise<JobResultDetail | null> {
    if (!isUuid(accountId) || !isUuid(crawlId) || !isUuid(pageId)) return null;
    const p = await this.db.prisma.crawlPage.findFirst({
      where: { id: pageId, crawlId, crawl: { accountId } },
    });
    if (!p) return null;
    return {
      id: p.id,
      url: p.url,
      status: p.status,
      error: p.error,
      code: p.errorCode,
      position: p.depth,
      statusCode: p.statusCode,
      document: p.result ?? null,
    };
  }
}
