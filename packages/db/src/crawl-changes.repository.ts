import type { CrawlView } from './crawl.types';
import type { Db } from './db';
import { isUuid } from './ids';
import { sqlClient } from './sql-client';

/** At most this many `removed` URLs are listed (a previous crawl holds at most its maxPages). */
export const MAX_REMOVED_PAGES = 10_000;

/**
 * What changed between recrawls of a site (the `changeTracking` format on a crawl): the pages the
 * same account's previous crawl of the same start URL (and change-tracking tag) returned that this
 * crawl did not.
 */
export class CrawlChangesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Sitemap seeds of a crawl that still wait for a job and carry the sitemap's lastmod (what a
   * crawl that trusts lastmod may complete without asking the site), in id order after `afterId`,
   * at most `limit`. Read through the waiting rows' index (`crawl_pages_waiting_idx`).
   */
  async vouchableSeeds(
    crawlId: string,
    afterId: string | null,
    limit: number,
  ): Promise<Array<{ pageId: string; url: string; urlKey: string; depth: number; sitemapLastmod: Date }>> {
    if (!isUuid(crawlId) || (afterId !== null && !isUuid(afterId))) return [];
    return sqlClient(this.db).$queryRaw`
      SELECT id AS "pageId", url, url_key AS "urlKey", depth, sitemap_lastmod AS "sitemapLastmod"
      FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid AND status = 'queued' AND NOT enqueued AND depth > 0
        AND sitemap_lastmod IS NOT NULL AND (${afterId}::uuid IS NULL OR id > ${afterId}::uuid)
      ORDER BY id
      LIMIT ${limit}::int`;
  }

  /**
   * When the crawl's frontier was seeded: its start page's `created_at`, or null before that. A
   * crawl page is `hidden` (Firecrawl's visibility) when only the sitemap led to it: the seeding
   * transaction writes the start page and the sitemap seeds with one `created_at` (its `now()`),
   * before any page's links are read, so a row deeper than the start page with this `created_at`
   * came from the sitemap (`isSitemapSeed`). A link to it found later does not change that (the
   * frontier keeps one row per URL): such a page reads `hidden` too. Read once per crawl by a
   * worker; the page's own `created_at` comes with its task.
   */
  async seededAt(crawlId: string): Promise<Date | null> {
    if (!isUuid(crawlId)) return null;
    const rows = await sqlClient(this.db).$queryRaw<Array<{ at: Date }>>`
      SELECT created_at AS at FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid AND depth = 0 ORDER BY created_at LIMIT 1`;
    return rows[0]?.at ?? null;
  }

  /**
   * URLs the previous `done` crawl (same account, start URL and tag, created before this one)
   * returned and this crawl did not reach: neither its URL nor where its redirect ended is a done
   * page of this crawl (a page that answers 404 now failed, so it is listed). Sorted; empty when
   * there was no previous crawl.
   */
  async removedPages(
    crawl: Pick<CrawlView, 'crawlId' | 'accountId' | 'url' | 'createdAt'>,
    tag: string | null,
  ) {
    const rows = await this.db.prisma.$queryRaw<Array<{ url: string }>>`
      WITH prev AS (
        SELECT id FROM crawls
        WHERE account_id = ${crawl.accountId}::uuid AND url = ${crawl.url} AND id <> ${crawl.crawlId}::uuid
          AND status = 'done' AND created_at < ${crawl.createdAt}
          AND (options #>> '{page,changeTrackingOptions,tag}') IS NOT DISTINCT FROM ${tag}
        ORDER BY created_at DESC LIMIT 1
      ),
      reached AS (
        SELECT url_key AS k FROM crawl_pages WHERE crawl_id = ${crawl.crawlId}::uuid AND status = 'done'
        UNION
        SELECT final_key FROM crawl_pages
        WHERE crawl_id = ${crawl.crawlId}::uuid AND status = 'done' AND final_key IS NOT NULL
      )
      SELECT p.url FROM crawl_pages p JOIN prev ON p.crawl_id = prev.id
      WHERE p.status = 'done'
        AND p.url_key NOT IN (SELECT k FROM reached)
        AND (p.final_key IS NULL OR p.final_key NOT IN (SELECT k FROM reached))
      ORDER BY p.url
      LIMIT ${MAX_REMOVED_PAGES}::int`;
    return rows.map((r) => r.url);
  }
}
