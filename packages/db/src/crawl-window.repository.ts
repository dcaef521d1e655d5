import type { FrontierPage } from './crawl.types';
import type { Db } from './db';
import { isUuid } from './ids';
import { sqlClient } from './sql-client';

/**
 * The crawl's queue window: at most `size` of its frontier rows have a crawl-page job in Redis at
 * once (`enqueued`); the others wait in PostgreSQL, where a row costs what it costs anyway. Every
 * finished page claims the next rows, shallowest first (the crawl stays breadth first), so Redis
 * memory is bounded per crawl instead of growing with the frontier.
 *
 * The count and the claim are one statement; two workers claiming at once may overshoot the
 * window by what each saw free, which is bounded by the worker count. A claimed row whose job
 * never got added (the enqueue failed after the commit) is found by the reconciler's stranded-page
 * pass like any other, and a crawl left with waiting rows but no claimed ones is fed again by it.
 */
export class CrawlWindowRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claim rows up to `size` claimed-and-unfinished rows for the crawl; returns those claimed now.
   * The picked ids are matched as an array: the planner cannot know how many the LIMIT leaves, and
   * joined as a table it guessed a tenth of the crawl and hashed all of crawl_pages for each claim —
   * a sequential scan per finished page, 1–2 s each at 800,000 rows (`pnpm bench:scale-crawl`).
   */
  async claim(crawlId: string, size: number): Promise<FrontierPage[]> {
    return (await this.topUp(crawlId, size)).claimed;
  }

  /**
   * `claim`, also saying how many rows the window had room for (`wanted`): fewer claimed than
   * wanted means the crawl had no more rows waiting. The window is counted only when a row waits:
   * the count reads a heap row per claimed row (~1 ms for a window of 1,000), and with nothing to
   * claim there is nothing to size, so `wanted` is then `size` (the caller sees the frontier short).
   */
  async topUp(crawlId: string, size: number): Promise<{ claimed: FrontierPage[]; wanted: number }> {
    if (!isUuid(crawlId) || size <= 0) return { claimed: [], wanted: 0 };
    // `room` is an initplan read under CASE: PostgreSQL runs the count only when the EXISTS holds.
    const rows = await sqlClient(this.db).$queryRaw<Array<{ wanted: number; claimed: FrontierPage[] }>>`
    WITH room AS (
      SELECT CASE WHEN EXISTS (
               SELECT 1 FROM crawl_pages
               WHERE crawl_id = ${crawlId}::uuid AND status = 'queued' AND NOT enqueued)
             THEN GREATEST(0, ${size}::int - (
               SELECT count(*)::int FROM (
                 SELECT 1 FROM crawl_pages
                 WHERE crawl_id = ${crawlId}::uuid AND enqueued AND status IN ('queued', 'running')
                 LIMIT ${size}::int) l))
             ELSE ${size}::int END AS n
    ), picked AS (
      SELECT id FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid AND status = 'queued' AND NOT enqueued
      ORDER BY depth, created_at
      LIMIT (SELECT n FROM room)
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE crawl_pages p SET enqueued = true, updated_at = now()
      WHERE p.id = ANY(ARRAY(SELECT id FROM picked))
      RETURNING p.id, p.url, p.depth, p.created_at
    )
    SELECT (SELECT n FROM room)::int AS wanted,
           COALESCE((SELECT json_agg(json_build_object('pageId', id, 'url', url, 'depth', depth)
                                     ORDER BY depth, created_at) FROM claimed), '[]'::json) AS claimed`;
    const row = rows[0];
    return { claimed: row?.claimed ?? [], wanted: row?.wanted ?? 0 };
  }

  /** Mark rows as having their job (the start page, enqueued on its own before the window opens). */
  async markEnqueued(pageIds: string[]): Promise<void> {
    const ids = pageIds.filter(isUuid);
    if (ids.length === 0) return;
    await sqlClient(this.db).$executeRaw`
    UPDATE crawl_pages SET enqueued = true WHERE id = ANY(${ids}::text[]::uuid[]) AND NOT enqueued`;
  }
}
