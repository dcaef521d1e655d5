/**
 * A tracked crawl page revalidated against the account's change history (page_history): when the
 * history's row can stand for the page — the crawl asks only for markdown (and changeTracking), the
 * row has validators, and it kept the page's links whenever this page's links are wanted — the
 * page is asked with the row's ETag / Last-Modified. A 304 then is the page: the row's markdown,
 * metadata and links, `same`, with nothing downloaded, converted or written to the page cache.
 * Any other answer is a normal visit (converted, compared, stored with its links).
 * With `trustSitemapLastmod`, a sitemap page whose lastmod is not after that row's time is not
 * asked at all: the row is the page the same way (`sitemapVouchesFor`, `skippedDocument`).
 */
import type { CrawlOptions, CrawlPageTask, HistoryOfStart, PageHistoryTouch } from '@wcs/db';
import { urlKey } from '@wcs/discovery';
import type { DocumentData, PageOptions, PageSecrets } from '@wcs/queues';
import {
  type ChangeHistoryStore,
  type ChangeRecord,
  type ChangeTrackingRequest,
  type FetchedPage,
  historyTag,
  type PageValidators,
  reusableCopy,
  reuseOnNotModified,
  reuseOnSitemapLastmod,
  type StoredLink,
  usableCopy,
  validatorsOf,
  wantsChangeTracking,
} from '@wcs/scraper';
import type { CrawlContext } from './crawl-contexts';

/** The crawl asks for nothing the history's row lacks: markdown (and changeTracking), no actions. */
function onlyMarkdown(
  options: Pick<CrawlOptions, 'format'>,
  page: PageOptions | undefined,
  secrets?: PageSecrets,
): boolean {
  if (page?.maxAge !== undefined) return false; // an explicit maxAge: the page cache's rule stands
  if (secrets?.actions && secrets.actions.length > 0) return false;
  if (page?.formats) return page.formats.every((f) => f === 'markdown' || f === 'changeTracking');
  return options.format === 'markdown';
}

/**
 * Whose history row a page of this crawl is revalidated on, read beside the page's start
 * (`startPageWithHistory`): only for a crawl that tracks changes and whose pages a row can stand for.
 */
export function historyOfStart(context: CrawlContext): HistoryOfStart | undefined {
  const { request, crawl } = context;
  if (!request.history || !wantsChangeTracking(request.page)) return undefined;
  if (!onlyMarkdown(crawl.options, request.page, request.secrets)) return undefined;
  return { accountId: crawl.accountId, tag: historyTag({ options: request.page?.changeTrackingOptions }) };
}

/** The history's key of a page: the URL's own key, which the frontier's is unless query parameters were cut. */
function historyKeyOf(task: Pick<CrawlPageTask, 'url'>): string {
  return urlKey(task.url) ?? task.url;
}

/** This page's links are read (one level deeper is within maxDepth). */
export function linksWanted(task: CrawlPageTask): boolean {
  return task.depth + 1 <= task.options.maxDepth;
}

/**
 * The history's row a 304 may stand for, or undefined (the page is then asked as without it).
 * Only a row with validators and, when this page's links are wanted, the links a crawl read.
 */
export async function historyCopyFor(
  tracking: ChangeTrackingRequest | undefined,
  task: CrawlPageTask,
  page: PageOptions | undefined,
  secrets: PageSecrets | undefined,
  /** The row read with the page's start under its frontier key (`startPageWithHistory`). */
  readAtStart?: { history: ChangeRecord | null },
): Promise<ChangeRecord | undefined> {
  if (!tracking || !onlyMarkdown(task.options, page, secrets)) return undefined;
  const copy =
    readAtStart && historyKeyOf(task) === task.urlKey
      ? usableCopy(tracking, readAtStart.history ?? undefined)
      : await reusableCopy(tracking);
  if (!copy) return undefined;
  if (linksWanted(task) && !copy.links) return undefined;
  return copy;
}

/**
 * `historyCopyFor` of many pages of one crawl at once (one read of the history for all of them), by
 * page id; a page without a usable row is absent.
 */
export async function historyCopiesFor(
  tracking: ChangeTrackingRequest | undefined,
  tasks: CrawlPageTask[],
  page: PageOptions | undefined,
  secrets: PageSecrets | undefined,
): Promise<Map<string, ChangeRecord>> {
  const copies = new Map<string, ChangeRecord>();
  const first = tasks[0];
  if (!tracking || !first || !onlyMarkdown(first.options, page, secrets)) return copies;
  // The history is keyed by the URL's own key (change-tracking.ts), not the frontier's.
  const rows = await tracking.history.getMany(
    tracking.accountId,
    tasks.map(historyKeyOf),
    historyTag(tracking),
  );
  for (const task of tasks) {
    const copy = usableCopy(tracking, rows.get(historyKeyOf(task)));
    if (copy && (!linksWanted(task) || copy.links)) copies.set(task.pageId, copy);
  }
  return copies;
}

/** The validators a visit conditional on `copy` sends. */
export function validatorsOfCopy(copy: ChangeRecord): PageValidators {
  return {
    ...(copy.etag ? { etag: copy.etag } : {}),
    ...(copy.lastModified ? { lastModified: copy.lastModified } : {}),
  };
}

/** The page answered 304 to the copy's validators (not a page cache revalidation). */
export function answeredNotModified(page: FetchedPage): boolean {
  return page.notModified === true && !page.cache;
}

/**
 * The 304's document: the copy's markdown and metadata as `same`, the links the copy kept (none
 * when this page's links are not wanted), and the move of its row's time and validators — not
 * written here: the page's completion writes it in its own statement (`PageCompletion`).
 */
export async function reusedDocument(
  tracking: ChangeTrackingRequest,
  copy: ChangeRecord,
  page: FetchedPage,
  task: CrawlPageTask,
): Promise<{ data: DocumentData; links: StoredLink[]; historyTouch?: PageHistoryTouch }> {
  let historyTouch: PageHistoryTouch | undefined;
  const { history } = tracking;
  const deferred: ChangeHistoryStore = {
    get: (...a) => history.get(...a),
    getMany: (...a) => history.getMany(...a),
    put: (record) => history.put(record),
    touch: ({ accountId, urlKey: key, tag }, was, next) => {
      historyTouch = [{ accountId, urlKey: key, tag }, was, next];
      return Promise.resolve();
    },
    touchMany: (ts) => history.touchMany(ts),
  };
  const data = await reuseOnNotModified(
    { ...tracking, history: deferred },
    copy,
    validatorsOf(page.headers) ?? {},
  );
  return {
    data,
    links: linksWanted(task) ? (copy.links ?? []) : [],
    ...(historyTouch ? { historyTouch } : {}),
  };
}

/**
 * The crawl trusts the sitemap's lastmod and this page's (its latest instant: a date-only value is
 * the end of that day UTC) is not after the copy's time: the page has not changed since the copy
 * was made, as far as the site says, and is not fetched.
 */
export function sitemapVouchesFor(task: CrawlPageTask, copy: ChangeRecord): boolean {
  const lastmod = task.sitemapLastmod;
  if (task.options.trustSitemapLastmod !== true || !lastmod) return false;
  return copy.scrapedAt.getTime() >= lastmod.getTime();
}

/**
 * A page not fetched (`sitemapVouchesFor`): the copy's markdown and metadata as `same`, marked
 * `revalidatedBy: "sitemap-lastmod"`, and the links it kept (none when this page's are not wanted).
 */
export async function skippedDocument(
  tracking: ChangeTrackingRequest,
  copy: ChangeRecord,
  task: CrawlPageTask,
): Promise<{ data: DocumentData; links: StoredLink[] }> {
  const data = await reuseOnSitemapLastmod(tracking, copy, task.crawlCreatedAt);
  return { data, links: linksWanted(task) ? (copy.links ?? []) : [] };
}
