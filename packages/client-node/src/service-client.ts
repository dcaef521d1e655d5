/**
 * The official Node.js client: one method per endpoint, plus crawlAndWait and
 * batchScrapeAndWait. Responses are the API's JSON bodies, typed; every non-2xx throws
 * ServiceError.
 */
import type {
  AccountResponse,
  BatchCancelResponse,
  BatchItem,
  BatchListResponse,
  BatchOptions,
  BatchResultResponse,
  BatchResultsResponse,
  BatchStartResponse,
  BatchStatus,
  CallOptions,
  CapabilitiesResponse,
  CrawlCancelResponse,
  CrawlListResponse,
  CrawlOptions,
  CrawlResultResponse,
  CrawlResultsResponse,
  CrawlStartResponse,
  CrawlStatus,
  ExtractOptions,
  ExtractResponse,
  KeyCreateOptions,
  KeyCreateResponse,
  KeyListResponse,
  KeyRevokeResponse,
  KeyUpdateOptions,
  KeyUpdateResponse,
  LedgerFilter,
  LedgerOptions,
  LedgerResponse,
  MapOptions,
  MapResponse,
  MonitorCancelResponse,
  MonitorDetailResponse,
  MonitorListResponse,
  MonitorOptions,
  MonitorResponse,
  MonitorUpdateOptions,
  PagingOptions,
  ParseOptions,
  ScrapeOptions,
  ScrapeResponse,
  SearchOptions,
  SearchResponse,
  UsageOptions,
  UsageResponse,
  WaitOptions,
  WebhookSecretResponse,
} from './api-types.js';
import { type CreditsInfo, type FetchLike, HttpTransport } from './http-transport.js';
import { screenshotPath } from './screenshot-url.js';
import { ServiceError } from './service-error.js';
import { waitForJob } from './wait-for-job.js';

export const DEFAULT_BASE_URL = 'http://localhost:3002';

export interface ServiceClientOptions {
  /** Defaults to the SERVICE_API_KEY environment variable. */
  apiKey?: string;
  /** Defaults to SERVICE_BASE_URL, then http://localhost:3002. */
  baseUrl?: string;
  /** Budget of one HTTP request; default 180000 ms. Past it: ServiceError status 0, CLIENT_TIMEOUT. */
  timeoutMs?: number;
  /** Retries of 429 (after Retry-After) and retryable 502/503; default 2, 0 disables. */
  maxRetries?: number;
  /** A fetch implementation (default: the global fetch of Node 18+). */
  fetch?: FetchLike;
}

const CRAWL_PAGE_LIMIT = 1000;
const BATCH_PAGE_LIMIT = 500;

/** Copies the defined entries of `fields` (so callers' undefined never reaches the body). */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * Follows the API's skip/limit paging (`next` present while more remain) and merges the pages;
 * the status fields are those of the first answer, `next` is dropped.
 */
async function allPages<S extends { next?: string }>(
  fetchPage: (skip: number) => Promise<S>,
  limit: number,
  merge: (all: S, more: S) => S,
): Promise<S> {
  let all = await fetchPage(0);
  for (let skip = limit, last = all; last.next; skip += limit) {
    last = await fetchPage(skip);
    all = merge(all, last);
  }
  const { next: _next, ...rest } = all;
  return rest as S;
}

/** The API's `reason` query: a comma list (a list given as one string passes unchanged). */
function reasonQuery(reason: LedgerFilter['reason']): string | undefined {
  if (reason === undefined) return undefined;
  return typeof reason === 'string' ? reason : reason.join(',');
}

const seg = encodeURIComponent;

/** Published on its own (no @wcs/config): the client reads its two variables itself. */
function env(name: string): string | undefined {
  const value = typeof process !== 'undefined' ? process.env[name] : undefined;
  return value?.trim() ? value.trim() : undefined;
}

export class ServiceClient {
  private readonly http: HttpTransport;

  constructor(options: ServiceClientOptions = {}) {
    const apiKey = options.apiKey ?? env('SERVICE_API_KEY');
    if (!apiKey) {
      throw new ServiceError(
        0,
        'No API key: pass { apiKey } or set the SERVICE_API_KEY environment variable',
        'MISSING_API_KEY',
      );
    }
    const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!fetchImpl) throw new Error('No global fetch: use Node 18+ or pass { fetch }');
    this.http = new HttpTransport({
      apiKey,
      baseUrl: (options.baseUrl ?? env('SERVICE_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
      timeoutMs: options.timeoutMs ?? 180_000,
      maxRetries: Math.max(0, options.maxRetries ?? 2),
      fetch: fetchImpl,
    });
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /**
   * What the latest billable call cost: `{ used, remaining }` from its `X-Credits-Used` and
   * `X-Credits-Remaining` headers (also after a refused or failed call, when the answer had them);
   * null before any. With calls in parallel on one client it is the last answer to arrive: use
   * one client per concurrent caller when each call's cost matters.
   */
  get lastCredits(): CreditsInfo | null {
    return this.http.lastCredits;
  }

  /** POST /v1/scrape — 1 credit. */
  scrape(url: string, options: ScrapeOptions = {}): Promise<ScrapeResponse> {
    const { signal, ...rest } = options;
    return this.http.request('POST', '/v1/scrape', { body: defined({ url, ...rest }), signal });
  }

  /**
   * POST /v1/parse — a PDF, DOCX or HTML file you have, converted like a scraped page (1 credit;
   * its type is read from its bytes). Sent as a multipart form: the file and an `options` part.
   */
  parse(file: Uint8Array | Blob, options: ParseOptions = {}): Promise<ScrapeResponse> {
    const { signal, filename, ...rest } = options;
    const form = new FormData();
    form.append('options', JSON.stringify(defined(rest)));
    const blob = file instanceof Blob ? file : new Blob([file as Uint8Array<ArrayBuffer>]);
    form.append('file', blob, filename ?? 'upload');
    return this.http.request('POST', '/v1/parse', { form, signal });
  }

  /**
   * The PNG behind a screenshot URL (`data.screenshot`, `data.actions.screenshots[i]`), fetched
   * with this client's key. Only URLs under the client's base URL are fetched (else ServiceError
   * `INVALID_SCREENSHOT_URL`, nothing sent), so the key never goes elsewhere; an expired one is 404.
   */
  async screenshot(url: string, options: CallOptions = {}): Promise<Uint8Array> {
    return this.http.requestBytes(
      'GET',
      screenshotPath(this.baseUrl, url),
      'image/png, application/json;q=0.5',
      {
        signal: options.signal,
      },
    );
  }

  /** POST /v1/crawl — answers at once with the crawl id; 1 credit per page crawled. */
  startCrawl(url: string, options: CrawlOptions = {}): Promise<CrawlStartResponse> {
    const { signal, ...rest } = options;
    return this.http.request('POST', '/v1/crawl', { body: defined({ url, ...rest }), signal });
  }

  /** GET /v1/crawl/:id — status plus one page of results (`skip`/`limit`, limit ≤ 1000). */
  getCrawlStatus(id: string, options: PagingOptions = {}): Promise<CrawlStatus> {
    return this.http.request('GET', `/v1/crawl/${encodeURIComponent(id)}`, {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** DELETE /v1/crawl/:id — stops the crawl; pages already done are kept. */
  cancelCrawl(id: string, options: CallOptions = {}): Promise<CrawlCancelResponse> {
    return this.http.request('DELETE', `/v1/crawl/${encodeURIComponent(id)}`, { signal: options.signal });
  }

  /**
   * Starts a crawl and polls until it is `done` or `failed`; returns the final status with every
   * page and failed page. A `failed` crawl (cancelled, out of credits…) is returned, not thrown:
   * check `status` and `stopReason`.
   */
  async crawlAndWait(url: string, options: CrawlOptions & WaitOptions = {}): Promise<CrawlStatus> {
    const { pollIntervalMs, timeoutMs, onProgress, ...crawlOptions } = options;
    const { id } = await this.startCrawl(url, crawlOptions);
    const signal = options.signal;
    await waitForJob(
      { kind: 'crawl', id, statusMethod: 'getCrawlStatus' },
      () => this.getCrawlStatus(id, { limit: 1, signal }),
      (s) => s.status === 'done' || s.status === 'failed',
      { pollIntervalMs, timeoutMs, onProgress, signal },
    );
    return this.allCrawlResults(id, signal);
  }

  /** Every page and failed page of a crawl, fetched page by page. */
  allCrawlResults(id: string, signal?: AbortSignal): Promise<CrawlStatus> {
    return allPages(
      (skip) => this.getCrawlStatus(id, { skip, limit: CRAWL_PAGE_LIMIT, signal }),
      CRAWL_PAGE_LIMIT,
      (all, more) => ({
        ...all,
        pages: [...all.pages, ...more.pages],
        failedPages: [...all.failedPages, ...more.failedPages],
      }),
    );
  }

  /** POST /v1/map — the site's URLs (1 credit per call). */
  map(url: string, options: MapOptions = {}): Promise<MapResponse> {
    const { signal, maxUrls, max_urls, ...rest } = options;
    return this.http.request('POST', '/v1/map', {
      body: defined({ url, max_urls: maxUrls ?? max_urls, ...rest }),
      signal,
    });
  }

  /** POST /v1/search — web search, each hit scraped (2 credits per result returned). */
  search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { signal, numResults, num_results, ...rest } = options;
    return this.http.request('POST', '/v1/search', {
      body: defined({ query, num_results: numResults ?? num_results, ...rest }),
      signal,
    });
  }

  /** POST /v1/extract — structured JSON shaped like `schema` (5 credits). */
  extract<T = Record<string, unknown>>(url: string, options: ExtractOptions): Promise<ExtractResponse<T>> {
    const { signal, ...rest } = options;
    return this.http.request('POST', '/v1/extract', { body: defined({ url, ...rest }), signal });
  }

  /** POST /v1/monitor — watch a page; 1 credit per check. */
  createMonitor(url: string, options: MonitorOptions = {}): Promise<MonitorResponse> {
    const { signal, ...rest } = options;
    return this.http.request('POST', '/v1/monitor', { body: defined({ url, ...rest }), signal });
  }

  /** GET /v1/monitor — newest first (`limit` ≤ 500). */
  listMonitors(options: PagingOptions = {}): Promise<MonitorListResponse> {
    return this.http.request('GET', '/v1/monitor', {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** GET /v1/monitor/:id — status, changes, recent checks and webhook attempts. */
  getMonitor(id: string, options: CallOptions = {}): Promise<MonitorDetailResponse> {
    return this.http.request('GET', `/v1/monitor/${encodeURIComponent(id)}`, { signal: options.signal });
  }

  /**
   * PATCH /v1/monitor/:id — change the schedule (`interval`, or `cron` + `timezone`), rules, goal
   * or webhook; only the fields given change (`webhookUrl`/`goal` null removes them). Free.
   */
  updateMonitor(id: string, options: MonitorUpdateOptions): Promise<MonitorCancelResponse> {
    const { signal, ...rest } = options;
    return this.http.request('PATCH', `/v1/monitor/${encodeURIComponent(id)}`, {
      body: defined(rest),
      signal,
    });
  }

  /** DELETE /v1/monitor/:id — cancels (history stays readable). */
  deleteMonitor(id: string, options: CallOptions = {}): Promise<MonitorCancelResponse> {
    return this.http.request('DELETE', `/v1/monitor/${encodeURIComponent(id)}`, { signal: options.signal });
  }

  /**
   * POST /v1/batch/scrape — up to 500 URLs (plain strings) or items `{ id?, url }`; 1 credit per
   * URL up front. Send full URLs: batch scrape does not add `https://`.
   */
  startBatchScrape(
    urlsOrItems: ReadonlyArray<string | BatchItem>,
    options: BatchOptions = {},
  ): Promise<BatchStartResponse> {
    const { signal, ...rest } = options;
    const allStrings = urlsOrItems.every((u) => typeof u === 'string');
    const list = allStrings
      ? { urls: urlsOrItems }
      : { items: urlsOrItems.map((u) => (typeof u === 'string' ? { url: u } : u)) };
    return this.http.request('POST', '/v1/batch/scrape', { body: defined({ ...list, ...rest }), signal });
  }

  /** GET /v1/batch/scrape/:id — progress and finished results (`skip`/`limit`, limit ≤ 500). */
  getBatchScrapeStatus(id: string, options: PagingOptions = {}): Promise<BatchStatus> {
    return this.http.request('GET', `/v1/batch/scrape/${encodeURIComponent(id)}`, {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /**
   * DELETE /v1/batch/scrape/:id — cancels the batch: every unfinished item fails with code
   * `CANCELLED` and its credit is refunded; items already done are kept. Idempotent.
   */
  cancelBatchScrape(id: string, options: CallOptions = {}): Promise<BatchCancelResponse> {
    return this.http.request('DELETE', `/v1/batch/scrape/${encodeURIComponent(id)}`, {
      signal: options.signal,
    });
  }

  /**
   * Starts a batch and polls until it is `done`; returns the final status with every result.
   * Check each result's `status`: a done batch may hold failed items.
   */
  async batchScrapeAndWait(
    urlsOrItems: ReadonlyArray<string | BatchItem>,
    options: BatchOptions & WaitOptions = {},
  ): Promise<BatchStatus> {
    const { pollIntervalMs, timeoutMs, onProgress, ...batchOptions } = options;
    const { id } = await this.startBatchScrape(urlsOrItems, batchOptions);
    const signal = options.signal;
    await waitForJob(
      { kind: 'batch', id, statusMethod: 'getBatchScrapeStatus' },
      () => this.getBatchScrapeStatus(id, { limit: 1, signal }),
      (s) => s.status === 'done',
      { pollIntervalMs, timeoutMs, onProgress, signal },
    );
    return this.allBatchResults(id, signal);
  }

  /** A batch's status with every result, fetched page by page. */
  allBatchResults(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return allPages(
      (skip) => this.getBatchScrapeStatus(id, { skip, limit: BATCH_PAGE_LIMIT, signal }),
      BATCH_PAGE_LIMIT,
      (all, more) => ({ ...all, results: [...all.results, ...more.results] }),
    );
  }

  /** GET /v1/webhook/secret — the key of the X-Signature HMAC on webhooks. */
  getWebhookSecret(options: CallOptions = {}): Promise<WebhookSecretResponse> {
    return this.http.request('GET', '/v1/webhook/secret', { signal: options.signal });
  }

  /** POST /v1/monitor/:id/pause — no checks (and no credits) until resumed; 409 when cancelled. */
  pauseMonitor(id: string, options: CallOptions = {}): Promise<MonitorCancelResponse> {
    return this.http.request('POST', `/v1/monitor/${seg(id)}/pause`, { signal: options.signal });
  }

  /** POST /v1/monitor/:id/resume — 409 when cancelled, or paused for lack of credits (resumes by itself). */
  resumeMonitor(id: string, options: CallOptions = {}): Promise<MonitorCancelResponse> {
    return this.http.request('POST', `/v1/monitor/${seg(id)}/resume`, { signal: options.signal });
  }

  // -- account (free; each call counts toward the rate limit) ------------------------------------

  /** GET /v1/account — balance, plan, credits used in the last 30 days, rate-limit headroom. */
  account(options: CallOptions = {}): Promise<AccountResponse> {
    return this.http.request('GET', '/v1/account', { signal: options.signal });
  }

  /**
   * GET /v1/capabilities — what this deployment offers (engines, documents and OCR, the extract
   * model, search provider, proxy count, formats, page options, Firecrawl routes) and every limit a
   * caller meets (batch size, body size, time budgets, this plan's rate limit). Free.
   */
  capabilities(options: CallOptions = {}): Promise<CapabilitiesResponse> {
    return this.http.request('GET', '/v1/capabilities', { signal: options.signal });
  }

  /** GET /v1/usage — net credits per UTC day and operation, oldest first, every day present. */
  usage(options: UsageOptions = {}): Promise<UsageResponse> {
    return this.http.request('GET', '/v1/usage', { query: { days: options.days }, signal: options.signal });
  }

  /** GET /v1/ledger — one page of the credit ledger, newest first; pass `cursor` for older rows. */
  ledger(options: LedgerOptions = {}): Promise<LedgerResponse> {
    return this.http.request('GET', '/v1/ledger', {
      query: { limit: options.limit, cursor: options.cursor, reason: reasonQuery(options.reason) },
      signal: options.signal,
    });
  }

  /** GET /v1/ledger.csv — the whole (filtered) ledger as CSV text, header line first. */
  ledgerCsv(options: LedgerFilter = {}): Promise<string> {
    return this.http.requestText('GET', '/v1/ledger.csv', 'text/csv', {
      query: { reason: reasonQuery(options.reason) },
      signal: options.signal,
    });
  }

  /** GET /v1/keys — the account's API keys (prefixes only), oldest first. */
  listKeys(options: CallOptions = {}): Promise<KeyListResponse> {
    return this.http.request('GET', '/v1/keys', { signal: options.signal });
  }

  /** POST /v1/keys — a new key; `data.key` is the full key, returned this once. */
  createKey(options: KeyCreateOptions = {}): Promise<KeyCreateResponse> {
    const { signal, ...rest } = options;
    return this.http.request('POST', '/v1/keys', { body: defined(rest), signal });
  }

  /**
   * PATCH /v1/keys/:id — change a key's name or its daily/monthly credit limits (`null` removes
   * one; a field left out stays). 403 when this client's own key has a limit.
   */
  updateKey(id: string, options: KeyUpdateOptions): Promise<KeyUpdateResponse> {
    const { signal, ...rest } = options;
    return this.http.request('PATCH', `/v1/keys/${seg(id)}`, { body: defined(rest), signal });
  }

  /** DELETE /v1/keys/:id — revoke (idempotent); 409 for the account's last active key. */
  revokeKey(id: string, options: CallOptions = {}): Promise<KeyRevokeResponse> {
    return this.http.request('DELETE', `/v1/keys/${seg(id)}`, { signal: options.signal });
  }

  /** GET /v1/batch/scrape — the account's batches, newest first (`limit` ≤ 100). */
  listBatches(options: PagingOptions = {}): Promise<BatchListResponse> {
    return this.http.request('GET', '/v1/batch/scrape', {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** GET /v1/batch/scrape/:id/results — a batch's items by position, any status, no documents. */
  batchResults(id: string, options: PagingOptions = {}): Promise<BatchResultsResponse> {
    return this.http.request('GET', `/v1/batch/scrape/${seg(id)}/results`, {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** GET /v1/batch/scrape/:id/results/:itemId — one item with its stored document. */
  batchResult(id: string, itemId: string, options: CallOptions = {}): Promise<BatchResultResponse> {
    return this.http.request('GET', `/v1/batch/scrape/${seg(id)}/results/${seg(itemId)}`, {
      signal: options.signal,
    });
  }

  /** GET /v1/crawl — the account's crawls, newest first (`limit` ≤ 100). */
  listCrawls(options: PagingOptions = {}): Promise<CrawlListResponse> {
    return this.http.request('GET', '/v1/crawl', {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** GET /v1/crawl/:id/results — every page of the crawl's frontier in discovery order, no documents. */
  crawlResults(id: string, options: PagingOptions = {}): Promise<CrawlResultsResponse> {
    return this.http.request('GET', `/v1/crawl/${seg(id)}/results`, {
      query: { skip: options.skip, limit: options.limit },
      signal: options.signal,
    });
  }

  /** GET /v1/crawl/:id/results/:pageId — one crawled page with its stored document. */
  crawlResult(id: string, pageId: string, options: CallOptions = {}): Promise<CrawlResultResponse> {
    return this.http.request('GET', `/v1/crawl/${seg(id)}/results/${seg(pageId)}`, {
      signal: options.signal,
    });
  }
}
