/**
 * How a crawl page ends once its document is made (fetched and converted, or taken from the
 * account's history): stored, billed and its links added in one call, then the queue window
 * refilled. Shared by the crawl-page processor and the lastmod pass (lastmod-pass.ts).
 */
import type { CrawlOptions, CrawlPageTask, FrontierCandidate, PageHistoryTouch } from '@wcs/db';
import { type DocumentData, pageCredits } from '@wcs/queues';
import type { StoredLink } from '@wcs/scraper';
import type { AnnouncedPage, ReservedAnnouncement } from '@wcs/search';
import type { CrawlContext } from './crawl-contexts';
import type { CrawlPageDeps, CrawlPageSettings, PageResult } from './crawl-page.deps';
import type { DeferredPageCache } from './deferred-page-cache';
import type { LinkFilter } from './link-filter';
import { feedWindow, removePageJobs } from './page-jobs';

/** A done page's stored result: markdown and metadata always, html/text/json only when asked, the cut warning. */
type StoredPage = Partial<DocumentData> & Pick<DocumentData, 'metadata'>;

/** Without `formats`: markdown plus the one format asked for. With them: exactly what they name. */
function storedResult(data: DocumentData, format: CrawlOptions['format'], formats: boolean): StoredPage {
  if (formats) return data;
  return {
    markdown: data.markdown,
    metadata: data.metadata,
    ...(data.warning ? { warning: data.warning } : {}),
    ...(format === 'html' ? { html: data.html } : {}),
    ...(format === 'text' ? { text: data.text } : {}),
    ...(format === 'json' ? { json: data.json } : {}),
  };
}

/** A page's document, made by a visit or taken from the account's history. */
export interface PageDocument {
  data: DocumentData;
  found: ReadonlyArray<StoredLink>;
  statusCode: number;
  finalKey: string;
  /** The history's copy is the page (a 304, a trusted lastmod): its search document stands. */
  reused: boolean;
  /** The page cache's write of a fetched page (never rejects). */
  stored?: Promise<void> | undefined;
  /** Where that write kept the page's copy for the completion to write (deferred-page-cache.ts). */
  cache?: DeferredPageCache | undefined;
  /** A 304's move of the history row, written with the completion. */
  historyTouch?: PageHistoryTouch | undefined;
  /** The page's search announcement, reserved beside its conversion (else it is made here). */
  announcement?: ReservedAnnouncement | undefined;
}

/**
 * Store the page, charge its credit and grow the frontier with its links (one call), announce it
 * to search first unless reused; then refill the queue window. Throws what the caller's error
 * handling records (an announced search document is dropped first).
 */
export async function finishPage(
  deps: CrawlPageDeps,
  task: CrawlPageTask,
  context: CrawlContext,
  s: CrawlPageSettings,
  doc: PageDocument,
): Promise<PageResult> {
  const { crawlId, pageId } = task;
  const { request } = context;
  let indexed: AnnouncedPage | undefined;
  try {
    const links = await nextLinks(deps, task, context.filter, doc.found, s.maxLinksPerPage);
    // The page cache's copy is written before the page is listed (never rejects): on its own, or
    // kept for the completion's statement (then committed with it).
    await doc.stored;
    const cacheRow = await doc.cache?.takeRow();
    // Announced to search before the page is listed (a search started after finds it); written
    // behind it, and only when the page is done (billed and listed). A page answered from the
    // history is not written again: its document is the one its stored copy was indexed as.
    if (doc.reused) void doc.announcement?.drop();
    else
      indexed = doc.announcement
        ? await doc.announcement.fill(task.url, doc.data)
        : await deps.indexer?.announce(task.accountId, task.url, doc.data);
    const completion = {
      result: storedResult(doc.data, task.options.format, request.page?.formats !== undefined),
      statusCode: doc.statusCode,
      finalKey: doc.finalKey,
      links,
      credits: pageCredits(request.page),
      ...(doc.historyTouch ? { historyTouch: doc.historyTouch } : {}),
      ...(cacheRow ? { cacheRow } : {}),
    };
    const outcome = deps.completions
      ? await deps.completions.complete(crawlId, pageId, completion)
      : await deps.crawls.completePage(crawlId, pageId, completion);
    if (outcome.outcome === 'done') await indexed?.write();
    else await indexed?.drop();
    if (outcome.outcome === 'out_of_credits') {
      deps.logger.info({ crawlId, reason: outcome.reason }, 'crawl stopped: out of credits');
      await removePageJobs(deps.producer, outcome.skippedPageIds);
      return { pageId, status: 'out_of_credits' };
    }
    if (outcome.outcome === 'skipped') return { pageId, status: 'skipped' };
    if (outcome.outcome === 'done') rememberFrontier(deps, crawlId, links, outcome);
    if (outcome.outcome === 'duplicate') {
      if (outcome.crawlFinished) deps.logger.info({ crawlId }, 'crawl done');
      await refill(deps, task.crawlId);
      return { pageId, status: 'skipped' };
    }
    // After the commit: this page left the window and may have found pages; a failed claim or
    // enqueue leaves rows that the reconciler picks up.
    if (!outcome.crawlFinished) await refill(deps, crawlId, outcome.newPages.length === 0);
    if (outcome.crawlFinished) {
      deps.queueWindow.pacer?.forget(crawlId);
      deps.frontier?.forget(crawlId);
      deps.contexts.forget(crawlId);
      deps.logger.info({ crawlId }, 'crawl done');
    }
    return { pageId, status: 'done' };
  } catch (err) {
    // Taken back unless written (a no-op then).
    await indexed?.drop();
    throw err;
  }
}

/**
 * `finishPage` of many pages of one crawl taken from the account's history (the lastmod pass):
 * their links filtered as each one's would be, then completed in one transaction
 * (`completePages`: one commit for all); no search document (a reused page's stands) and no
 * refill (the start page, finishing after them, claims for all). Returns the ids of the pages
 * done, and whether the crawl stopped taking pages (out of credits, cancelled).
 */
export async function finishReusedPages(
  deps: CrawlPageDeps,
  context: CrawlContext,
  s: CrawlPageSettings,
  pages: Array<{ task: CrawlPageTask; doc: PageDocument }>,
): Promise<{ done: string[]; stopped: boolean }> {
  const first = pages[0];
  if (!first) return { done: [], stopped: false };
  const { crawlId } = first.task;
  const { request } = context;
  const items: Array<Parameters<CrawlPageDeps['crawls']['completePages']>[1][number]> = [];
  for (const { task, doc } of pages) {
    items.push({
      pageId: task.pageId,
      result: storedResult(doc.data, task.options.format, request.page?.formats !== undefined),
      statusCode: doc.statusCode,
      finalKey: doc.finalKey,
      links: await nextLinks(deps, task, context.filter, doc.found, s.maxLinksPerPage),
      credits: pageCredits(request.page),
    });
  }
  const outcomes = await deps.crawls.completePages(crawlId, items);
  const done: string[] = [];
  let stopped = outcomes.length < items.length;
  outcomes.forEach((outcome, i) => {
    const item = items[i];
    if (!item) return;
    if (outcome.outcome === 'done') {
      done.push(item.pageId);
      rememberFrontier(deps, crawlId, item.links, outcome);
    } else if (outcome.outcome !== 'duplicate') stopped = true;
  });
  const last = outcomes.at(-1);
  if (last?.outcome === 'out_of_credits') {
    deps.logger.info({ crawlId, reason: last.reason }, 'crawl stopped: out of credits');
    await removePageJobs(deps.producer, last.skippedPageIds);
  }
  return { done, stopped };
}

/**
 * A page that finished, however it ended, left the crawl's queue window: claim the next rows
 * (feedWindow). The start page (depth 0) held the window for itself, so once it has finished the
 * sitemap seeds and its own links get their jobs. A failure is left to the reconciler.
 */
export async function refill(deps: CrawlPageDeps, crawlId: string, quiet = false): Promise<void> {
  // While the frontier outruns the window, or after a page that added no rows, not after every
  // page (refill-pacer.ts).
  if (deps.queueWindow.pacer && !deps.queueWindow.pacer.due(crawlId, quiet)) return;
  try {
    await feedWindow(deps.queueWindow, crawlId);
  } catch (err) {
    deps.logger.warn({ err, crawlId }, 'claim of queued pages failed; left to the reconciler');
  }
}

/** The page's links (from the content pool) one level deeper, filtered for the frontier. */
async function nextLinks(
  deps: CrawlPageDeps,
  task: CrawlPageTask,
  filter: LinkFilter,
  pageLinks: ReadonlyArray<StoredLink>,
  maxLinks: number,
): Promise<FrontierCandidate[]> {
  const depth = task.depth + 1;
  // `sitemap: "only"`: the sitemap's URLs are the crawl; links are not followed.
  if (depth > task.options.maxDepth || pageLinks.length === 0 || task.options.sitemap === 'only') return [];
  // rel=nofollow links are not followed (the site asked); they still appear in the page's markdown.
  const found = pageLinks.filter((l) => !l.nofollow);
  const accepted = await filter.accept(found, maxLinks, deps.frontier?.known(task.crawlId));
  return accepted.map((l) => ({ url: l.url, key: l.key, depth }));
}

/**
 * After a completion: uncapped, every link sent is in the frontier now; capped, only the pages it
 * inserted are known to be (the others may join once there is room again).
 */
function rememberFrontier(
  deps: CrawlPageDeps,
  crawlId: string,
  sent: FrontierCandidate[],
  done: { newPages: Array<{ url: string }>; capped: boolean },
): void {
  if (!deps.frontier || sent.length === 0) return;
  const inserted = new Set(done.newPages.map((p) => p.url));
  const known = done.capped ? sent.filter((l) => inserted.has(l.url)) : sent;
  deps.frontier.remember(
    crawlId,
    known.map((l) => l.key),
  );
}
