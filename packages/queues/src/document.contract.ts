import { z } from 'zod';
import { fetchAttempt } from './fetch-attempt.contract';

/**
 * The document contract: what a scraped page is, in one place. The scrape worker returns it, the
 * gateway validates every job result against it when the job comes back from the queue
 * (`waitForJob` with the catalog's `result` schema), and the gateway's OpenAPI responses are
 * generated from it (`services/gateway/src/contract/responses.ts`). Objects are strict: a field
 * that is not declared here is a contract violation, not a silent extra.
 */

/** Page metadata: the named fields `@wcs/content` produces, plus the scrape's own. */
export const pageMetadata = z.strictObject({
  title: z.string().nullable(),
  description: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  canonicalUrl: z.string().nullable().optional(),
  /** The target's HTTP status. */
  statusCode: z.number().int(),
  /** The URL as the caller asked for it (before redirects). */
  sourceURL: z.string(),
  /** Where redirects ended. */
  finalUrl: z.string().optional(),
  // Extension fields: present when the page declares them.
  ogImage: z.string().nullable().optional(),
  author: z.string().nullable().optional(),
  publishedTime: z.string().nullable().optional(),
  /**
   * What kind of page this is, classified from its structured data, URL and shape (HTML pages):
   * article, forum, product, collection (a shop's category), listing (posts, results, news),
   * documentation or service (what a business offers).
   */
  pageType: z
    .enum(['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'])
    .optional(),
  /**
   * When the stored copy this document was made from was fetched (ISO time): page-cache hits
   * (`maxAge`) and search results served from the embedded index's stored copy.
   */
  cachedAt: z.string().optional(),
  /**
   * Requests that read the page cache (`maxAge` > 0): `hit` when the page came from it, `miss` when
   * it was fetched, `revalidated` when the stored copy was older than `maxAge` and the site answered
   * `304 Not Modified` to its validators (ETag, Last-Modified): the copy was served, nothing downloaded.
   */
  cacheState: z.enum(['hit', 'miss', 'revalidated']).optional(),
  /**
   * Tracked pages (`changeTracking`) answered with the account's stored copy, nothing downloaded:
   * `not-modified` when the site answered `304 Not Modified` to the copy's validators,
   * `sitemap-lastmod` when a crawl with `trustSitemapLastmod` did not ask for the page at all (its
   * sitemap `<lastmod>` is not after the copy).
   */
  revalidatedBy: z.enum(['not-modified', 'sitemap-lastmod']).optional(),
  /** The response's media type, e.g. `text/html`. */
  contentType: z.string().optional(),
  /** Documents (PDF): pages in the file (all of them, also past the page cap). */
  pages: z.number().int().optional(),
  /** Documents (PDF, DOCX): when the document says it was created (ISO time). */
  createdAt: z.string().optional(),
  /**
   * What the page is, judged before billing: `content`, or `parked` / `login-wall` / `empty`
   * (delivered with `data.warning`). `blocked`, `soft-404` and `error-page` pages fail instead.
   */
  verdict: z
    .enum(['content', 'blocked', 'soft-404', 'error-page', 'parked', 'login-wall', 'empty'])
    .optional(),
  /**
   * Only when the page needed escalation (a wall, a `Retry-After`): every step the fetch ladder
   * took, in order, the last one being the answer this document was made from.
   */
  attempts: z.array(fetchAttempt).optional(),
});

const structuredBlock = z.strictObject({
  type: z.enum(['heading', 'paragraph', 'list', 'table', 'code', 'quote', 'image']),
  text: z.string().optional(),
  level: z.number().int().optional(),
  items: z.array(z.string()).optional(),
  ordered: z.boolean().optional(),
  rows: z.array(z.array(z.string())).optional(),
  language: z.string().nullable().optional(),
  src: z.string().optional(),
  alt: z.string().optional(),
});

/** The `json` format: metadata, headings, blocks and links of the page. */
export const structuredDocument = z.strictObject({
  metadata: pageMetadata.extend({ statusCode: z.number().int().optional() }),
  headings: z.array(z.strictObject({ level: z.number().int(), text: z.string() })),
  blocks: z.array(structuredBlock),
  links: z.array(z.strictObject({ url: z.string(), text: z.string() })),
});

/** What the `actions` page option produced (Firecrawl's `data.actions`). */
export const actionOutputs = z.strictObject({
  /** URLs of the `screenshot` actions' PNGs, in action order (served like `screenshot`). */
  screenshots: z.array(z.string()),
  /** What each `executeJavascript` action returned, in action order. */
  javascriptReturns: z.array(z.strictObject({ type: z.string(), value: z.unknown() })),
});

/**
 * The `changeTracking` format: this page against the same account's previous scrape of the same
 * URL (URL key) and `changeTrackingOptions.tag`. `same` when only markup changed (the markdown
 * normalised as the monitors do); `removed` when the page answered 404/410 where it had content.
 * `visibility`: `hidden` for crawl pages reached only through a sitemap, else `visible`.
 */
export const changeTrackingResult = z.strictObject({
  previousScrapeAt: z.string().nullable(),
  changeStatus: z.enum(['new', 'same', 'changed', 'removed']),
  visibility: z.enum(['visible', 'hidden']),
  /** `git-diff` mode, when a previous scrape had content: the unified diff and its structured form. */
  diff: z
    .strictObject({
      /** Unified diff of the markdown ('' when the same), lines starting `+` / `-`. */
      text: z.string(),
      /** Firecrawl's structured form: `{ files: [{ from, to, additions, deletions, chunks }] }`. */
      json: z.record(z.string(), z.unknown()),
      /** Lines or text were left out to stay within bounds. */
      truncated: z.boolean().optional(),
    })
    .optional(),
  /** `json` mode: the values extracted from the previous and the current markdown. */
  json: z.strictObject({ previous: z.unknown(), current: z.unknown() }).optional(),
});
export type ChangeTrackingResult = z.infer<typeof changeTrackingResult>;

/**
 * What a page becomes: the `data` object of scrape responses and batch results. Without `formats`
 * it holds markdown, html and text (and json for format `json`); with `formats`, exactly the fields
 * those formats name.
 */
export const scrapeDocument = z.strictObject({
  markdown: z.string().optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  /** Only when the format is `json`. */
  json: structuredDocument.optional(),
  /** `rawHtml`: the page as the engine returned it (the browser's DOM after its actions), uncleaned. */
  rawHtml: z.string().optional(),
  /** `links`: every link of the page, absolute, de-duplicated, in page order. */
  links: z.array(z.string()).optional(),
  /** `images`: every image URL of the page, absolute, de-duplicated, in page order. */
  images: z.array(z.string()).optional(),
  /**
   * `screenshot` / `screenshot@fullPage`: a capability URL of the PNG, served to whoever holds it
   * (no key) until the screenshot expires.
   */
  screenshot: z.string().optional(),
  actions: actionOutputs.optional(),
  /** `changeTracking` format: how the page compares with the account's previous scrape of it. */
  changeTracking: changeTrackingResult.optional(),
  /** `summary`: a few sentences on the main content, written by the extract model. */
  summary: z.string().optional(),
  metadata: pageMetadata,
  /**
   * Set when the page was cut before conversion (HTML, element, nesting, text-node or link caps
   * of @wcs/content): the content is partial. Same place as Firecrawl's `data.warning`.
   */
  warning: z.string().optional(),
});

/** Return value of a `scrape` job. */
export const scrapeJobResult = z.strictObject({
  data: scrapeDocument,
  engine: z.enum(['fetch', 'browser']),
  elapsedMs: z.number(),
  /**
   * Where the worker's time went (the gateway's `Server-Timing` header): epoch ms at the job's start
   * and end (the gateway derives the queue wait and the answer's way back from them), stage ms.
   * Optional: a worker of an older release answers without it.
   */
  timings: z
    .strictObject({
      startedAt: z.number(),
      finishedAt: z.number(),
      fetchMs: z.number(),
      contentMs: z.number(),
      persistMs: z.number(),
    })
    .optional(),
});

/** Return value of a `map` job. */
/** A map's link with what is known of its page (fetched during the map: the start page, shallow pages). */
export const mapLinkDetail = z.strictObject({
  url: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
});

export const mapJobResult = z.strictObject({
  links: z.array(z.string()),
  total: z.number().int(),
  /** With `linkMetadata`: `links` in the same order, each with its page's title and description when known. */
  pages: z.array(mapLinkDetail).optional(),
  /** What went wrong without failing the map (the start page failed, but other sources gave links). */
  warning: z.string().optional(),
});

/** Model use of one extraction; token counts are estimates (characters / 4) when `estimated`. */
export const extractUsage = z.strictObject({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Every model call: chunks, repair turns and retries. */
  modelCalls: z.number().int().nonnegative(),
  /** Chunks the page was read in. */
  chunks: z.number().int().min(1),
  /** Chunks left out of `data`: their calls failed twice, or their answer stayed invalid. */
  failedChunks: z.number().int().nonnegative(),
  /** Whether some token counts are estimates (the provider reported none). */
  estimated: z.boolean(),
});

/** Return value of an `extract` job. */
export const extractJobResult = z.strictObject({
  data: z.record(z.string(), z.unknown()),
  inputTokens: z.number(),
  outputTokens: z.number(),
  model: z.string(),
  /** Model calls the page was extracted in (absent from older workers: 1). */
  chunks: z.number().int().min(1).optional(),
  /** What the extraction cost and read (absent from older workers). */
  usage: extractUsage.optional(),
  /** Part of the page was never read (past EXTRACT_MAX_CHUNKS, or cut to the input budget). */
  truncated: z.boolean().optional(),
  /** Why `data` may be incomplete: the page was cut, or chunks failed. */
  warning: z.string().optional(),
});

export type PageMetadata = z.infer<typeof pageMetadata>;
export type DocumentData = z.infer<typeof scrapeDocument>;
export type ScrapeJobResult = z.infer<typeof scrapeJobResult>;
export type MapJobResult = z.infer<typeof mapJobResult>;
export type ExtractJobResult = z.infer<typeof extractJobResult>;
export type ExtractUsage = z.infer<typeof extractUsage>;
