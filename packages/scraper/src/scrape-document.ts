import type { OutputFormat } from '@wcs/content';
import { TargetHttpError } from '@wcs/errors';
import type { RequestOptions } from '@wcs/net';
import {
  type DocumentData,
  type FetchAttempt,
  type PageFormat,
  type PageOptions,
  type PageSecrets,
  wantsScreenshot,
} from '@wcs/queues';
import type { EngineName, Renderer, RenderRequest, RenderResult } from '@wcs/renderer';
import {
  type ChangeTrackingRequest,
  goneStatus,
  reusableCopy,
  reuseOnNotModified,
  trackChanges,
  trackRemoval,
  wantsChangeTracking,
} from './change-tracking';
import type { ContentTask, ContentTaskResult } from './content.task';
import { type ContentPool, type ConvertedPage, settle } from './content-pool';
import { fetchWithLadder, type LadderProxy } from './fetch-ladder';
import { historyVariant } from './history-variant';
import { pageCacheKey } from './page-cache-key';
import type { PageModel } from './page-model';
import type { CachedPage, ChangeHistoryStore, PageCacheStore, ScreenshotStore } from './page-stores';
import { addSummary, contentFormats, wantsSummary } from './page-summary';
import { type PageValidators, validatorsOf } from './page-validators';
import { type CachedBodyHook, type PageConversion, RawPageInspector } from './raw-page-inspector';
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
  /**
   * The validators of a copy the caller keeps itself (a monitor's last check): sent with the
   * request (the page cache's own stale copy is then not asked for). A 304 comes back from
   * `fetchPage` as the `notModified` page, and from `scrapeDocumentIfModified` as `notModified`.
   */
  revalidate?: PageValidators;
  /** The `changeTracking` format's history (required when that format is asked for). */
  history?: ChangeHistoryStore;
  /**
   * The extract model: writes the `summary` format and the `changeTracking` format's `json` mode;
   * without it those fail with MODEL_NOT_CONFIGURED (page-summary.ts, change-tracking.ts).
   */
  model?: PageModel;
}

export interface ScrapeOutcome {
  data: DocumentData;
  engine: EngineName;
  elapsedMs: number;
  /** Where the time went: the fetch (or cache read) and the conversion, ms. */
  timings: { fetchMs: number; contentMs: number };
  /** The page's validators (ETag, Last-Modified), for a caller that keeps its own copy. */
  validators?: PageValidators;
}

/** The site answered 304 to the caller's own validators (`revalidate`): nothing was downloaded. */
export interface NotModifiedOutcome {
  notModified: true;
  /** The validators the 304 sent, else the ones asked with. */
  validators: PageValidators;
  elapsedMs: number;
}

/** A rendered page, or the page cache's copy of one (`cache` says which). */
export type FetchedPage = RenderResult & {
  /**
   * Set when the request read the cache (`maxAge`); `fetchedAt` when a copy exists (hit, or a stored
   * miss; `revalidated`: the stale copy the site confirmed with a 304, now counted as fetched then).
   */
  cache?: { state: 'hit' | 'miss' | 'revalidated'; fetchedAt?: Date };
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
  /** The extract model (summary, changeTracking json); absent: those fail with MODEL_NOT_CONFIGURED. */
  model?: PageModel;
}

/**
 * One URL -> document: the step every feature shares (scrape, batch items, crawl pages, extract,
 * monitor checks). HTTP error statuses fail the scrape, and so does a page whose verdict is a wall or
 * an error page (verdict-outcome.ts), so callers never pay for an error page.
 */
export async function scrapeDocument(tools: ScrapeTools, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const { revalidate: _own, ...unconditional } = req;
  const model = req.model ?? tools.model;
  const tracking = changeTrackingOf(model ? { ...unconditional, model } : unconditional);
  // A tracked visit that asks only for markdown is conditional on the account's stored copy: a 304
  // returns that copy (`same`) without downloading or converting the page.
  const previous = tracking && onlyMarkdown(unconditional) ? await reusableCopy(tracking) : undefined;
  const revalidate = previous
    ? {
        ...(previous.etag ? { etag: previous.etag } : {}),
        ...(previous.lastModified ? { lastModified: previous.lastModified } : {}),
      }
    : undefined;
  try {
    const t0 = performance.now();
    const outcome = await scrapeDocumentIfModified(
      tools,
      revalidate ? { ...unconditional, revalidate } : unconditional,
      tracking,
    );
    if ('notModified' in outcome) {
      if (!tracking || !previous)
        throw new Error('scrapeDocument: a 304 answered a request without validators');
      const data = await reuseOnNotModified(tracking, previous, outcome.validators);
      const fetchMs = performance.now() - t0;
      return { data, engine: 'fetch', elapsedMs: outcome.elapsedMs, timings: { fetchMs, contentMs: 0 } };
    }
    return outcome;
  } catch (err) {
    // A tracked page that had content and now answers 404/410 is a result (`removed`), not a failure.
    const gone = tracking ? goneStatus(err) : undefined;
    const data = tracking && gone !== undefined ? await trackRemoval(tracking, gone) : undefined;
    if (!data) throw err;
    return { data, engine: 'fetch', elapsedMs: 0, timings: { fetchMs: 0, contentMs: 0 } };
  }
}

/**
 * The request asks for nothing a stored tracked copy lacks: formats markdown and changeTracking
 * only, no actions (they change the page) and no screenshot.
 */
function onlyMarkdown(req: Pick<ScrapeRequest, 'page' | 'secrets'>): boolean {
  const formats = req.page?.formats ?? [];
  if (req.secrets?.actions && req.secrets.actions.length > 0) return false;
  return formats.every((f) => f === 'markdown' || f === 'changeTracking');
}

/** The change tracking a request asks for, with the store it needs. */
export function changeTrackingOf(
  req: Pick<
    ScrapeRequest,
    'page' | 'history' | 'accountId' | 'url' | 'model' | 'signal' | 'onlyMainContent' | 'engine' | 'waitForMs'
  >,
  visibility?: 'visible' | 'hidden',
): ChangeTrackingRequest | undefined {
  if (!wantsChangeTracking(req.page)) return undefined;
  if (!req.history || req.accountId === undefined)
    throw new Error('scrapeDocument: the changeTracking format needs the history store and the account');
  return {
    history: req.history,
    accountId: req.accountId,
    url: req.url,
    options: req.page?.changeTrackingOptions,
    variant: historyVariant(req),
    ...(visibility ? { visibility } : {}),
    ...(req.model ? { model: req.model } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  };
}

/**
 * `scrapeDocument`, conditional on the caller's own copy (`req.revalidate`): a 304 is returned as
 * `notModified` — no body downloaded, nothing converted. `tracking`: the change tracking the
 * request asked for (changeTrackingOf), compared and recorded once the page is converted.
 */
export async function scrapeDocumentIfModified(
  tools: ScrapeTools,
  req: ScrapeRequest,
  tracking?: ChangeTrackingRequest,
): Promise<ScrapeOutcome | NotModifiedOutcome> {
  const t0 = performance.now();
  // The fetched bytes are decoded, checked and converted in one content thread task.
  let inspector: RawPageInspector | undefined;
  const raw = (cacheBody?: CachedBodyHook) => {
    inspector = new RawPageInspector(tools.pool, {
      conversion: pageConversion(req),
      ...(cacheBody ? { cacheBody } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.accountId !== undefined ? { accountId: req.accountId } : {}),
    });
    return inspector;
  };
  const page = await fetchPage(tools.renderer, req, raw);
  if (page.notModified && !page.cache) {
    const validators = validatorsOf(page.headers) ?? req.revalidate ?? {};
    return { notModified: true, validators, elapsedMs: page.elapsedMs };
  }
  // A page converted in the thread that decoded it: its content stage began when its bytes were
  // handed over, inside fetchPage.
  const t1 = page.converted && inspector?.handedAt !== undefined ? inspector.handedAt : performance.now();
  const model = req.model ?? tools.model;
  const { data } = await documentFromPage(page, model ? { ...req, model } : req, tools.pool);
  if (tracking) await trackChanges(tracking, data, page);
  await page.stored;
  const timings = { fetchMs: t1 - t0, contentMs: performance.now() - t1 };
  const validators = validatorsOf(page.headers);
  return {
    data,
    engine: page.engine,
    elapsedMs: page.elapsedMs,
    timings,
    ...(validators ? { validators } : {}),
  };
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
  rawInspector?: (cacheBody?: CachedBodyHook) => RawPageInspector,
): Promise<FetchedPage> {
  const use = cacheUse(req);
  const key = use.read || use.store ? pageCacheKey(cacheKeyInput(req, renderer.features)) : undefined;
  let stale: { page: CachedPage; validators: PageValidators } | undefined;
  if (req.cache && key && use.read) {
    const maxAge = req.page?.maxAge ?? 0;
    const entry = await req.cache.latest(key).catch(() => undefined);
    if (entry && entry.fetchedAt.getTime() >= Date.now() - maxAge) {
      // The copy is served only where a fetch would be allowed now: the address policy (a host
      // whose DNS points at a private address today, ALLOW_PRIVATE_TARGETS turned off) refuses it
      // as it refuses the fetch. The redirect's end is checked too: the copy is that page.
      await renderer.checkTarget(req.url);
      if (entry.finalUrl !== req.url) await renderer.checkTarget(entry.finalUrl);
      return fromCache(entry, 'hit', entry.fetchedAt);
    }
    // Older than maxAge: asked again, conditionally when the copy has validators (a 304 serves it).
    const validators = entry ? validatorsOf(entry.headers) : undefined;
    if (entry && validators && !req.revalidate) stale = { page: entry, validators };
  }
  // A wall is escalated (fetch-ladder.ts) and, still standing, thrown as TARGET_BLOCKED: a blocked
  // answer never reaches the cache below.
  // An undecoded 2xx answer's copy is written as soon as its content thread has compressed it,
  // while that thread goes on to convert it (best effort: never rejects).
  const cache = req.cache;
  const early = new WeakMap<Uint8Array, { stored: Promise<void>; fetchedAt: Date }>();
  const inspector = rawInspector?.(
    cache && key && use.store
      ? (answer, body) => {
          const fetchedAt = new Date();
          const stored = body
            .then((b) => b && cache.put(key, toCached(req.url, answer, fetchedAt, b)))
            .catch(() => undefined);
          if (answer.raw) early.set(answer.raw.bytes, { stored, fetchedAt });
        }
      : undefined,
  );
  const { page, attempts } = await fetchWithLadder(
    renderer,
    {
      ...renderRequest(req),
      ...(inspector ? { deferText: inspector.deferText } : {}),
      ...(req.revalidate ? { revalidate: req.revalidate } : stale ? { revalidate: stale.validators } : {}),
    },
    {
      proxy: proxyMode(req, renderer.features),
      ...(req.beforeEscalation ? { beforeStep: req.beforeEscalation } : {}),
      ...(inspector ? { judgeRaw: inspector.judgeRaw } : {}),
    },
  );
  if (page.statusCode >= 400)
    throw httpStatusError(page.statusCode, { soft: false, ...(attempts ? { attempts } : {}) });
  if (page.statusCode === 304) {
    if (page.notModified && stale && req.cache && key) return revalidated(req.cache, key, stale.page, page);
    // The caller's own copy stands: it has the page, this answer has none.
    if (page.notModified && req.revalidate) return { ...page, ...(attempts ? { attempts } : {}) };
    // Only an answer to our own validators can be "not modified": this one has no copy to stand for.
    throw new TargetHttpError(
      304,
      'Target answered 304 Not Modified to a request that sent no validators: there is no stored copy to serve',
    );
  }
  // An undecoded answer was checked by the ladder: its thread's task holds the page converted.
  const found = page.raw && inspector ? await inspector.inspect(page) : undefined;
  if (found && found.kind !== 'page')
    throw new Error(`fetchPage: an undecoded answer ended the ladder as ${found.kind}`);
  // Only a success is stored, and only text: a document (bytes, up to MAX_DOCUMENT_BYTES) never is.
  const stores = use.store && page.statusCode >= 200 && page.statusCode < 300 && !page.bytes;
  const written = page.raw ? early.get(page.raw.bytes) : undefined;
  const fetchedAt = written?.fetchedAt ?? new Date();
  // Best effort: a cache that cannot store must not fail a page that was fetched fine. Not awaited
  // here: the write overlaps the conversion (and a crawl's host slot is not held for it). An
  // undecoded answer's copy is under way already (its thread compressed it, above); a decoded page
  // (the browser's, or a caller without a raw inspector) is written from the event loop's next
  // turn, once the caller has handed the page to its thread: that write's first step copies the
  // whole body (UTF-8) on this thread, ~1 ms on a 600 KB page.
  const stored =
    cache && key && stores
      ? (written?.stored ??
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => cache.put(key, toCached(req.url, page, fetchedAt)))
          .catch(() => undefined))
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

/**
 * The site answered 304 to the stale copy's validators: the copy is served (converted again like a
 * hit, from its stored body) and counts as fetched now, with the 304's validators. The refresh is
 * best effort and awaited before the page is reported, like a stored miss.
 */
function revalidated(
  cache: PageCacheStore,
  key: string,
  copy: CachedPage,
  answer: RenderResult,
): FetchedPage {
  const fetchedAt = new Date();
  const stored = cache
    .refresh(key, copy.fetchedAt, fetchedAt, validatorsOf(answer.headers) ?? {})
    .then(() => undefined)
    .catch(() => undefined);
  return { ...fromCache(copy, 'revalidated', fetchedAt), elapsedMs: answer.elapsedMs, stored };
}

function fromCache(hit: CachedPage, state: 'hit' | 'revalidated', fetchedAt: Date): FetchedPage {
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
    cache: { state, fetchedAt },
  };
}

export interface DocumentRequest
  extends Pick<
    ScrapeRequest,
    'url' | 'format' | 'onlyMainContent' | 'signal' | 'page' | 'screenshots' | 'accountId' | 'model'
  > {
  /** Also return the page's links, read from the same parse (crawl pages). */
  links?: boolean;
  /**
   * Without page `formats`: the only formats converted (`data` then holds just these), for a
   * caller that keeps fewer than the default markdown, html and text (the crawler).
   */
  onlyFormats?: PageFormat[];
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
  if (page.notModified && !page.cache)
    throw new Error("documentFromPage: a 304 has no page to convert (the caller's copy stands)");
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
  // Walls and error pages fail here, before a screenshot is stored, a model asked or anyone billed.
  applyVerdict(data, converted.verdict);
  if (wantsSummary(req.page?.formats)) await addSummary(data, req);
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
    ...(options?.formats
      ? { formats: contentFormats(options.formats) }
      : req.onlyFormats
        ? { formats: req.onlyFormats }
        : {}),
    ...(options?.includeTags ? { includeTags: options.includeTags } : {}),
    ...(options?.excludeTags ? { excludeTags: options.excludeTags } : {}),
  };
}
