/**
 * A tracked recrawl that trusts the sitemap's lastmod (`trustSitemapLastmod`): while its start page
 * finishes, the sitemap seeds the account's history vouches for are completed in bulk — their
 * history rows read a chunk at a time, each vouched page stored, billed and its kept links added
 * (finishPage) — with no job, host slot, request or conversion of their own. Through a job each,
 * such a page cost its bookkeeping several times over (the job's queue round trips, the guarded
 * start, the visibility and history reads, a window claim), which made a recrawl of a mostly
 * unchanged site barely cheaper than a first crawl. Seeds left (a lastmod after the copy, no usable
 * copy, a pass cut short) wait for their jobs like any page, where the crawl-page processor applies
 * the same rule to each (sitemapVouchesFor).
 *
 * The start page holds the crawl's queue window alone until it has finished, so no job of the
 * crawl runs beside the pass; completion is guarded and billing keyed per page, so a page finished
 * twice (a redelivered start page) is stored and billed once.
 */
import type { CrawlPageTask } from '@wcs/db';
import type { ChangeTrackingRequest } from '@wcs/scraper';
import type { CrawlContext } from './crawl-contexts';
import type { CrawlPageDeps, CrawlPageSettings } from './crawl-page.deps';
import { historyCopiesFor, sitemapVouchesFor, skippedDocument } from './history-revalidation';
import { finishPage } from './page-finish';

/** Seeds read (and their history rows) per round trip. */
const CHUNK = 500;
/** Pages finished at once: their completions queue on the crawl's row lock, their JavaScript does not. */
const IN_FLIGHT = 4;

/**
 * Complete the crawl's vouched sitemap seeds (see above); returns how many were completed. Never
 * throws: it stops early, leaving the rest to their jobs, when `signal` aborts, the crawl stops
 * taking pages (out of credits, cancelled) or a read or a page's write fails.
 */
export async function completeVouchedSeeds(
  deps: CrawlPageDeps,
  start: CrawlPageTask,
  context: CrawlContext,
  tracking: ChangeTrackingRequest,
  s: CrawlPageSettings,
  signal?: AbortSignal,
): Promise<number> {
  const changes = deps.changes;
  if (start.options.trustSitemapLastmod !== true || !changes) return 0;
  let after: string | null = null;
  let completed = 0;
  let stopped = false;
  while (!stopped && !signal?.aborted) {
    let rows: Awaited<ReturnType<typeof changes.vouchableSeeds>>;
    let copies: Awaited<ReturnType<typeof historyCopiesFor>>;
    try {
      rows = await changes.vouchableSeeds(start.crawlId, after, CHUNK);
    } catch (err) {
      deps.logger.warn({ err, crawlId: start.crawlId }, 'lastmod pass stopped');
      break;
    }
    const last = rows.at(-1);
    if (!last) break;
    after = last.pageId;
    const tasks: CrawlPageTask[] = rows.map((r) => ({
      ...start,
      ...r,
      attempts: 0,
      pageStatus: 'queued',
      duplicateOf: null,
    }));
    try {
      copies = await historyCopiesFor(tracking, tasks, context.request.page, context.request.secrets);
    } catch (err) {
      deps.logger.warn({ err, crawlId: start.crawlId }, 'lastmod pass stopped');
      break;
    }
    const vouched = tasks.filter((t) => {
      const copy = copies.get(t.pageId);
      return copy !== undefined && sitemapVouchesFor(t, copy);
    });
    let next = 0;
    const runner = async () => {
      while (!stopped && !signal?.aborted && next < vouched.length) {
        const task = vouched[next++] as CrawlPageTask;
        const copy = copies.get(task.pageId);
        if (!copy) continue;
        try {
          // A sitemap seed is `hidden` (crawl-changes.repository.ts, seededFromSitemap).
          const page = { ...tracking, url: task.url, visibility: 'hidden' as const };
          const { data, links } = await skippedDocument(page, copy, task);
          const r = await finishPage(deps, task, context, s, {
            data,
            found: links,
            statusCode: copy.statusCode,
            finalKey: task.urlKey,
            reused: true,
            refill: false,
          });
          if (r.status === 'done') completed++;
          else stopped = true; // the crawl stopped taking pages (out of credits, cancelled, done)
        } catch (err) {
          // This page and the rest keep their rows and are crawled by their jobs.
          deps.logger.warn({ err, crawlId: task.crawlId, url: task.url }, 'lastmod pass stopped');
          stopped = true;
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, runner));
  }
  if (completed > 0)
    deps.logger.info({ crawlId: start.crawlId, completed }, 'sitemap lastmod vouched for unchanged pages');
  return completed;
}
