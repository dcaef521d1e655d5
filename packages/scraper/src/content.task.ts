/**
 * One page's conversion, as run inside a content thread (content-worker.cjs loads this file): the
 * rendered body → markdown/html/text(/json) + metadata + (for the crawler) its links, from one
 * parse. Errors are returned wire-encoded, since a thrown ServiceError would lose its kind when
 * cloned across the thread boundary.
 */
import { type OutputFormat, type PageLinks, processDocument } from '@wcs/content';
import { type ExtractedLink, identifyUrl } from '@wcs/discovery';
import { encodeError } from '@wcs/errors';
import type { DocumentData, PageFormat } from '@wcs/queues';

export interface ContentTask {
  body: string;
  contentType: string;
  /** Where redirects ended: links and images resolve against it. */
  finalUrl: string;
  /** What the caller asked for. */
  sourceUrl: string;
  statusCode: number;
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
}

export type ContentTaskResult =
  | { ok: true; data: DocumentData; links?: ExtractedLink[] }
  | { ok: false; error: string };

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

export function runContentTask(task: ContentTask): ContentTaskResult {
  try {
    const formats: OutputFormat[] =
      task.format === 'json' ? ['markdown', 'html', 'text', 'json'] : ['markdown', 'html', 'text'];
    const doc = processDocument(
      {
        body: task.body,
        contentType: task.contentType,
        url: task.finalUrl,
        sourceUrl: task.sourceUrl,
        statusCode: task.statusCode,
      },
      { onlyMainContent: task.onlyMainContent, formats, links: task.links },
    );
    const data: DocumentData = {
      markdown: doc.markdown,
      html: doc.html,
      text: doc.text,
      ...(doc.json !== undefined ? { json: doc.json } : {}),
      metadata: {
        ...doc.metadata,
        title: doc.metadata.title,
        statusCode: task.statusCode,
        sourceURL: task.sourceUrl,
      },
      ...(doc.warning ? { warning: doc.warning } : {}),
    };
    if (!task.links) return { ok: true, data };
    return { ok: true, data, links: doc.links ? resolveLinks(doc.links, task.finalUrl) : [] };
  } catch (err) {
    return { ok: false, error: encodeError(err) };
  }
}
