/** Entry points: processHtml (the hot path) and processDocument (content-type dispatch). */
import { ContentProcessingError, SelectorTooExpensiveError } from '@wcs/errors';
import { type Document, Element, Text } from 'domhandler';
import { escapeText } from 'entities';
import { findFirst, isElement, parseHtml, rawText, setChildren, textOf } from './dom/dom.util';
import { type ContentCuts, MAX_HTML_CHARS, stripHeavyBlocks, warningFor } from './dom/input-caps';
import { SelectorBudget } from './dom/selector-budget';
import { applyTagFilter, compileTagFilter, type TagFilter } from './dom/tag-filter';
import { UrlResolver } from './dom/url.util';
import { declaredProductRoot } from './extract/declared-product.fallback';
import { type ExtractResult, extractMainContent, extractWholeBody } from './extract/main-content.extractor';
import { extractMetadata, fallbackText, type PageHints } from './extract/metadata.extractor';
import { collectPageImages } from './extract/page-images';
import { collectPageLinks } from './extract/page-links';
import { measurePage, scorePage } from './extract/page-type.classifier';
import { serializeHtml } from './render/html.serializer';
import { BlockRenderer, codeFence } from './render/markdown.serializer';
import { buildStructured } from './render/structured.serializer';
import { addDeclaredDescription, shows } from './rules/product.cleaner';
import type { ContentMetadata, OutputFormat, ProcessedContent, ProcessOptions, RawDocument } from './types';
import { judgePage, type VerdictInput } from './verdict/page-verdict';
import { countWords, wordsFromChars } from './verdict/text-measure';

const NOSCRIPT_TAG = /<(\/?)noscript\b/gi;

const NOSCRIPT_OPEN = /<noscript\b/gi;
const NOSCRIPT_CLOSE = /<\/noscript/gi;

/** Characters of markup inside <noscript> elements (tags in any case; an upper bound is fine). */
function noscriptChars(html: string): number {
  let n = 0;
  NOSCRIPT_OPEN.lastIndex = 0;
  for (let open = NOSCRIPT_OPEN.exec(html); open; open = NOSCRIPT_OPEN.exec(html)) {
    NOSCRIPT_CLOSE.lastIndex = open.index;
    const close = NOSCRIPT_CLOSE.exec(html);
    if (!close) return n + html.length - open.index;
    n += close.index - open.index;
    NOSCRIPT_OPEN.lastIndex = close.index;
  }
  return n;
}
const DEFAULT_FORMATS: OutputFormat[] = ['markdown', 'html', 'text'];

function bodyOf(doc: Document): Element {
  const body = findFirst(doc, 'body');
  if (body) return body;
  const html = doc.children.find((c): c is Element => isElement(c) && c.name === 'html');
  if (html) return html;
  const wrapper = new Element('body', {}, doc.children);
  for (const c of doc.children) c.parent = wrapper;
  return wrapper;
}

function emptyMetadata(opts: ProcessOptions): ContentMetadata {
  const md: ContentMetadata = {
    title: null,
    description: null,
    language: null,
    canonicalUrl: null,
    sourceURL: opts.sourceUrl ?? opts.url,
    finalUrl: opts.url,
  };
  if (opts.statusCode !== undefined) md.statusCode = opts.statusCode;
  return md;
}

/**
 * HTML -> main content. A failure inside the pipeline is our bug, not an empty page: it is a
 * ContentProcessingError (code CONTENT_PROCESSING_FAILED, cause attached), so the job fails, the
 * caller is refunded and the worker logs the URL, instead of an empty document being billed.
 * An invalid `includeTags` / `excludeTags` selector is the caller's: a ValidationError naming it.
 */
export function processHtml(
  html: string,
  opts: ProcessOptions,
  pieces?: readonly string[],
): ProcessedContent {
  const formats = new Set(opts.formats ?? DEFAULT_FORMATS);
  // Outside the try: an invalid selector is the caller's ValidationError, not our failure.
  const budget =
    opts.selectorBudgetMs !== undefined ? new SelectorBudget(opts.selectorBudgetMs, opts.url) : undefined;
  const filter = compileTagFilter(opts, budget);
  try {
    return run(typeof html === 'string' ? html : String(html ?? ''), opts, formats, filter, pieces);
  } catch (err) {
    // Selectors past their budget are the caller's cost, not a failure of the pipeline.
    if (err instanceof SelectorTooExpensiveError) throw err;
    throw new ContentProcessingError(opts.url, { cause: err });
  }
}

/** Beyond this, pages are first stripped of scripts/styles/comments, then truncated. */
const STRIP_ABOVE = 4_000_000;
const DATA_URI = /(["'(])data:[^"')]{256,}/g;

/**
 * Keep memory and time bounded: a DOM costs ~30x its HTML in heap, so huge pages lose their
 * scripts, styles and inline data first, and only then their tail.
 */
function boundInput(html: string, cuts: ContentCuts): string {
  if (html.length <= STRIP_ABOVE) return html;
  const lean = stripHeavyBlocks(html).replace(DATA_URI, '$1data:,');
  if (lean.length <= MAX_HTML_CHARS) return lean;
  cuts.html = true;
  return lean.slice(0, MAX_HTML_CHARS);
}

function run(
  input: string,
  opts: ProcessOptions,
  formats: Set<OutputFormat>,
  filter: TagFilter | undefined,
  pieces: readonly string[] | undefined,
): ProcessedContent {
  const cuts: ContentCuts = {};
  const html = boundInput(input, cuts);
  const doc = parseHtml(html, cuts, html === input ? pieces : undefined);
  // Read before extraction and tag filtering: the `links` / `images` formats list the whole page,
  // and the cleaners below remove navigation, where many links live.
  const links = opts.links ? collectPageLinks(doc, cuts) : undefined;
  const baseEl = findFirst(doc, 'base');
  const resolver = new UrlResolver(opts.url, baseEl?.attribs.href);
  const images = opts.images ? collectPageImages(doc, resolver, cuts) : undefined;
  const hints: PageHints = { product: false };
  // Metadata reads the whole page (mostly <head>): the tag options shape the content only.
  const metadata = extractMetadata({
    hints,
    doc,
    resolver,
    url: opts.url,
    sourceUrl: opts.sourceUrl,
    statusCode: opts.statusCode,
  });
  // Before extraction and tag filters: the cleaners change the page the signals are read from.
  if (hints.declared) {
    const signals = measurePage(bodyOf(doc));
    hints.pageType = scorePage(signals, opts.url, hints.declared).type;
    hints.sells = signals.cartButtons > 0;
    metadata.pageType = hints.pageType;
  }
  // A product's declared description counts when the page shows it (in a tab, say; read
  // before the cleaners, which may take that tab away) or when the extracted product is thin
  // (product.cleaner.ts). Not with tag options (they say what the content is), for the whole
  // body, or when no content format is asked for.
  const description =
    hints.pageType === 'product' && formats.size > 0 && !filter && opts.onlyMainContent !== false
      ? hints.productDescription
      : undefined;
  const shownOnPage = description !== undefined && shows(bodyOf(doc), description);
  // Read before the content step: with tag options it forgets the headings, and cleaners move nodes.
  const h1 = firstH1(hints.headings);
  // Only links/images asked for (formats: []): no content step at all.
  const content = formats.size > 0 ? contentRoot(html, doc, hints, opts, filter) : undefined;
  const verdict = judgePage({
    statusCode: opts.statusCode ?? 200,
    headers: opts.headers ?? {},
    body: input,
    title: metadata.title,
    h1,
    ...(content
      ? measureContent(content)
      : { pageWords: wordsFromChars(rawText(bodyOf(doc)).trim().length) }),
  });
  const out: ProcessedContent = { markdown: '', html: '', text: '', metadata, verdict };
  if (content) {
    const { root, stats } = content;
    if (description) addDeclaredDescription(root, description, shownOnPage);
    if (formats.has('markdown'))
      out.markdown = new BlockRenderer({ resolver, stats, markdown: true }).render(root);
    const textRenderer = new BlockRenderer({ resolver, stats, markdown: false });
    if (formats.has('text')) out.text = textRenderer.render(root);
    if (formats.has('html')) out.html = serializeHtml(root, resolver);
    if (formats.has('json')) out.json = buildStructured(root, metadata, resolver, textRenderer);
  }
  if (links) out.links = links;
  if (images) out.images = images;
  const warning = warningFor(cuts);
  if (warning) out.warning = warning;
  return out;
}

/** The page body, with the tag options applied when there are some. */
function filteredBody(doc: Document, filter: TagFilter | undefined): Element {
  const body = bodyOf(doc);
  if (filter) applyTagFilter(body, filter);
  return body;
}

/** Main content (or the whole body) of the parsed page, as the root the serializers render. */
function contentRoot(
  html: string,
  doc: Document,
  hints: PageHints,
  opts: ProcessOptions,
  filter: TagFilter | undefined,
): ExtractResult {
  // The metadata walk's headings predate the filter: they may name removed ones.
  if (filter) hints.headings = undefined;
  const extract = opts.onlyMainContent === false ? extractWholeBody : extractMainContent;
  let { root, stats, pageText, pageLinkText } = extract(filteredBody(doc, filter), hints);
  if (pageText < 2000 && noscriptChars(html) > Math.max(2000, pageText * 2)) {
    // Client-rendered pages (Discourse, some shops) ship their content for no-JS readers in
    // <noscript>: read it as ordinary markup when the page shows almost nothing else.
    const retry = extract(filteredBody(parseHtml(html.replace(NOSCRIPT_TAG, '<$1div')), filter), {
      ...hints,
      headings: undefined,
    });
    if (retry.pageText > pageText * 1.5) ({ root, stats, pageText, pageLinkText } = retry);
  }
  // With tag options, what they select is the content, even when it is little or nothing (the
  // JSON-LD body would bring back what they left out).
  if (
    !filter &&
    opts.onlyMainContent !== false &&
    pageText < MIN_EXTRACTED &&
    (stats.get(root)?.text ?? 0) < MIN_EXTRACTED
  ) {
    // a body declared as text first; else a declared product the page does not render at all
    const fallback =
      fallbackRoot(fallbackText(doc)) ??
      (hints.declaredProduct ? declaredProductRoot(hints.declaredProduct, textOf(root)) : null);
    if (fallback) root = fallback;
  }
  return { root, stats, pageText, pageLinkText };
}

/** Below this many characters of visible text, a page is treated as carrying none. */
const MIN_EXTRACTED = 200;

/** Paragraphs of declared text (a JSON-LD body) as a content root. */
function fallbackRoot(text: string): Element | null {
  const paras = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (paras.length === 0) return null;
  const root = new Element('div', {});
  setChildren(
    root,
    paras.map((p) => {
      const el = new Element('p', {});
      setChildren(el, [new Text(p)]);
      return el;
    }),
  );
  return root;
}

type PageMeasure = Pick<VerdictInput, 'pageWords' | 'pageProseWords' | 'mainWords' | 'mainImages'>;

/** The verdict's measures, from the statistics the extraction already computed. */
function measureContent({ root, stats, pageText, pageLinkText }: ExtractResult): PageMeasure {
  const own = stats.get(root);
  const mainChars = own ? own.text : textOf(root).length;
  return {
    pageWords: wordsFromChars(pageText),
    pageProseWords: wordsFromChars(Math.max(0, pageText - pageLinkText)),
    mainWords: wordsFromChars(mainChars),
    mainImages: own ? own.imgs : findFirst(root, 'img') ? 1 : 0,
  };
}

/** The first <h1>'s text, of the headings the metadata walk collected. */
function firstH1(headings: Element[] | undefined): string | null {
  const h1 = headings?.find((h) => h.name === 'h1');
  return h1 ? textOf(h1) || null : null;
}

const fence = (body: string, lang: string): string => {
  const f = codeFence(body);
  return `${f}${lang}\n${body}\n${f}`;
};

/** Non-HTML bodies the renderer accepted; HTML and XHTML go through processHtml. */
export function processDocument(
  doc: RawDocument,
  opts: Omit<ProcessOptions, 'url' | 'statusCode' | 'sourceUrl'>,
): ProcessedContent {
  const full: ProcessOptions = {
    ...opts,
    url: doc.url,
    sourceUrl: doc.sourceUrl,
    statusCode: doc.statusCode,
  };
  if (full.sourceUrl === undefined) delete full.sourceUrl;
  if (full.statusCode === undefined) delete full.statusCode;
  const type = (doc.contentType || '').split(';')[0]!.trim().toLowerCase();
  const body = typeof doc.body === 'string' ? doc.body : String(doc.body ?? '');
  const formats = new Set(opts.formats ?? DEFAULT_FORMATS);
  const isJson = type === 'application/json' || type.endsWith('+json') || type === 'text/json';
  const isText = type.startsWith('text/') && type !== 'text/html';
  if (!isJson && !isText) return processHtml(body, full, doc.pieces);
  compileTagFilter(full); // no elements to filter, but a bad selector fails alike for every type
  const cuts: ContentCuts = { html: body.length > MAX_HTML_CHARS };
  let text = (cuts.html ? body.slice(0, MAX_HTML_CHARS) : body).replace(/\r\n?/g, '\n');
  let markdown = text;
  let lang = '';
  if (isJson) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
      lang = 'json';
    } catch {
      lang = 'json';
    }
    markdown = fence(text, lang);
  } else if (type !== 'text/markdown' && type !== 'text/x-markdown' && type !== 'text/plain') {
    markdown = fence(text, type.slice(5));
  }
  const metadata = emptyMetadata(full);
  const out: ProcessedContent = {
    markdown: markdown.trim(),
    text: text.trim(),
    html: `<pre>${escapeText(text.trim())}</pre>`,
    metadata,
    verdict: judgePage({
      statusCode: full.statusCode ?? 200,
      headers: full.headers ?? {},
      body,
      title: null,
      pageWords: countWords(text.slice(0, 20_000)),
      kind: isJson ? 'json' : 'text',
    }),
  };
  const warning = warningFor(cuts);
  if (warning) out.warning = warning;
  if (formats.has('json')) {
    out.json = {
      metadata,
      headings: [],
      blocks: [
        lang ? { type: 'code', text: text.trim(), language: lang } : { type: 'paragraph', text: text.trim() },
      ],
      links: [],
    };
  }
  return out;
}
