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

export interface ScrapeOptions extends CallOptions {
  format?: Format;
  onlyMainContent?: boolean;
  engine?: Engine;
  /** Extra wait after load in ms (implies the browser). */
  waitFor?: number;
  /** The server's budget for the whole scrape in ms (1000–120000). */
  timeout?: number;
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

export type CrawlStatusValue = CrawlStatus['status'];

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

/** `ExtractResponseBody` with `data` typed as the shape you asked for. */
export interface ExtractResponse<T = Record<string, unknown>> extends Omit<ExtractResponseBody, 'data'> {
  data: T;
}

export interface MonitorOptions extends CallOptions {
  interval?: MonitorInterval;
  webhookUrl?: string;
}

export type MonitorStatus = Monitor['status'];

export interface BatchItem {
  /** Echoed back on the item's result. */
  id?: string;
  url: string;
}

export interface BatchOptions extends CallOptions {
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
}
