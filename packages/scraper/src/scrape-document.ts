import type { OutputFormat } from '@wcs/content';
import { TargetBlockedError, TargetHttpError } from '@wcs/errors';
import { BLOCK_STATUSES, type RequestOptions } from '@wcs/net';
import type { DocumentData } from '@wcs/queues';
import type { EngineName, Renderer, RenderResult } from '@wcs/renderer';
import { type ContentPool, type ConvertedPage, sharedContentPool } from './content-pool';

export interface ScrapeRequest {
  url: string;
  format: OutputFormat;
  onlyMainContent: boolean;
  engine?: 'auto' | EngineName;
  waitForMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per-request options (headers, cookies, proxy) passed through to the renderer unchanged. */
  request?: RequestOptions;
}

export interface ScrapeOutcome {
  data: DocumentData;
  engine: EngineName;
  elapsedMs: number;
}

/**
 * One URL -> document: the step every feature shares (scrape, batch items, crawl pages, extract,
 * monitor checks). HTTP error statuses fail the scrape, so callers never pay for an error page.
 */
export async function scrapeDocument(renderer: Renderer, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const page = await fetchPage(renderer, req);
  const { data } = await documentFromPage(page, req);
  return { data, engine: page.engine, elapsedMs: page.elapsedMs };
}

/**
 * The network half of `scrapeDocument`: render the URL and turn error statuses into errors. The
 * crawler calls it on its own so it can hold a per-host slot only while the site is being
 * fetched, and so it gets the raw HTML for link extraction.
 */
export async function fetchPage(
  renderer: Renderer,
  req: Omit<ScrapeRequest, 'format' | 'onlyMainContent'>,
): Promise<RenderResult> {
  const page = await renderer.render({
    url: req.url,
    engine: req.engine ?? 'auto',
    ...(req.waitForMs ? { waitForMs: req.waitForMs } : {}),
    timeoutMs: req.timeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.request ? { request: req.request } : {}),
  });
  if (BLOCK_STATUSES.has(page.statusCode)) {
    throw new TargetBlockedError(`Target refused automated access (HTTP ${page.statusCode})`, {
      details: { statusCode: page.statusCode },
    });
  }
  if (page.statusCode >= 400) throw new TargetHttpError(page.statusCode);
  return page;
}

export interface DocumentRequest
  extends Pick<ScrapeRequest, 'url' | 'format' | 'onlyMainContent' | 'signal'> {
  /** Also return the page's links, read from the same parse (crawl pages). */
  links?: boolean;
  /** Time left for the conversion when less than the pool's budget (a job near its deadline). */
  budgetMs?: number;
}

/**
 * The CPU half of `scrapeDocument`: a fetched page -> markdown/html/text(/json) + metadata (and
 * links on request), converted in the content pool (content-pool.ts) under its caps and budget.
 * `data.warning` says when the page was cut.
 */
export async function documentFromPage(
  page: RenderResult,
  req: DocumentRequest,
  pool: ContentPool = sharedContentPool(),
): Promise<ConvertedPage> {
  return pool.run(
    {
      body: page.body,
      contentType: page.contentType,
      finalUrl: page.finalUrl,
      sourceUrl: req.url,
      statusCode: page.statusCode,
      format: req.format,
      onlyMainContent: req.onlyMainContent,
      links: req.links === true,
    },
    req.signal,
    req.budgetMs,
  );
}
