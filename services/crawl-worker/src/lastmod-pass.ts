/**
 * A tracked recrawl that trusts the sitemap's lastmod (`trustSitemapLastmod`): while its start page
 * finishes, the sitemap seeds the account's history vouches for are completed in bulk — a chunk
 * at a time: the seeds and their history rows read, the vouched pages stored, billed and their kept
 * links added in one transaction (finishReusedPages), their copies' times moved in one statement —
 * with no job, host slot, request or conversion of their own. Through a job each, such a page
 * cost its bookkeeping several times over (the job's queue round trips, the guarded start, the
 * visibility and history reads, a window claim, a commit of its own), which kept a recrawl of a
 * mostly unchanged site at about twice a first crawl's speed. Seeds left (a lastmod after the copy, no usable
 * copy, a pass cut short) wait for their jobs like any page, where the crawl-page processor applies
 * the same rule to each (sitemapVouchesFor).
 *
 * The start page holds the crawl's queue window alone until it has finished, so no job of the
 * crawl runs beside the pass; completion is guarded and billing keyed per page, so a page finished
 * twice (a redelivered start page) is stored and billed once.
 */
import type { CrawlPageTask } from '@wcs/db';
import { urlKey } from '@wcs/discovery';
import type { ChangeHistoryStore, ChangeRecord, ChangeTrackingRequest, HistoryTouch } from '@wcs/scraper';
import type { CrawlContext } from './crawl-contexts';
import type { CrawlPageDeps, CrawlPageSettings } from './crawl-page.deps';
import { historyCopiesFor, sitemapVouchesFor, skippedDocument } from './history-revalidation';
import { finishReusedPages, type PageDocument } from './page-finish';

/**
 * Seeds per chunk: read (with their history rows) in one round trip each, completed in one
 * transaction, which holds the crawl's row lock while it runs (nothing else of the crawl runs now).
 */
const CHUNK = 200;

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
    // Each copy's time moves on (reuseOnSitemapLastmod) in one statement for the chunk, once its
    // pages are done: the history given to the documents only collects those touches.
    const touches = new Map<string, HistoryTouch>();
    const history: ChangeHistoryStore = {
      get: (...a) => tracking.history.get(...a),
      getMany: (...a) => tracking.history.getMany(...a),
      put: (...a) => tracking.history.put(...a),
      touch: async (...a) => {
        touches.set(a[0].urlKey, a);
      },
      touchMany: (a) => tracking.history.touchMany(a),
    };
    try {
      const pages: Array<{ task: CrawlPageTask; doc: PageDocument }> = [];
      for (const task of vouched) {
        const copy = copies.get(task.pageId) as ChangeRecord;
        // A sitemap seed is `hidden` (crawl-contexts.ts, isSitemapSeed).
        const page = { ...tracking, history, url: task.url, visibility: 'hidden' as const };
        const { data, links } = await skippedDocument(page, copy, task);
        pages.push({
          task,
          doc: { data, found: links, statusCode: copy.statusCode, finalKey: task.urlKey, reused: true },
        });
      }
      const r = await finishReusedPages(deps, context, s, pages);
      completed += r.done.length;
      stopped = r.stopped;
      const done = new Set(r.done);
      const moved = pages
        .filter((p) => done.has(p.task.pageId))
        .map((p) => touches.get(urlKey(p.task.url) ?? p.task.url))
        .filter((t): t is HistoryTouch => t !== undefined);
      await tracking.history.touchMany(moved);
    } catch (err) {
      // These pages and the rest keep their rows and are crawled by their jobs.
      deps.logger.warn({ err, crawlId: start.crawlId }, 'lastmod pass stopped');
      stopped = true;
    }
  }
  if (completed > 0)
    deps.logger.info({ crawlId: start.crawlId, completed }, 'sitemap lastmod vouched for unchanged pages');
  return completed;
}
