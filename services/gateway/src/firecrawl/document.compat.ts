/**
 * A native document (`DocumentData` of @wcs/queues) → a Firecrawl `Document` (the SDK's v2
 * `Document`, v1 `FirecrawlDocument`). Only a renaming: the content is the native one.
 * Used by scrape, search, crawl and batch compat routes; keep the exported API stable.
 */
import type { DocumentData } from '@wcs/queues';
import type { FirecrawlFormat } from './scrape-options.compat';

export interface FirecrawlDocumentMetadata {
  title?: string;
  description?: string;
  language?: string;
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType?: string;
  error?: string;
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  creditsUsed?: number;
  scrapeId?: string;
  ogImage?: string;
  author?: string;
  publishedTime?: string;
  canonicalUrl?: string;
  numPages?: number;
  createdAt?: string;
  proxyUsed?: 'basic';
  /** Ours, passed through: what the page is (`content`, or `parked` / `login-wall` / `empty` with `warning`). */
  verdict?: NonNullable<DocumentData['metadata']['verdict']>;
}

export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  /** A capability URL of our stored PNG, served without a key until it expires (GET /v1/screenshots/:token.png). */
  screenshot?: string;
  json?: unknown;
  /** The changeTracking format: the native `changeTracking` object, unchanged (Firecrawl's shape). */
  changeTracking?: NonNullable<DocumentData['changeTracking']>;
  /** The `summary` format: a few sentences on the main content by the extract model. */
  summary?: string;
  actions?: {
    screenshots: string[];
    javascriptReturns: Array<{ type: string; value: unknown }>;
    /** Firecrawl's `scrape` and `pdf` actions are refused, so these are always empty. */
    scrapes: Array<{ url: string; html: string }>;
    pdfs: string[];
  };
  warning?: string;
  metadata: FirecrawlDocumentMetadata;
}

export interface ToFirecrawlDocumentOptions {
  /** Keep only these content fields (e.g. no markdown when only `json` was asked for). */
  wanted?: readonly FirecrawlFormat[];
  /** The result of a `json` format's LLM extraction. */
  json?: unknown;
  creditsUsed?: number;
  scrapeId?: string;
  /** Set on a page that failed (crawl/batch): Firecrawl's `metadata.error`. */
  error?: string;
}

export function toFirecrawlDocument(
  doc: DocumentData,
  o: ToFirecrawlDocumentOptions = {},
): FirecrawlDocument {
  const keep = (f: FirecrawlFormat) => o.wanted === undefined || o.wanted.includes(f);
  const m = doc.metadata;
  const metadata: FirecrawlDocumentMetadata = {
    ...(m.title ? { title: m.title } : {}),
    ...(m.description ? { description: m.description } : {}),
    ...(m.language ? { language: m.language } : {}),
    sourceURL: m.sourceURL,
    url: m.finalUrl ?? m.sourceURL,
    statusCode: m.statusCode,
    ...(m.contentType ? { contentType: m.contentType } : {}),
    ...(o.error ? { error: o.error } : {}),
    // Firecrawl names two states: a copy revalidated with a 304 is a copy served, a hit.
    ...(m.cacheState ? { cacheState: m.cacheState === 'revalidated' ? 'hit' : m.cacheState } : {}),
    ...(m.cachedAt ? { cachedAt: m.cachedAt } : {}),
    ...(o.creditsUsed !== undefined ? { creditsUsed: o.creditsUsed } : {}),
    ...(o.scrapeId ? { scrapeId: o.scrapeId } : {}),
    ...(m.ogImage ? { ogImage: m.ogImage } : {}),
    ...(m.author ? { author: m.author } : {}),
    ...(m.publishedTime ? { publishedTime: m.publishedTime } : {}),
    ...(m.canonicalUrl ? { canonicalUrl: m.canonicalUrl } : {}),
    ...(m.pages !== undefined ? { numPages: m.pages } : {}),
    ...(m.createdAt ? { createdAt: m.createdAt } : {}),
    ...(m.verdict ? { verdict: m.verdict } : {}),
    // Direct or through the deployment's PROXY_URLS: what Firecrawl calls the basic proxy.
    proxyUsed: 'basic',
  };
  return {
    ...(doc.markdown !== undefined && keep('markdown') ? { markdown: doc.markdown } : {}),
    ...(doc.html !== undefined && keep('html') ? { html: doc.html } : {}),
    ...(doc.rawHtml !== undefined && keep('rawHtml') ? { rawHtml: doc.rawHtml } : {}),
    ...(doc.links !== undefined && keep('links') ? { links: doc.links } : {}),
    ...(doc.images !== undefined && keep('images') ? { images: doc.images } : {}),
    ...(doc.screenshot !== undefined && keep('screenshot') ? { screenshot: doc.screenshot } : {}),
    ...(o.json !== undefined ? { json: o.json } : {}),
    ...(doc.changeTracking !== undefined && keep('changeTracking')
      ? { changeTracking: doc.changeTracking }
      : {}),
    ...(doc.summary !== undefined && keep('summary') ? { summary: doc.summary } : {}),
    ...(doc.actions
      ? {
          actions: {
            screenshots: doc.actions.screenshots,
            javascriptReturns: doc.actions.javascriptReturns,
            scrapes: [],
            pdfs: [],
          },
        }
      : {}),
    ...(doc.warning ? { warning: doc.warning } : {}),
    metadata,
  };
}
