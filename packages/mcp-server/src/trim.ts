/**
 * Pure shaping of what crawl and batch tools hand back to the model: every page or result is
 * cut down to `url` + `markdown` (metadata, html and text would flood the model's context) — or,
 * when the call named `formats`, to `url` + exactly those — plus the page's verdict and warning
 * when it is not plain content, a failure's code, and the URL fix-up batch scrape needs
 * because the API does not add `https://` there.
 */
import type { BatchStatus, CrawlStatus, PageFormat } from '@wcs/client-node';
import { formatKeys } from './tools/page-option-inputs.js';

/** Scheme check mirroring the gateway's: `localhost:8080/x` is a host and port, not a scheme. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const HOST_AND_PORT = /^[^/:]+:\d+(\/|$)/;

/**
 * `example.com/a` → `https://example.com/a`, `//example.com` → `https://example.com`; URLs with a
 * scheme (`http://…`, `https://…`, even `ftp://…`, which the API then rejects) are untouched.
 */
export function withHttps(url: string): string {
  const input = url.trim();
  if (HAS_SCHEME.test(input) && !HOST_AND_PORT.test(input)) return input;
  return `https://${input.replace(/^\/\//, '')}`;
}

/**
 * A page or batch result as the model sees it: `url` + `markdown`, or with `formats` `url` + the
 * fields they name (null when the page has none; a screenshot is its URL).
 */
export interface TrimmedPage {
  url: string;
  markdown?: string | null;
  [format: string]: unknown;
}

/** Keys a document may hold that the model sees only when it asked for them by `formats`. */
type PageDoc = {
  markdown?: string | null | undefined;
  warning?: string | undefined;
  metadata?: { verdict?: string | undefined } | undefined;
};

function trimPage(
  url: string,
  doc: PageDoc | undefined,
  formats: readonly PageFormat[] | undefined,
): TrimmedPage {
  return { ...formatFields(url, doc, formats), ...notes(doc) };
}

/**
 * What the page is when it is not plain content (a parked domain, a login wall, an empty app
 * shell) and the warning that says so: the model must not read such a page as the site's text.
 */
function notes(doc: PageDoc | undefined): { verdict?: string; warning?: string } {
  const verdict = doc?.metadata?.verdict;
  return {
    ...(verdict && verdict !== 'content' ? { verdict } : {}),
    ...(doc?.warning ? { warning: doc.warning } : {}),
  };
}

function formatFields(
  url: string,
  doc: PageDoc | undefined,
  formats: readonly PageFormat[] | undefined,
): TrimmedPage {
  const fields = (doc ?? {}) as Record<string, unknown>;
  if (!formats) {
    if (typeof doc?.markdown === 'string' || !doc) return { url, markdown: doc?.markdown ?? '' };
    // A job started with `formats` but read without them (the status tools): what the page has.
    const page: TrimmedPage = { url };
    for (const key of FORMAT_FIELDS) if (fields[key] !== undefined) page[key] = fields[key];
    return page;
  }
  const page: TrimmedPage = { url };
  for (const key of formatKeys(formats)) page[key] = fields[key] ?? null;
  return page;
}

/** Document fields that hold a format's content (metadata and the rest stay out). */
const FORMAT_FIELDS = ['html', 'rawHtml', 'text', 'json', 'links', 'images', 'screenshot'] as const;

export interface TrimmedFailure {
  url: string;
  error: string;
  /** The API's code (TARGET_HTTP_ERROR for a 404 or a "not found" page, TARGET_BLOCKED for a wall…). */
  code?: string;
}

export interface TrimmedCrawl {
  id: string;
  status: CrawlStatus['status'];
  /** Terminal crawls only: completed, max_pages, cancelled, out_of_credits, key_budget_exceeded, timeout, error. */
  stopReason?: string;
  /** Why a `failed` crawl stopped. */
  error?: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  pages: TrimmedPage[];
  failedPages: TrimmedFailure[];
}

export interface TrimmedBatch {
  id: string;
  status: BatchStatus['status'];
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  /** Items that were scraped. */
  results: TrimmedPage[];
  /** Items that failed (not billed). */
  failures: TrimmedFailure[];
}

type CrawlSnapshot = Pick<
  CrawlStatus,
  'id' | 'status' | 'stopReason' | 'error' | 'total' | 'completed' | 'failed' | 'creditsUsed'
> & {
  pages: ReadonlyArray<{ url: string } & PageDoc>;
  failedPages: ReadonlyArray<
    Pick<CrawlStatus['failedPages'][number], 'url' | 'error'> & { code?: string | undefined }
  >;
};

type BatchSnapshot = Pick<BatchStatus, 'id' | 'status' | 'total' | 'completed' | 'failed' | 'creditsUsed'> & {
  results: ReadonlyArray<{
    url: string;
    status: 'done' | 'failed';
    data?: PageDoc;
    error?: string;
    code?: string;
  }>;
};

export function trimCrawl(crawl: CrawlSnapshot, formats?: readonly PageFormat[]): TrimmedCrawl {
  return {
    id: crawl.id,
    status: crawl.status,
    ...(crawl.stopReason !== undefined ? { stopReason: crawl.stopReason } : {}),
    ...(crawl.error ? { error: crawl.error } : {}),
    total: crawl.total,
    completed: crawl.completed,
    failed: crawl.failed,
    creditsUsed: crawl.creditsUsed,
    pages: crawl.pages.map((page) => trimPage(page.url, page, formats)),
    failedPages: crawl.failedPages.map((page) => ({
      url: page.url,
      error: page.error,
      ...(page.code ? { code: page.code } : {}),
    })),
  };
}

export function trimBatch(batch: BatchSnapshot, formats?: readonly PageFormat[]): TrimmedBatch {
  const results: TrimmedPage[] = [];
  const failures: TrimmedFailure[] = [];
  for (const item of batch.results) {
    if (item.status === 'done') results.push(trimPage(item.url, item.data, formats));
    else
      failures.push({
        url: item.url,
        error: item.error ?? 'failed (no message)',
        ...(item.code ? { code: item.code } : {}),
      });
  }
  return {
    id: batch.id,
    status: batch.status,
    total: batch.total,
    completed: batch.completed,
    failed: batch.failed,
    creditsUsed: batch.creditsUsed,
    results,
    failures,
  };
}
