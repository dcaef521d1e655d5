import { type OutputFormat, processDocument } from '@wcs/content';
import { TargetBlockedError, TargetHttpError } from '@wcs/errors';
import { BLOCK_STATUSES, type RequestOptions } from '@wcs/net';
import type { DocumentData } from '@wcs/queues';
import type { EngineName, Renderer, RenderResult } from '@wcs/renderer';

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
  return { data: documentFromPage(page, req), engine: page.engine, elapsedMs: page.elapsedMs };
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

/** The CPU half of `scrapeDocument`: a fetched page -> markdown/html/text(/json) + metadata. */
export function documentFromPage(
  page: RenderResult,
  req: Pick<ScrapeRequest, 'url' | 'format' | 'onlyMainContent'>,
): DocumentData {
  const formats: OutputFormat[] =
    req.format === 'json' ? ['markdown', 'html', 'text', 'json'] : ['markdown', 'html', 'text'];
  const doc = processDocument(
    {
      body: page.body,
      contentType: page.contentType,
      url: page.finalUrl,
      sourceUrl: req.url,
      statusCode: page.statusCode,
    },
    { onlyMainContent: req.onlyMainContent, formats },
  );
  return {
    markdown: doc.markdown,
    html: doc.html,
    text: doc.text,
    ...(doc.json !== undefined ? { json: doc.json } : {}),
    metadata: { ...doc.metadata, title: doc.metadata.title, statusCode: page.statusCode, sourceURL: req.url },
  };
}
