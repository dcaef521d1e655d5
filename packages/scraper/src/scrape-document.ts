import type { OutputFormat } from '@wcs/content';
import type { RequestOptions } from '@wcs/net';
import {
  type DocumentData,
  type FetchAttempt,
  type PageOptions,
  type PageSecrets,
  wantsScreenshot,
} from '@wcs/queues';
import type { EngineName, Renderer, RenderRequest, RenderResult } from '@wcs/renderer';
import type { ContentTask, ContentTaskResult } from './content.task';
import { type ContentPool, type ConvertedPage, settle } from './content-pool';
import { fetchWithLadder, type LadderProxy } from './fetch-ladder';
import { pageCacheKey } from './page-cache-key';
import type { CachedPage, PageCacheStore, ScreenshotStore } from './page-stores';
import { type PageConversion, RawPageInspector } from './raw-page-inspector';
import { applyVerdict, httpStatusError } from './verdict-outcome';

export interface ScrapeRequest {
  url: string;
  format: OutputFormat;
  onlyMainContent: boolean;
  engine?: 'auto' | EngineName;
  waitForMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per-request network options (headers, cookies, proxy) passed through to the renderer unchanged. */
  request?: RequestOptions;
  /** The plain page options (formats, mobile, location, tag filters, proxy, maxAge). */
  page?: PageOptions;
  /** The secret page options (headers, actions), opened by the worker for this page only. */
  secrets?: PageSecrets;
  /** The page cache (`maxAge` reads, `storeInCache` writes); without it every request fetches. */
  cache?: PageCacheStore;
  /** Where screenshots (format or action) are kept, for whose account. Required when one is asked for. */
  screenshots?: { store: ScreenshotStore; accountId: string };
  /** Whose page this is: the content pool shares its threads fairly between accounts. */
  accountId?: string;
  /** Awaited before each request the fetch ladder adds (a crawl's politeness gap for the host). */
  beforeEscalation?: () => Promise<void>;
}

export interface ScrapeOutcome {
  data: DocumentData;
  engine: EngineName;
  elapsedMs: number;
  /** Where the time went: the fetch (or cache read) and the conversion, ms. */
  timings: { fetchMs: number; contentMs: number };
}

/** A rendered page, or the page cache's copy of one (`cache` says which). */
export type FetchedPage = RenderResult & {
  /** Set when the request read the cache (`maxAge`); `fetchedAt` when a copy exists (hit, or a stored miss). */
  cache?: { state: 'hit' | 'miss'; fetchedAt?: Date };
  /**
   * The page's write to the cache, running while the caller converts the page (never rejects: the
   * cache is best effort). Await it before reporting the page, so a `maxAge` request sent after the
   * report finds the copy.
   */
  stored?: Promise<void>;
  /** Every step of the fetch ladder, when the page needed escalation (metadata.attempts). */
  attempts?: FetchAttempt[];
  /**
   * The page converted already, by the content thread that decoded and checked its bytes (`raw`:
   * scrapeDocument's path); `documentFromPage` uses it instead of converting `body`.
   */
  converted?: ContentTaskResult;
};

/** What turning a URL into a document uses: the renderer that fetches, the content pool that converts. */
export interface ScrapeTools {
  renderer: Renderer;
  pool: ContentPool;
}

/**
 * One URL -> document: the step every feature shares (scrape, batch items, crawl pages, extract,
 * monitor checks). HTTP error statuses fail the scrape, and so does a page whose verdict is a wall or
 * an error page (verdict-outcome.ts), so callers never pay for an error page.
 */
export async function scrapeDocument(tools: ScrapeTools, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const t0 = performance.now();
  // The fetched bytes are decoded, checked and converted in one content thread task.
  let inspector: RawPageInspector | undefined;
  const raw = (store: boolean) => {
    inspector = new RawPageInspector(tools.pool, {
      conversion: pageConversion(req),
      cacheBody: store,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.accountId !== undefined ? { accountId: req.accountId } : {}),
    });
    return inspector;
  };
  const page = await fetchPage(tools.renderer, req, raw);
  // A page converted in the thread that decoded it: its content stage began when its bytes were
  // handed over, inside fetchPage.
  const t1 = page.converted && inspector?.handedAt !== undefined ? inspector.handedAt : performance.now();
  const { data } = await documentFromPage(page, req, tools.pool);
  await page.stored;
  const timings = { fetchMs: t1 - t0, contentMs: performance.now() - t1 };
  return { data, engine: page.engine, elapsedMs: page.elapsedMs, timings };
}

/**
 * Only requests that carry nothing personal and change nothing on the page share the cache: no
 * caller headers or cookies (a page fetched with one account's credentials is never served to
 * another: the cache is shared by the deployment), no actions, no screenshot.
 */
function cacheable(req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>): boolean {
  const { secrets, request, page } = req;
  return (
    !secrets?.headers &&
    !(secrets?.actions && secrets.actions.length > 0) &&
    !request?.headers &&
    !request?.cookies &&
    wantsScreenshot(page?.formats) === undefined
  );
}

/**
 * What a request does with the page cache: `maxAge` > 0 reads it (a copy at most that old is
 * served); every cacheable request stores what it fetched unless `storeInCache` is false, so a
 * later request with `maxAge` finds the page whoever fetched it first.
 */
function cacheUse(req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>): { read: boolean; store: boolean } {
  if (!req.cache || !cacheable(req)) return { read: false, store: false };
  return { read: (req.page?.maxAge ?? 0) > 0, store: req.page?.storeInCache !== false };
}

/**
 * The network half of `scrapeDocument`: render the URL (or take the page cache's copy) and turn
 * error statuses into errors. The crawler calls it on its own so it can hold a per-host slot only
 * while the site is being fetched, and so it gets the raw HTML for link extraction.
 */
export async function fetchPage(
  renderer: Renderer,
  req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>,
  rawInspector?: (cacheBody: boolean) => RawPageInspector,
): Promise<FetchedPage> {
  const use = cacheUse(req);
  const key = use.read || use.store ? pageCacheKey(cacheKeyInput(req, renderer.features)) : undefined;
  if (req.cache && key && use.read) {
    const maxAge = req.page?.maxAge ?? 0;
    const hit = await req.cache.get(key, new Date(Date.now() - maxAge)).catch(() => undefined);
    if (hit) {
      // The copy is served only where a fetch would be allowed now: the address policy (a host
      // whose DNS points at a private address today, ALLOW_PRIVATE_TARGETS turned off) refuses it
      // as it refuses the fetch. The redirect's end is checked too: the copy is that page.
      await renderer.checkTarget(req.url);
      if (hit.finalUrl !== req.url) await renderer.checkTarget(hit.finalUrl);
      return fromCache(hit);
    }
  }
  // A wall is escalated (fetch-ladder.ts) and, still standing, thrown as TARGET_BLOCKED: a blocked
  // answer never reaches the cache below.
  const inspector = rawInspector?.(use.store);
  const { page, attempts } = await fetchWithLadder(
    renderer,
    { ...renderRequest(req), ...(inspector ? { deferText: inspector.deferText } : {}) },
    {
      proxy: proxyMode(req, renderer.features),
      ...(req.beforeEscalation ? { beforeStep: req.beforeEscalation } : {}),
      ...(inspector ? { judgeRaw: inspector.judgeRaw } : {}),
    },
  );
  if (page.statusCode >= 400)
    throw httpStatusError(page.statusCode, { soft: false, ...(attempts ? { attempts } : {}) });
  // An undecoded answer was checked by the ladder: its thread's task holds the page converted.
  const found = page.raw && inspector ? await inspector.inspect(page) : undefined;
  if (found && found.kind !== 'page')
    throw new Error(`fetchPage: an undecoded answer ended the ladder as ${found.kind}`);
  // Only a success is stored, and only text: a document (bytes, up to MAX_DOCUMENT_BYTES) never is.
  const stores = use.store && page.statusCode >= 200 && page.statusCode < 300 && !page.bytes;
  const fetchedAt = new Date();
  // Best effort: a cache that cannot store must not fail a page that was fetched fine. Not awaited
  // here: the write overlaps the conversion (and a crawl's host slot is not held for it). A body the
  // content thread has not compressed already is written from the event loop's next turn, once the
  // caller has handed the page to its thread: that write's first step copies the whole body
  // (UTF-8) on this thread, ~1 ms on a 600 KB page.
  const cache = req.cache;
  const stored =
    cache && key && stores
      ? (found?.cached ? Promise.resolve() : new Promise<void>((resolve) => setImmediate(resolve)))
          .then(() => cache.put(key, toCached(req.url, page, fetchedAt, found?.cached)))
          .catch(() => undefined)
      : undefined;
  return {
    ...page,
    ...(found?.converted ? { converted: found.converted } : {}),
    ...(attempts ? { attempts } : {}),
    ...(stored ? { stored } : {}),
    ...(use.read ? { cache: { state: 'miss' as const, ...(stored ? { fetchedAt } : {}) } } : {}),
  };
}

/**
 * The request's `proxy`, else the deployment's PROXY_MODE: `auto` = direct, and through the next of
 * PROXY_URLS only when a wall still stands after the browser and Retry-After steps; `always` =
 * `default` (every request through the next proxy). Without PROXY_URLS all of them are direct.
 */
function proxyMode(
  req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>,
  features: Renderer['features'],
): LadderProxy {
  return req.page?.proxy ?? (features.proxyMode === 'always' ? 'default' : 'auto');
}

function renderRequest(
  req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>,
): RenderRequest & { timeoutMs: number } {
  const { page, secrets } = req;
  const headers = { ...req.request?.headers, ...secrets?.headers };
  const request: RequestOptions | undefined =
    req.request || secrets?.headers
      ? {
          ...req.request,
          ...(Object.keys(headers).length > 0 ? { headers } : {}),
          ...(page?.headersScope ? { headersScope: page.headersScope } : {}),
        }
      : undefined;
  const screenshot = wantsScreenshot(page?.formats);
  return {
    url: req.url,
    engine: req.engine ?? 'auto',
    ...(req.waitForMs ? { waitForMs: req.waitForMs } : {}),
    timeoutMs: req.timeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(request ? { request } : {}),
    ...(page?.mobile ? { mobile: true } : {}),
    ...(page?.location ? { location: page.location } : {}),
    ...(secrets?.actions && secrets.actions.length > 0 ? { actions: secrets.actions } : {}),
    ...(screenshot ? { screenshot } : {}),
  };
}

function cacheKeyInput(
  req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>,
  features: Renderer['features'],
) {
  return {
    url: req.url,
    engine: req.engine ?? 'auto',
    waitForMs: req.waitForMs ?? 0,
    mobile: req.page?.mobile ?? false,
    ...(req.page?.location ? { location: req.page.location } : {}),
    proxy: proxyMode(req, features),
  };
}

function toCached(
  url: string,
  page: RenderResult,
  fetchedAt: Date,
  compressed?: CachedPage['compressedBody'],
): CachedPage {
  return {
    url,
    finalUrl: page.finalUrl,
    statusCode: page.statusCode,
    contentType: page.contentType,
    engine: page.engine,
    body: page.body,
    ...(compressed ? { compressedBody: compressed } : {}),
    headers: page.headers,
    redirects: page.redirects,
    fetchedAt,
  };
}

function fromCache(hit: CachedPage): FetchedPage {
  return {
    requestedUrl: hit.url,
    finalUrl: hit.finalUrl,
    statusCode: hit.statusCode,
    contentType: hit.contentType,
    body: hit.body,
    engine: hit.engine,
    headers: hit.headers,
    redirects: hit.redirects,
    elapsedMs: 0,
    cache: { state: 'hit', fetchedAt: hit.fetchedAt },
  };
}

export interface DocumentRequest
  extends Pick<
    ScrapeRequest,
    'url' | 'format' | 'onlyMainContent' | 'signal' | 'page' | 'screenshots' | 'accountId'
  > {
  /** Also return the page's links, read from the same parse (crawl pages). */
  links?: boolean;
  /** Time left for the conversion when less than the pool's budget (a job near its deadline). */
  budgetMs?: number;
}

/**
 * The CPU half of `scrapeDocument`: a fetched page -> the document (the formats asked for) +
 * metadata (and links on request), converted in the content pool (content-pool.ts) under its caps
 * and budget; then the screenshots are stored and their URLs added. `data.warning` says when the
 * page was cut.
 */
export async function documentFromPage(
  page: FetchedPage,
  req: DocumentRequest,
  pool: ContentPool,
): Promise<ConvertedPage> {
  if (page.raw && !page.converted)
    throw new Error('documentFromPage: an undecoded page reached the conversion unconverted');
  const task: ContentTask = {
    ...pageConversion(req),
    body: page.body,
    contentType: page.contentType,
    finalUrl: page.finalUrl,
    statusCode: page.statusCode,
    headers: page.headers,
    // A document (PDF/DOCX) is converted from its bytes, not from `body`.
    ...(page.bytes && page.documentKind ? { bytes: page.bytes, documentKind: page.documentKind } : {}),
  };
  const converted = page.converted
    ? settle(page.converted)
    : await pool.run(task, req.signal, req.budgetMs, req.accountId);
  const data = converted.data;
  // Walls and error pages fail here, before a screenshot is stored or anyone is billed.
  applyVerdict(data, converted.verdict);
  if (page.attempts) data.metadata.attempts = page.attempts;
  if (page.cache) {
    data.metadata.cacheState = page.cache.state;
    if (page.cache.fetchedAt) data.metadata.cachedAt = page.cache.fetchedAt.toISOString();
  }
  if (page.screenshot || page.actions) {
    const save = async (png: Buffer): Promise<string> => {
      if (!req.screenshots)
        throw new Error('documentFromPage: a screenshot was taken but no store was given');
      return (await req.screenshots.store.save(req.screenshots.accountId, png)).url;
    };
    if (page.screenshot) data.screenshot = await save(page.screenshot);
    if (page.actions) {
      const screenshots: string[] = [];
      for (const png of page.actions.screenshots) screenshots.push(await save(png));
      data.actions = { screenshots, javascriptReturns: page.actions.javascriptReturns };
    }
  }
  return converted;
}

/** What a page's conversion is asked for, from the request (the page's own fields come with it). */
function pageConversion(req: DocumentRequest): PageConversion {
  const options = req.page;
  return {
    sourceUrl: req.url,
    format: req.format,
    onlyMainContent: req.onlyMainContent,
    links: req.links === true,
    ...(options?.formats ? { formats: options.formats } : {}),
    ...(options?.includeTags ? { includeTags: options.includeTags } : {}),
    ...(options?.excludeTags ? { excludeTags: options.excludeTags } : {}),
  };
}
