/**
 * Request options of the API, as the service README documents them. Response bodies are generated
 * from the OpenAPI document into ./api-responses.ts and re-exported here.
 */
import type { CrawlStatus, ExtractResponseBody, Monitor } from './api-responses.js';

export type * from './api-responses.js';

export type Format = 'markdown' | 'html' | 'text' | 'json';
export type Engine = 'auto' | 'fetch' | 'browser';
export type MonitorInterval = 'hourly' | 'daily' | 'weekly';

/** Options every call accepts. */
export interface CallOptions {
  /** Cancels the call (and a polling helper's wait). */
  signal?: AbortSignal;
}

/** A `formats` entry: with `formats`, `data` holds exactly the formats named (plus `metadata`). */
export type PageFormat =
  | 'markdown'
  | 'html'
  | 'rawHtml'
  | 'text'
  | 'json'
  | 'links'
  | 'images'
  | 'screenshot'
  | 'screenshot@fullPage'
  | 'changeTracking'
  /** A few sentences on the main content by the extract model: +5 credits a page. */
  | 'summary';

/** With the `changeTracking` format (docs/change-tracking.md): a `tag` keeps a separate history. */
export interface ChangeTrackingOptions {
  /** `git-diff` adds `changeTracking.diff` ({ text, json }). */
  modes?: readonly 'git-diff'[];
  tag?: string;
}

/** A browser step of the `actions` page option (README "Page options"); a selector waits ≤ 5 s. */
export type PageAction =
  | { type: 'wait'; milliseconds: number; selector?: never }
  | { type: 'wait'; selector: string; milliseconds?: never }
  | { type: 'click'; selector: string; all?: boolean }
  | { type: 'write'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction?: 'up' | 'down'; selector?: string }
  | { type: 'executeJavascript'; script: string }
  | { type: 'screenshot'; fullPage?: boolean };

export interface PageLocation {
  /** ISO 3166-1 alpha-2, e.g. "DE" (default "US"). */
  country?: string;
  /** BCP 47 tags in preference order (default: the country's main language). */
  languages?: readonly string[];
}

/** Where a request's `headers` go (README "Where headers go"). */
export type HeadersScope = 'origin' | 'all';

/**
 * `auto` (the default): direct, then once through the next of the service's PROXY_URLS when a wall
 * still stands after the browser; `default`: every request through the next of PROXY_URLS (direct
 * when none is set); `none`: direct.
 */
export type ProxyMode = 'none' | 'default' | 'auto';

/**
 * Page options (README "Page options"): how a page is fetched and what its document holds. Taken
 * by scrape and batch scrape, as `scrapeOptions` by crawls, and without `formats`/`maxAge` by
 * extract and monitors (`ReadPageOptions`). Headers and actions are secrets the service never logs.
 */
export interface PageOptions {
  /**
   * Sent with the page request, to the requested URL's origin only (a `Cookie` header works in the
   * browser too).
   */
  headers?: Readonly<Record<string, string>>;
  /** `origin` (default): headers to the requested URL's origin only; `all`: every origin but Authorization/Cookie. */
  headersScope?: HeadersScope;
  formats?: readonly PageFormat[];
  actions?: readonly PageAction[];
  /** Render as a phone (viewport, touch, mobile user agent). */
  mobile?: boolean;
  location?: PageLocation;
  /** CSS selectors: keep only these elements / remove these, before the main-content step. */
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
  proxy?: ProxyMode;
  /** Serve a cached copy fetched within this many ms (0, the default, always fetches). */
  maxAge?: number;
  /** Keep the fetched page for later `maxAge` requests (default true). */
  storeInCache?: boolean;
  /** Only with the `changeTracking` format (which needs `markdown` in `formats` too). */
  changeTrackingOptions?: ChangeTrackingOptions;
}

/** The page options of extract and monitors: they read the page, so no `formats` and no cache. */
export interface ReadPageOptions
  extends Omit<PageOptions, 'formats' | 'maxAge' | 'storeInCache' | 'changeTrackingOptions'> {
  /** Extra wait after load in ms (implies the browser). */
  waitFor?: number;
}

export interface ScrapeOptions extends CallOptions, PageOptions {
  /** Without `formats` only (giving both is a 400). */
  format?: Format;
  onlyMainContent?: boolean;
  engine?: Engine;
  /** Extra wait after load in ms (implies the browser). */
  waitFor?: number;
  /** The server's budget for the whole scrape in ms (1000–120000). */
  timeout?: number;
}

/** The formats an uploaded file has (no screenshots or images: nothing is rendered). */
export type ParseFormat = 'markdown' | 'html' | 'rawHtml' | 'text' | 'json' | 'links' | 'summary';

/** Options of `parse` (POST /v1/parse): the page options that apply to a file. */
export interface ParseOptions extends CallOptions {
  /** Without `formats` only (giving both is a 400). */
  format?: Format;
  formats?: readonly ParseFormat[];
  onlyMainContent?: boolean;
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
  /** The server's budget for the conversion in ms (1000–120000). */
  timeout?: number;
  /** The file's name: `metadata.sourceURL` is `file:///<name>` (default `upload`). */
  filename?: string;
}

export interface CrawlOptions extends CallOptions {
  maxDepth?: number;
  maxPages?: number;
  /** JavaScript regular expressions tested against path + query (see the service README). */
  includePaths?: string[];
  excludePaths?: string[];
  allowSubdomains?: boolean;
  ignoreRobotsTxt?: boolean;
  format?: Format;
  onlyMainContent?: boolean;
  delayMs?: number;
  /** Page options applied to every page of the crawl. */
  scrapeOptions?: PageOptions;
}

export type CrawlStatusValue = CrawlStatus['status'];

/** `skip`/`limit` of the listing and status calls. (Named `PageOptions` before page options existed.) */
export interface PagingOptions extends CallOptions {
  skip?: number;
  limit?: number;
}

/** What `onProgress` receives after every poll of a crawl or batch. */
export interface Progress {
  id: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
}

export interface WaitOptions {
  /** Time between polls; default 2000 ms. */
  pollIntervalMs?: number;
  /** Give up waiting after this long (the job keeps running); default 600000 ms (10 minutes). */
  timeoutMs?: number;
  onProgress?: (progress: Progress) => void;
}

export interface MapOptions extends CallOptions {
  /** Cap on links (the API's `max_urls`; `max_urls` is accepted too). */
  maxUrls?: number;
  max_urls?: number;
  search?: string;
  includeSubdomains?: boolean;
  ignoreSitemap?: boolean;
  /** Only the sitemaps' URLs (no page fetched). */
  sitemapOnly?: boolean;
  /** Also answer `pages`: each link with its page's title/description where the map fetched it. */
  linkMetadata?: boolean;
  timeout?: number;
}

export interface SearchOptions extends CallOptions {
  /** Results wanted, 1–20 (the API's `num_results`; `num_results` is accepted too). */
  numResults?: number;
  num_results?: number;
  country?: string;
  lang?: string;
  /** false: hits only, nothing fetched. */
  scrape?: boolean;
  fresh?: boolean;
  format?: Format;
  onlyMainContent?: boolean;
  /** Each scraped result also gets `summary` (the extract model's): 2 + 5 credits a result. */
  summary?: boolean;
  timeout?: number;
}

/** "string" | "number" | "boolean", a one-element array of a shape, or an object of shapes. */
export type ExtractSchema =
  | 'string'
  | 'number'
  | 'boolean'
  | [ExtractSchema]
  | { [key: string]: ExtractSchema };

export interface ExtractOptions extends CallOptions, ReadPageOptions {
  schema?: { [key: string]: ExtractSchema };
  prompt?: string;
  timeout?: number;
}

/** `ExtractResponseBody` with `data` typed as the shape you asked for. */
export interface ExtractResponse<T = Record<string, unknown>> extends Omit<ExtractResponseBody, 'data'> {
  data: T;
}

export interface MonitorOptions extends CallOptions, ReadPageOptions {
  /** Default daily; not with `cron`. */
  interval?: MonitorInterval;
  /** A 5-field cron expression instead of an interval (at most hourly), e.g. "0 9 * * 1-5". */
  cron?: string;
  /** The IANA time zone `cron` is read in, e.g. "Europe/Paris" (default UTC). */
  timezone?: string;
  webhookUrl?: string;
  /** Lines left out before hashing and diffing: plain substrings (any case) or `/regex/flags`. */
  ignoreText?: string[];
  /** Share of words (0–1) that must change for a change to count; 0 (default) = any. */
  threshold?: number;
  /** At most 1,000 characters: each change is judged against it by the extract model (+5 credits). */
  goal?: string;
  /** The webhook's body: the spec's JSON (default), or a Slack / Discord incoming-webhook message. */
  webhookFormat?: 'json' | 'slack' | 'discord';
}

/** PATCH /v1/monitor/:id: only the fields given change. */
export interface MonitorUpdateOptions extends CallOptions {
  interval?: MonitorInterval;
  cron?: string;
  timezone?: string;
  /** null removes the webhook. */
  webhookUrl?: string | null;
  webhookFormat?: 'json' | 'slack' | 'discord';
  /** [] clears the rules; new rules make the next check a new baseline. */
  ignoreText?: string[];
  threshold?: number;
  /** null removes the goal. */
  goal?: string | null;
}

export type MonitorStatus = Monitor['status'];

export interface BatchItem {
  /** Echoed back on the item's result. */
  id?: string;
  url: string;
}

/** Page options apply to every item. */
export interface BatchOptions extends CallOptions, PageOptions {
  format?: Format;
  onlyMainContent?: boolean;
}

export interface UsageOptions extends CallOptions {
  /** Days back, today included: 1–366 (default 30). */
  days?: number;
}

export interface LedgerFilter extends CallOptions {
  /** Ledger reasons to keep (`'scrape'`, `['scrape', 'scrape_refund']`…); a list is sent comma-joined. */
  reason?: string | readonly string[];
}

export interface LedgerOptions extends LedgerFilter {
  /** Rows per page, 1–500 (default 50). */
  limit?: number;
  /** The `id` of the last row of the previous page (newest first, so: older rows). */
  cursor?: string;
}

export interface KeyCreateOptions extends CallOptions {
  /** A label shown in key listings (≤ 100 characters). */
  name?: string;
  /** Credits the key may spend per UTC day (resets 00:00 UTC); null/absent = no limit. */
  dailyCreditLimit?: number | null;
  /** Credits the key may spend per UTC calendar month (resets the 1st, 00:00 UTC); null/absent = no limit. */
  monthlyCreditLimit?: number | null;
}

/** PATCH /v1/keys/:id: a field left out stays; `null` removes a limit (or the name). */
export interface KeyUpdateOptions extends CallOptions {
  name?: string | null;
  dailyCreditLimit?: number | null;
  monthlyCreditLimit?: number | null;
}
