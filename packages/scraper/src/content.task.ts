/**
 * One page's conversion, as run inside a content thread (content-worker.cjs loads this file): the
 * rendered body → the formats asked for (markdown/html/text/json, rawHtml, links, images) +
 * metadata + (for the crawler) its links, from one parse and one content step. Errors are returned wire-encoded, since a thrown ServiceError would lose its kind when
 * cloned across the thread boundary.
 */
import type { MessagePort } from 'node:worker_threads';
import {
  type BlockSignal,
  detectBlock,
  type OutputFormat,
  type PageLinks,
  type ProcessedContent,
  type ProcessOptions,
  pageLinkUrls,
  processDocument,
  type VerdictResult,
} from '@wcs/content';
import type { ExtractedLink } from '@wcs/discovery';
import { identifyUrl } from '@wcs/discovery/normalize-url';
import {
  type ConvertedDocument,
  type ConvertOptions,
  convertDocument,
  type DocumentKind,
} from '@wcs/documents';
import { encodeError } from '@wcs/errors';
// Subpaths: the thread loads neither undici nor the fetch engine (~0.1 s of a cold thread's start).
import { decodeBodyPieces } from '@wcs/net/charset';
import { TextPieces } from '@wcs/net/text-pieces';
import type { DocumentData, PageFormat } from '@wcs/queues';
import { needsJavaScript } from '@wcs/renderer/js-detector';
import { type CompressedBody, compressBody } from './page-body-codec';

export interface ContentTask {
  body: string;
  contentType: string;
  /** Where redirects ended: links and images resolve against it. */
  finalUrl: string;
  /** What the caller asked for. */
  sourceUrl: string;
  statusCode: number;
  /** The answer's headers (lower-case names), for the verdict. */
  headers?: Record<string, string>;
  format: OutputFormat;
  onlyMainContent: boolean;
  /** Return the page's links too (crawl pages, map). */
  links: boolean;
  /**
   * The `formats` page option: data holds exactly the fields these name (`rawHtml` = `body`;
   * `links`/`images` = the page's absolute URLs; screenshots are added by the caller). Absent:
   * markdown, html and text (+ json for format `json`), as before.
   */
  formats?: PageFormat[];
  /** CSS selectors: keep only these elements (and what they contain) before the main-content step. */
  includeTags?: string[];
  /** CSS selectors: remove these elements before the main-content step. */
  excludeTags?: string[];
  /** Time budget of the includeTags/excludeTags matching, ms (the pool sets CONTENT_SELECTOR_BUDGET_MS). */
  selectorBudgetMs?: number;
  /**
   * Set by the pool: the thread writes Date.now() here when it begins the task (its code loaded),
   * so the page's budget counts from then. Shared memory: it crosses the thread boundary.
   */
  begunAt?: BigInt64Array;
  /**
   * A PDF or Word file: converted to HTML by @wcs/documents first (`body` is then ignored), and
   * that HTML goes through the same pipeline. The pool transfers these bytes to the thread.
   */
  bytes?: Uint8Array;
  documentKind?: DocumentKind;
  /** Pages of a PDF read at most (default 500 of @wcs/documents). */
  maxPages?: number;
  /** Decompression limits of a document (default DEFAULT_INFLATE_LIMITS of @wcs/documents). */
  inflateLimits?: ConvertOptions['inflateLimits'];
  /** OCR of a PDF without a text layer (the pool sets it from OCR_ENABLED / OCR_LANGUAGES; no signal: it crosses threads). */
  ocr?: Omit<NonNullable<ConvertOptions['ocr']>, 'signal'>;
}

export type ContentTaskResult =
  | { ok: true; data: DocumentData; links?: ExtractedLink[]; verdict: VerdictResult }
  | { ok: false; error: string };

/**
 * A fetched answer as its bytes (`body` unused): the thread decodes them (decodeBodyPieces of @wcs/net:
 * BOM, header, markup, utf-8) and runs, in order, what the worker's event loop ran before on the
 * decoded string — the JavaScript check of the renderer's `auto` (when asked), the fetch ladder's
 * wall check (detectBlock) — and then, for an answer below 400 that is neither, the conversion.
 */
export interface RawPageTask extends ContentTask {
  raw: Uint8Array;
  /** The answer's Content-Type header (charset). */
  contentTypeHeader?: string;
  /** Look for a page that needs JavaScript first (the renderer's `auto` with the browser enabled). */
  jsCheck: boolean;
  /** Return the body for the page cache, Brotli-compressed UTF-8 (a 2xx answer only). */
  cacheBody: boolean;
  /**
   * Where that body goes as soon as it is compressed, before the conversion (its write to the
   * cache then overlaps the conversion); the result says `cachedSent` instead of carrying it.
   */
  cachedPort?: MessagePort;
}

export type RawPageResult =
  | { kind: 'needs-javascript'; text: string }
  | { kind: 'blocked'; block: BlockSignal }
  | {
      kind: 'page';
      /** Absent for an answer of 400 or more (the scraper fails it by its status). */
      converted?: ContentTaskResult;
      /** The decoded body as the page cache keeps it, when asked (`cacheBody`). */
      cached?: CompressedBody;
      /** That body went to `cachedPort` instead (one message, before the conversion). */
      cachedSent?: true;
    };

const MAX_LINK_TEXT = 200;

/** Resolve and de-duplicate like `extractLinks` of @wcs/discovery: first spelling wins, nofollow only if every occurrence. */
function resolveLinks(found: PageLinks, pageUrl: string): ExtractedLink[] {
  let base = pageUrl;
  if (found.baseHref !== null) {
    try {
      base = new URL(found.baseHref, pageUrl).href;
    } catch {
      // invalid <base href>: browsers fall back to the document URL
    }
  }
  const byKey = new Map<string, ExtractedLink>();
  for (const r of found.links) {
    const id = identifyUrl(r.href, base);
    if (!id) continue;
    const text = r.text.replace(/\s+/g, ' ').trim().slice(0, MAX_LINK_TEXT);
    const seen = byKey.get(id.key);
    if (!seen) {
      byKey.set(id.key, { url: id.url, key: id.key, text, nofollow: r.nofollow });
      continue;
    }
    if (!seen.text && text) seen.text = text;
    if (!r.nofollow) seen.nofollow = false;
  }
  return [...byKey.values()];
}

const CONTENT_FORMATS: readonly OutputFormat[] = ['markdown', 'html', 'text', 'json'];

/** What processDocument must compute: only the formats asked for (json only when asked). */
function contentFormats(task: ContentTask): OutputFormat[] {
  const asked = task.formats;
  if (asked) return CONTENT_FORMATS.filter((f) => asked.includes(f));
  return task.format === 'json' ? ['markdown', 'html', 'text', 'json'] : ['markdown', 'html', 'text'];
}

function processOptions(task: ContentTask): Omit<ProcessOptions, 'url' | 'statusCode' | 'sourceUrl'> {
  const opts: Omit<ProcessOptions, 'url' | 'statusCode' | 'sourceUrl'> = {
    onlyMainContent: task.onlyMainContent,
    formats: contentFormats(task),
    links: task.links || (task.formats?.includes('links') ?? false),
    images: task.formats?.includes('images') ?? false,
  };
  if (task.includeTags && task.includeTags.length > 0) opts.includeTags = task.includeTags;
  if (task.excludeTags && task.excludeTags.length > 0) opts.excludeTags = task.excludeTags;
  if (task.selectorBudgetMs !== undefined) opts.selectorBudgetMs = task.selectorBudgetMs;
  if (task.headers) opts.headers = task.headers;
  return opts;
}

/** `data` with exactly the fields `formats` names (screenshots excepted: the caller adds them). */
function pickFormats(
  formats: readonly PageFormat[],
  task: ContentTask,
  doc: ProcessedContent,
  metadata: DocumentData['metadata'],
): DocumentData {
  const has = (f: PageFormat): boolean => formats.includes(f);
  return {
    ...(has('markdown') ? { markdown: doc.markdown } : {}),
    ...(has('html') ? { html: doc.html } : {}),
    ...(has('rawHtml') ? { rawHtml: task.body } : {}),
    ...(has('text') ? { text: doc.text } : {}),
    ...(has('json') && doc.json !== undefined ? { json: doc.json } : {}),
    ...(has('links') ? { links: doc.links ? pageLinkUrls(doc.links, task.finalUrl) : [] } : {}),
    ...(has('images') ? { images: doc.images ?? [] } : {}),
    metadata,
  };
}

/** Document metadata over what the pipeline found in the converted HTML (a PDF's title wins). */
function documentMetadata(found: DocumentData['metadata'], doc: ConvertedDocument): DocumentData['metadata'] {
  return {
    ...found,
    title: doc.metadata.title ?? found.title,
    ...(doc.metadata.author !== null ? { author: doc.metadata.author } : {}),
    ...(doc.metadata.pages !== null ? { pages: doc.metadata.pages } : {}),
    ...(doc.metadata.createdAt !== null ? { createdAt: doc.metadata.createdAt } : {}),
  };
}

/**
 * One page or document, as the content thread runs it: documents (PDF/DOCX bytes) are converted
 * to HTML first and then processed like a page, with `onlyMainContent` already applied by the
 * converter (it knows running headers/footers; the HTML heuristics would misjudge a document).
 */
export async function runContentTask(task: RawPageTask): Promise<RawPageResult>;
export async function runContentTask(task: ContentTask): Promise<ContentTaskResult>;
export async function runContentTask(task: ContentTask): Promise<ContentTaskResult | RawPageResult> {
  if (isRawTask(task)) return runRawPageTask(task);
  if (!task.bytes || !task.documentKind) return runPageTask(task);
  let doc: ConvertedDocument;
  try {
    doc = await convertDocument({
      bytes: task.bytes,
      kind: task.documentKind,
      onlyMainContent: task.onlyMainContent,
      // The bytes are the thread's own (moved here by the pool) and unused after the conversion.
      consumeBytes: true,
      ...(task.maxPages !== undefined ? { maxPages: task.maxPages } : {}),
      ...(task.inflateLimits !== undefined ? { inflateLimits: task.inflateLimits } : {}),
      ...(task.ocr !== undefined ? { ocr: task.ocr } : {}),
    });
  } catch (err) {
    return { ok: false, error: encodeError(err) };
  }
  const { bytes: _bytes, ...rest } = task;
  const out = runPageTask({ ...rest, body: doc.html, onlyMainContent: false }, doc);
  return out;
}

/** One HTML (or text) page: synchronous, as the content thread ran it before documents. */
export function runPageTask(
  task: ContentTask,
  converted?: ConvertedDocument,
  pieces?: readonly string[],
): ContentTaskResult {
  try {
    const doc = processDocument(
      {
        body: task.body,
        ...(pieces ? { pieces } : {}),
        // A converted document is HTML now; its own type stays in metadata.contentType.
        contentType: converted ? 'text/html' : task.contentType,
        url: task.finalUrl,
        sourceUrl: task.sourceUrl,
        statusCode: task.statusCode,
      },
      processOptions(task),
    );
    let metadata: DocumentData['metadata'] = {
      ...doc.metadata,
      title: doc.metadata.title,
      statusCode: task.statusCode,
      sourceURL: task.sourceUrl,
      ...(task.contentType ? { contentType: task.contentType } : {}),
    };
    if (converted) metadata = documentMetadata(metadata, converted);
    const data: DocumentData = task.formats
      ? pickFormats(task.formats, task, doc, metadata)
      : {
          markdown: doc.markdown,
          html: doc.html,
          text: doc.text,
          ...(doc.json !== undefined ? { json: doc.json } : {}),
          metadata,
        };
    const warning = [converted?.warning, doc.warning].filter((w) => w).join(' ');
    if (warning) data.warning = warning;
    data.metadata.verdict = doc.verdict.verdict;
    const verdict = doc.verdict;
    if (!task.links) return { ok: true, data, verdict };
    return { ok: true, data, verdict, links: doc.links ? resolveLinks(doc.links, task.finalUrl) : [] };
  } catch (err) {
    return { ok: false, error: encodeError(err) };
  }
}

const isRawTask = (task: ContentTask): task is RawPageTask =>
  (task as Partial<RawPageTask>).raw !== undefined;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** A fetched answer's bytes → the checks the event loop used to run on its text, then the page. */
export function runRawPageTask(task: RawPageTask): RawPageResult {
  const bytes = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  // Kept in the decoder's pieces: on a large page the checks read a part, the parser the pieces,
  // and the whole text is copied into one string only by a reader that needs it (text-pieces.ts).
  const { pieces, charset } = decodeBodyPieces(bytes, task.contentTypeHeader);
  const decoded = new TextPieces(pieces);
  const text = decoded.text;
  if (task.jsCheck && needsJavaScript(decoded)) return { kind: 'needs-javascript', text };
  const block = detectBlock({
    statusCode: task.statusCode,
    headers: task.headers ?? {},
    body: text,
    prefix: (chars) => decoded.slice(0, chars),
  });
  if (block) return { kind: 'blocked', block };
  let cached: CompressedBody | undefined;
  if (task.cacheBody && task.statusCode >= 200 && task.statusCode < 300) {
    // UTF-8 bytes decode to this very text (bad sequences too): no second encoding, BOM left out.
    const bom = UTF8_BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
    cached = compressBody(charset === 'utf-8' ? bytes.subarray(bom) : Buffer.from(text, 'utf8'));
  }
  const port = task.cachedPort;
  if (cached && port) {
    port.postMessage(cached);
    port.close();
  }
  const { raw: _raw, cachedPort: _port, ...page } = task;
  const converted =
    task.statusCode < 400 ? runPageTask({ ...page, body: text }, undefined, pieces) : undefined;
  const body = cached ? (port ? { cachedSent: true as const } : { cached }) : {};
  return { kind: 'page', ...(converted ? { converted } : {}), ...body };
}
