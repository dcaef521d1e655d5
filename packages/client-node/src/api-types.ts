/** Request options and response bodies of the API, as the service README documents them. */

export type Format = 'markdown' | 'html' | 'text' | 'json';
export type Engine = 'auto' | 'fetch' | 'browser';
export type MonitorInterval = 'hourly' | 'daily' | 'weekly';

/** Options every call accepts. */
export interface CallOptions {
  /** Cancels the call (and a polling helper's wait). */
  signal?: AbortSignal;
}

export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  canonicalUrl?: string;
  statusCode?: number;
  sourceURL?: string;
  finalUrl?: string;
  [key: string]: unknown;
}

export interface ScrapeOptions extends CallOptions {
  format?: Format;
  onlyMainContent?: boolean;
  engine?: Engine;
  /** Extra wait after load in ms (implies the browser). */
  waitFor?: number;
  /** The server's budget for the whole scrape in ms (1000–120000). */
  timeout?: number;
}

export interface ScrapedDocument {
  markdown: string;
  html: string;
  text: string;
  metadata: PageMetadata;
  json?: Record<string, unknown>;
}

export interface ScrapeResponse {
  success: true;
  data: ScrapedDocument;
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
}

export interface CrawlStartResponse {
  success: true;
  id: string;
  url: string;
}

export type CrawlStatusValue = 'pending' | 'processing' | 'done' | 'failed';

export interface CrawledPage {
  url: string;
  markdown: string;
  metadata: PageMetadata;
  html?: string;
  text?: string;
  json?: Record<string, unknown>;
}

export interface FailedPage {
  url: string;
  error: string;
  code: string;
  statusCode?: number;
}

export interface CrawlStatus {
  success: true;
  id: string;
  status: CrawlStatusValue;
  url: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  /** Terminal crawls only: completed, max_pages, cancelled, out_of_credits, timeout, error. */
  stopReason?: string;
  error?: string;
  pages: CrawledPage[];
  failedPages: FailedPage[];
  /** Present while either list has more (see `skip`/`limit`). */
  next?: string;
}

export interface PageOptions extends CallOptions {
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
  timeout?: number;
}

export interface MapResponse {
  success: true;
  links: string[];
  total: number;
  /** Present when the start page failed (or was not HTML) but sitemaps or links still gave URLs. */
  warning?: string;
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
  timeout?: number;
}

export interface SearchResult {
  url: string;
  title: string;
  description: string;
  /** null when this page failed to scrape while the call as a whole succeeded. */
  markdown?: string | null;
  metadata?: PageMetadata;
  html?: string;
  text?: string;
  json?: Record<string, unknown>;
  error?: string;
  code?: string;
}

export interface SearchResponse {
  success: true;
  data: SearchResult[];
  creditsUsed: number;
}

/** "string" | "number" | "boolean", a one-element array of a shape, or an object of shapes. */
export type ExtractSchema =
  | 'string'
  | 'number'
  | 'boolean'
  | [ExtractSchema]
  | { [key: string]: ExtractSchema };

export interface ExtractOptions extends CallOptions {
  schema?: { [key: string]: ExtractSchema };
  prompt?: string;
  timeout?: number;
}

export interface ExtractResponse<T = Record<string, unknown>> {
  success: true;
  data: T;
}

export interface MonitorOptions extends CallOptions {
  interval?: MonitorInterval;
  webhookUrl?: string;
}

export type MonitorStatus = 'active' | 'paused' | 'cancelled';

export interface Monitor {
  id: string;
  url: string;
  interval: MonitorInterval;
  status: MonitorStatus;
  createdAt: string;
  webhookUrl?: string;
  lastCheckAt?: string | null;
  nextCheckAt?: string | null;
}

export interface MonitorChange {
  id: string;
  detectedAt: string;
  hash: string;
  snapshot: string;
}

export interface MonitorCheck {
  checkedAt: string;
  changed: boolean;
  hash?: string;
  error?: string;
  code?: string;
}

export interface WebhookDelivery {
  changeId: string;
  url: string;
  attemptedAt: string;
  statusCode?: number | null;
  durationMs?: number | null;
  error?: string | null;
}

export interface MonitorDetail extends Monitor {
  checkCount: number;
  changes: MonitorChange[];
  checks: MonitorCheck[];
  webhookDeliveries: WebhookDelivery[];
}

export interface MonitorResponse {
  success: true;
  data: Monitor;
}

export interface MonitorDetailResponse {
  success: true;
  data: MonitorDetail;
}

export interface MonitorListResponse {
  success: true;
  total: number;
  data: Monitor[];
  next?: string;
}

export interface BatchItem {
  /** Echoed back on the item's result. */
  id?: string;
  url: string;
}

export interface BatchOptions extends CallOptions {
  format?: Format;
  onlyMainContent?: boolean;
}

export interface BatchStartResponse {
  success: true;
  id: string;
  total: number;
}

export interface BatchResult {
  id?: string;
  url: string;
  status: 'done' | 'failed';
  data?: ScrapedDocument;
  error?: string;
}

export interface BatchStatus {
  success: true;
  id: string;
  status: 'pending' | 'processing' | 'done';
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  results: BatchResult[];
  next?: string;
}

export interface WebhookSecretResponse {
  success: true;
  data: { secret: string };
}
