/**
 * Links of an HTML page, with htmlparser2's tokenizer alone (no DOM, no element stack: the
 * Parser's stack is an array it unshifts per open tag, quadratic on 100k nested elements — 8 s
 * for 100k unclosed `<div><span>`): <a href> and <area href> with their text and rel=nofollow,
 * <link rel=next|prev> and <link rel=alternate hreflang=…>. Resolved against <base href> (wherever
 * it appears, like browsers) or the page URL, de-duplicated by `urlKey` in document order (the
 * first spelling is the one fetched), http(s) only. At most `MAX_LINKS_PER_PAGE` distinct links
 * (the first ones in document order); tokenizing stops after 4× as many hrefs. On the same pass,
 * the page's own `<title>` (or og:title) and meta description (or og:description), for a map's
 * link details.
 */
import { type QuoteType, Tokenizer } from 'htmlparser2';
import { identifyUrl } from './normalize-url';

export interface ExtractedLink {
  /** The URL to fetch, as the page wrote it (resolved, no fragment). */
  url: string;
  /** Its de-duplication key (`urlKey`). */
  key: string;
  /** Anchor text, whitespace collapsed, at most 200 characters ("" for <link>). */
  text: string;
  /** True only when every occurrence of the URL on the page carries rel=nofollow. */
  nofollow: boolean;
}

/** What the page says it is: its title and description, whitespace collapsed and capped. */
export interface PageHead {
  title?: string;
  description?: string;
}

export interface PageLinks {
  links: ExtractedLink[];
  head: PageHead;
  /** True when the page had more links than the cap (the rest were not read). */
  truncated: boolean;
}

/**
 * Distinct links kept per page. Real hub pages (category listings, HTML sitemaps, long
 * Wikipedia lists) stay within a few thousand; beyond that a page is a link farm or an attack,
 * and a crawl or map gets the rest from sitemaps and further pages. A 100k-link page then
 * costs ~0.1 s instead of ~1 s.
 */
export const MAX_LINKS_PER_PAGE = 5_000;
const HREFS_PER_LINK = 4;
const MAX_TEXT = 200;
const MAX_HREF = 8_192;
const MAX_ATTR = MAX_HREF + 1;

interface RawLink {
  href: string;
  text: string;
  nofollow: boolean;
}

function relTokens(rel: string | undefined): Set<string> {
  return new Set((rel ?? '').toLowerCase().split(/\s+/).filter(Boolean));
}

const WANTED_TAGS = new Set(['a', 'area', 'link', 'base', 'meta']);
const MAX_HEAD_TEXT = 500;

const clean = (s: string | undefined): string | undefined => {
  const v = s?.replace(/\s+/g, ' ').trim().slice(0, MAX_HEAD_TEXT);
  return v ? v : undefined;
};

/** Links of `html` (see the file comment); `truncated` says the cap cut the page. */
export function extractPageLinks(html: string, pageUrl: string, opts: { maxLinks?: number } = {}): PageLinks {
  const maxLinks = Math.max(1, opts.maxLinks ?? MAX_LINKS_PER_PAGE);
  const maxRaw = maxLinks * HREFS_PER_LINK;
  const raw: RawLink[] = [];
  let baseHref: string | null = null;
  let open: RawLink | null = null; // the <a> we are inside (text accumulates)
  let truncated = false;
  // The document's <title>: the first one before <body> or an <svg> (whose <title> is a tooltip).
  let title = '';
  let inTitle = false;
  let titleDone = false;
  const meta: Record<string, string> = {};

  // Tokenizer state of the tag being read: its name, and its attributes when it is one we want.
  let tag = '';
  let attrs: Record<string, string> | null = null;
  let attrName = '';
  let attrValue = '';
  const slice = (start: number, end: number) => html.slice(start, end);

  const onTag = (name: string, a: Record<string, string>) => {
    if (name === 'base' && baseHref === null && a.href) baseHref = a.href;
    else if (name === 'meta') {
      const which = (a.name ?? a.property ?? '').toLowerCase();
      if (
        (which === 'description' || which === 'og:description' || which === 'og:title') &&
        a.content !== undefined &&
        meta[which] === undefined
      )
        meta[which] = a.content;
    } else if (name === 'a' || name === 'area') {
      const href = a.href?.trim();
      if (!href || href.length > MAX_HREF || href.startsWith('#')) return;
      const link = { href, text: '', nofollow: relTokens(a.rel).has('nofollow') };
      raw.push(link);
      if (name === 'a') open = link;
    } else if (name === 'link') {
      const rel = relTokens(a.rel);
      const wanted = rel.has('next') || rel.has('prev') || (rel.has('alternate') && a.hreflang !== undefined);
      const href = a.href?.trim();
      if (wanted && href && href.length <= MAX_HREF) raw.push({ href, text: '', nofollow: false });
    }
  };
  const endOpenTag = () => {
    if (attrs) onTag(tag, attrs);
    attrs = null;
    tag = '';
    if (raw.length >= maxRaw) {
      truncated = true;
      tokenizer.pause(); // the rest of the page is not read
    }
  };
  const addText = (text: string) => {
    if (open && open.text.length < MAX_TEXT * 2) open.text += text;
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = slice(start, end).toLowerCase();
        attrs = WANTED_TAGS.has(tag) ? {} : null;
        if (tag === 'title' && !titleDone) inTitle = true;
        else if (tag === 'body' || tag === 'svg') titleDone = true;
      },
      onattribname(start, end) {
        attrName = attrs ? slice(start, end).toLowerCase() : '';
        attrValue = '';
      },
      onattribdata(start, end) {
        if (attrs && attrValue.length < MAX_ATTR) attrValue += slice(start, end);
      },
      onattribentity(codepoint) {
        if (attrs && attrValue.length < MAX_ATTR) attrValue += String.fromCodePoint(codepoint);
      },
      onattribend(_quote: QuoteType) {
        // The first of duplicate attributes wins, as in browsers.
        if (attrs && !Object.hasOwn(attrs, attrName)) attrs[attrName] = attrValue;
      },
      onopentagend: endOpenTag,
      onselfclosingtag: endOpenTag, // HTML ignores the slash: <a href=x/> opens an <a>
      onclosetag(start, end) {
        const name = slice(start, end).toLowerCase();
        if (name === 'a') open = null;
        else if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
      ontext(start, end) {
        if (open) addText(slice(start, end));
        if (inTitle && title.length < MAX_HEAD_TEXT * 2) title += slice(start, end);
      },
      ontextentity(codepoint) {
        if (open) addText(String.fromCodePoint(codepoint));
        if (inTitle && title.length < MAX_HEAD_TEXT * 2) title += String.fromCodePoint(codepoint);
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  if (!truncated) tokenizer.end();

  let base = pageUrl;
  if (baseHref !== null) {
    try {
      base = new URL(baseHref, pageUrl).href;
    } catch {
      // invalid <base href>: browsers fall back to the document URL
    }
  }

  const byKey = new Map<string, ExtractedLink>();
  for (const r of raw) {
    const id = identifyUrl(r.href, base);
    if (!id) continue;
    const text = r.text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
    const seen = byKey.get(id.key);
    if (!seen) {
      if (byKey.size >= maxLinks) {
        truncated = true;
        continue; // later occurrences of kept links still count for text and nofollow
      }
      byKey.set(id.key, { url: id.url, key: id.key, text, nofollow: r.nofollow });
      continue;
    }
    if (!seen.text && text) seen.text = text;
    if (!r.nofollow) seen.nofollow = false;
  }
  const head: PageHead = {};
  const pageTitle = clean(title) ?? clean(meta['og:title']);
  const description = clean(meta.description) ?? clean(meta['og:description']);
  if (pageTitle) head.title = pageTitle;
  if (description) head.description = description;
  return { links: [...byKey.values()], truncated, head };
}

/** `extractPageLinks(html, pageUrl).links`: the first MAX_LINKS_PER_PAGE links of the page. */
export function extractLinks(html: string, pageUrl: string): ExtractedLink[] {
  return extractPageLinks(html, pageUrl).links;
}
