import type { CrawlPageTask, PageHistoryTouch } from '@wcs/db';
import { urlKey } from '@wcs/discovery';
import { type ServiceError, toServiceError } from '@wcs/errors';
import { HTML_TYPES } from '@wcs/net';
import {
  DelayedError,
  type DocumentData,
  isJobLockLost,
  type Job,
  type JobContext,
  type PayloadOf,
  remainingMs,
  retryOrRecord,
} from '@wcs/queues';
import type { RenderResult } from '@wcs/renderer';
import {
  type ChangeRecord,
  type ChangeTrackingRequest,
  changeTrackingOf,
  documentFromPage,
  type FetchedPage,
  fetchPage,
  type StoredLink,
  storedLinks,
  trackChanges,
} from '@wcs/scraper';
import type { ReservedAnnouncement } from '@wcs/search';
import { type CrawlContext, isSitemapSeed, withCrawl } from './crawl-contexts';
import type { CrawlPageDeps, CrawlPageSettings, PageResult } from './crawl-page.deps';
import { DeferredPageCache } from './deferred-page-cache';
import {
  answeredNotModified,
  historyCopyFor,
  historyOfStart,
  reusedDocument,
  sitemapVouchesFor,
  skippedDocument,
  validatorsOfCopy,
} from './history-revalidation';
import { completeVouchedSeeds } from './lastmod-pass';
import { finishPage, type PageDocument, refill } from './page-finish';

export type { CrawlPageDeps, CrawlPageSettings } from './crawl-page.deps';

/**
 * `crawl-page` jobs. Order of work: the guarded queued→running transition (a finished page or
 * crawl does no work twice), the politeness slot (without holding a worker slot: the job goes back
 * to the delayed set, and the start is undone), the fetch (only it holds the host slot),
 * conversion and link extraction, then one call that stores the page, charges its credit and
 * grows the frontier.
 */
export function crawlPageProcessor(deps: CrawlPageDeps, s: CrawlPageSettings) {
  return async (payload: PayloadOf<'crawl-page'>, job: Job, ctx: JobContext): Promise<PageResult> => {
    const { pageId, crawlId } = payload;
    // The guarded start comes first and names the URL and the crawl's delay; only the fetch
    // holds the host slot, so the slot is not held across this round trip. The crawl's own columns
    // are read with its first page in this process only; a tracked crawl's later pages read their
    // history row in the same statement.
    const known = deps.contexts.get(crawlId);
    const historyOf = known && historyOfStart(known);
    let readAtStart: { history: ChangeRecord | null } | undefined;
    const task = known
      ? await (historyOf
          ? deps.crawls.startPageWithHistory(crawlId, pageId, historyOf).then((p) => {
              if (!p) return null;
              const { history, ...start } = p;
              readAtStart = { history };
              return start;
            })
          : deps.crawls.startPageOf(crawlId, pageId)
        ).then((p) => p && withCrawl(p, known))
      : await deps.crawls.startPage(pageId);
    if (!task) {
      // A redelivery (its worker died) of a finished page: the worker may have died between the
      // page's commit and the claim of the pages it found, which then wait without a job.
      if (job.stalledCounter > 0) await refill(deps, crawlId);
      return { pageId, status: 'skipped' };
    }
    let context: CrawlContext;
    try {
      context = known ?? deps.contexts.fromTask(task);
    } catch (err) {
      // Options or secrets that do not parse: the page fails like any other error of ours.
      return await handleError(deps, task, job, ctx, toServiceError(err));
    }
    if (task.duplicateOf) {
      // A done page's redirect already ended here: the page is crawled, not fetched twice.
      const d = await deps.crawls.markDuplicate(crawlId, pageId);
      if (d.crawlFinished) deps.logger.info({ crawlId }, 'crawl done');
      await refill(deps, task.crawlId);
      return { pageId, status: 'skipped' };
    }
    if (task.attempts > s.maxStarts) {
      await fail(deps, task, `Gave up after ${task.attempts - 1} interrupted attempts`, 'INTERNAL', null);
      await refill(deps, task.crawlId);
      return { pageId, status: 'failed' };
    }
    const { request } = context;
    // A tracked page is asked conditionally: on the account's history when its row can stand for
    // the page (history-revalidation.ts: a 304 is then the row — nothing converted), else, without
    // maxAge, on the page cache's copy (any age: its ETag / Last-Modified), whose 304 is converted
    // from that copy, links included; the change status still compares with the history. The row
    // is read before the host slot is taken (the slot is held only for the fetch).
    // Whether the page came from the sitemap only (its `visibility`) is asked beside the history
    // read, and awaited once the page is fetched (a failure then fails the page as before).
    let tracking: ChangeTrackingRequest | undefined;
    let copy: ChangeRecord | undefined;
    let hidden: Promise<boolean> = Promise.resolve(false);
    try {
      tracking = changeTrackingOf({
        ...request,
        url: task.url,
        onlyMainContent: task.options.onlyMainContent,
        accountId: task.accountId,
        ...(deps.model ? { model: deps.model } : {}),
      });
      // Only a sitemap seed can be hidden: never the start page, nor any page of a crawl that skips
      // the sitemap (no query then).
      if (tracking && deps.changes && task.depth > 0 && task.options.sitemap !== 'skip') {
        const { changes } = deps;
        hidden = isSitemapSeed(context, task, (id) => changes.seededAt(id));
        hidden.catch(() => undefined);
      }
      copy = await historyCopyFor(tracking, task, request.page, request.secrets, readAtStart);
    } catch (err) {
      return await handleError(deps, task, job, ctx, toServiceError(err));
    }
    // The start page of a crawl that trusts the sitemap's lastmod finishes after the sitemap seeds
    // the history vouches for (lastmod-pass.ts): it still holds the queue window alone meanwhile.
    const finish = async (doc: PageDocument): Promise<PageResult> => {
      if (task.depth === 0 && tracking)
        await completeVouchedSeeds(deps, task, context, tracking, s, ctx.signal);
      return finishPage(deps, task, context, s, doc);
    };
    if (tracking && copy && sitemapVouchesFor(task, copy)) {
      // trustSitemapLastmod: the sitemap says the page has not changed since the copy was made, so
      // it is not asked at all (no host slot, no request); the copy stands as for a 304.
      try {
        const visibility = (await hidden) ? 'hidden' : 'visible';
        const { data, links } = await skippedDocument({ ...tracking, visibility }, copy, task);
        return await finish({
          data,
          found: links,
          statusCode: copy.statusCode,
          finalKey: task.urlKey,
          reused: true,
        });
      } catch (err) {
        return await handleError(deps, task, job, ctx, toServiceError(err));
      }
    }
    const host = new URL(task.url).host;
    const delayMs = Math.max(task.options.delayMs, task.crawlDelayMs ?? 0);
    const wait = await deps.slots.acquire({
      host,
      crawlId,
      pageId,
      delayMs,
      holdMs: s.pageTimeoutMs + 5_000,
    });
    if (wait > 0) {
      // Back to the delayed set without holding a worker slot; a wait is not an attempt.
      await deps.crawls.unstartPage(pageId);
      await job.moveToDelayed(Date.now() + wait, job.token);
      throw new DelayedError();
    }

    let page: FetchedPage;
    // The fetched page's cache copy is kept for the completion's statement to write.
    const deferred =
      request.cache && deps.pageCacheRows
        ? new DeferredPageCache(request.cache, deps.pageCacheRows)
        : undefined;
    const fetchRequest = copy
      ? { ...request, revalidate: validatorsOfCopy(copy) }
      : request.page && tracking && request.page.maxAge === undefined
        ? { ...request, page: { ...request.page, maxAge: 1 } }
        : request;
    try {
      await deps.slots.beforeRequest(crawlId, host, delayMs);
      // A worker cut off from Redis while it waited here may have lost the page to another.
      await ctx.confirmLock();
      // The job's signal: its attempts' shared budget (or a cancel) stops the fetch; an attempt
      // gets at most what is left of that budget (a deadline error is final: the page fails).
      // The fetch ladder (a wall: the browser, a Retry-After, the next proxy) keeps the host slot:
      // every step talks to this host, and a Retry-After is the host asking for no requests
      // meanwhile, which the slot gives it. It is bounded by the page's budget (< holdMs) and
      // keeps the crawl's gap between its own requests.
      page = await fetchPage(deps.renderer, {
        url: task.url,
        timeoutMs: Math.max(1, Math.min(s.pageTimeoutMs, remainingMs(ctx))),
        signal: ctx.signal,
        ...fetchRequest,
        ...(deferred ? { cache: deferred } : {}),
        beforeEscalation: () => deps.slots.beforeRequest(crawlId, host, delayMs),
      });
    } catch (err) {
      if (isJobLockLost(err)) throw err;
      // `return await`: the finally below awaits, and a rejected promise returned unawaited from
      // here would sit unhandled meanwhile — Node kills the process for that.
      return await handleError(deps, task, job, ctx, toServiceError(err));
    } finally {
      await deps.slots.release(host, pageId).catch(() => undefined);
    }

    let announcement: ReservedAnnouncement | undefined;
    try {
      let data: DocumentData;
      let found: ReadonlyArray<StoredLink>;
      let historyTouch: PageHistoryTouch | undefined;
      let statusCode = page.statusCode;
      const reused = tracking !== undefined && copy !== undefined && answeredNotModified(page);
      if (tracking && copy && reused) {
        // The history's copy is the page: nothing to convert, its links are the ones it kept.
        const visibility = (await hidden) ? 'hidden' : 'visible';
        ({
          data,
          links: found,
          historyTouch,
        } = await reusedDocument({ ...tracking, visibility }, copy, page, task));
        statusCode = copy.statusCode;
      } else {
        // The page's search announcement (a Redis round trip) is made beside its conversion
        // instead of before its completion. Not earlier: a search of the account waits for the
        // pages announced when it starts, and a fetch may take as long as the site likes.
        announcement = deps.indexer?.reserve(task.accountId);
        // Conversion and link extraction: one parse, in the content pool (off this event loop).
        const read = wantsLinks(task, page);
        const converted = await documentFromPage(
          page,
          {
            ...request,
            url: task.url,
            format: task.options.format,
            onlyMainContent: task.options.onlyMainContent,
            links: read,
            // Without `formats` a crawl keeps markdown and its one format (page-finish.ts): only
            // those are converted.
            onlyFormats: [...new Set(['markdown', task.options.format] as const)],
            accountId: task.accountId,
            ...(deps.model ? { model: deps.model } : {}),
          },
          deps.pool,
        );
        data = converted.data;
        found = converted.links ?? [];
        // Compared with the account's previous scrape of the page (a 404 fails the page as before;
        // the crawl's `removed` list names the pages the previous crawl had and this one lacks). The
        // links read are kept with the copy, for a recrawl answered 304.
        if (tracking) {
          const visibility = (await hidden) ? 'hidden' : 'visible';
          await trackChanges({ ...tracking, visibility }, data, page, {
            ...(copy ? { known: { previous: copy } } : {}),
            links: read ? storedLinks(found) : null,
          });
        }
      }
      return await finish({
        data,
        found,
        statusCode,
        // Where a redirect ended, so neither URL is fetched again.
        finalKey: urlKey(page.finalUrl) ?? task.urlKey,
        reused,
        stored: page.stored,
        ...(deferred ? { cache: deferred } : {}),
        historyTouch,
        announcement,
      });
    } catch (err) {
      // Taken back unless the completion filled it (a no-op then).
      void announcement?.drop();
      // No completion will write the fetched page's cache copy: written on its own.
      if (deferred) void (page.stored ?? Promise.resolve()).then(() => deferred.flush());
      return handleError(deps, task, job, ctx, toServiceError(err));
    }
  };
}

/**
 * An HTML page's links are wanted when one level deeper is still within maxDepth; a document
 * (PDF/DOCX bytes) has no HTML to read links from, so it ends its branch.
 */
function wantsLinks(task: CrawlPageTask, page: RenderResult): boolean {
  if (task.options.sitemap === 'only') return false;
  return task.depth + 1 <= task.options.maxDepth && !page.bytes && HTML_TYPES.has(page.contentType);
}

/**
 * Transient errors (network, timeouts, our own) are retried by the queue until the last attempt;
 * target errors (404, blocked, not HTML) fail the page at once. A failed page is never billed.
 */
async function handleError(
  deps: CrawlPageDeps,
  task: CrawlPageTask,
  job: Job,
  ctx: JobContext,
  err: ServiceError,
): Promise<PageResult> {
  // Once the budget is spent a retry cannot run: the failure must be recorded now, or the page
  // would stay `running` with its job failed in the queue (seen when the fetch's own timeout
  // fired a moment before the budget's).
  const se = retryOrRecord(err, job, ctx, (n) => `Crawl page gave up after ${n} attempt(s)`);
  if (se === 'retry') throw err;
  const statusCode = typeof se.details?.statusCode === 'number' ? se.details.statusCode : null;
  await fail(deps, task, se.message, se.code, statusCode);
  await refill(deps, task.crawlId);
  return { pageId: task.pageId, status: 'failed' };
}

async function fail(
  deps: CrawlPageDeps,
  task: CrawlPageTask,
  error: string,
  code: string,
  statusCode: number | null,
): Promise<void> {
  const r = await deps.crawls.failPage(task.crawlId, task.pageId, { error, code, statusCode });
  deps.logger.debug({ crawlId: task.crawlId, url: task.url, code }, 'crawl page failed');
  // A spare link may have taken the failed page's place (not counted against maxPages): it waits
  // in the frontier like any other row and is claimed by the caller's refill.
  if (r.crawlFinished) deps.logger.info({ crawlId: task.crawlId }, 'crawl done');
}
