/**
 * The links of a parsed page, read from the same DOM the content pipeline uses (so a crawled page
 * is parsed once, in the content thread): <a href> / <area href> with text and rel=nofollow,
 * <link rel=next|prev> and <link rel=alternate hreflang>, plus <base href>. Resolution and
 * de-duplication are the caller's (@wcs/discovery's `identifyUrl`), as in `extractLinks`.
 */
import type { ChildNode, Document } from 'domhandler';
import { isElement, textOf } from '../dom/dom.util';
import { type ContentCuts, MAX_PAGE_LINKS } from '../dom/input-caps';
import { UrlResolver } from '../dom/url.util';

export interface RawPageLink {
  href: string;
  text: string;
  nofollow: boolean;
  /** The element it came from: the `links` format lists only <a>. */
  tag: 'a' | 'area' | 'link';
}

export interface PageLinks {
  /** The first <base href>, wherever it appears (browsers do the same). */
  baseHref: string | null;
  links: RawPageLink[];
}

const MAX_HREF = 8_192;
const MAX_TEXT = 400;

function relTokens(rel: string | undefined): Set<string> {
  return new Set((rel ?? '').toLowerCase().split(/\s+/).filter(Boolean));
}

/** Document order, iterative (no recursion on deep pages), at most MAX_PAGE_LINKS. */
export function collectPageLinks(doc: Document, cuts: ContentCuts): PageLinks {
  const links: RawPageLink[] = [];
  let baseHref: string | null = null;
  const stack: ChildNode[] = [...doc.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const name = n.name;
    if (name === 'base') {
      if (baseHref === null && n.attribs.href) baseHref = n.attribs.href;
    } else if (name === 'a' || name === 'area') {
      const href = n.attribs.href?.trim();
      if (href && href.length <= MAX_HREF && !href.startsWith('#')) {
        if (links.length >= MAX_PAGE_LINKS) {
          cuts.links = true;
          break;
        }
        const text = name === 'a' ? textOf(n).slice(0, MAX_TEXT) : '';
        links.push({ href, text, nofollow: relTokens(n.attribs.rel).has('nofollow'), tag: name });
      }
    } else if (name === 'link') {
      const rel = relTokens(n.attribs.rel);
      const wanted =
        rel.has('next') || rel.has('prev') || (rel.has('alternate') && n.attribs.hreflang !== undefined);
      const href = n.attribs.href?.trim();
      if (wanted && href && href.length <= MAX_HREF && links.length < MAX_PAGE_LINKS)
        links.push({ href, text: '', nofollow: false, tag: 'link' });
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return { baseHref, links };
}

const HTTP = /^https?:/i;

/**
 * The `links` format: the page's <a href> targets, resolved against <base href> then `pageUrl`,
 * http(s) only, de-duplicated (exact absolute URL, fragment kept), in document order. Fragment-only
 * hrefs ("#top") were never collected: they point back at the page itself.
 */
export function pageLinkUrls(found: PageLinks, pageUrl: string): string[] {
  const resolver = new UrlResolver(pageUrl, found.baseHref);
  const seen = new Set<string>();
  for (const l of found.links) {
    if (l.tag !== 'a') continue;
    const url = resolver.resolve(l.href);
    if (url && HTTP.test(url)) seen.add(url);
  }
  return [...seen];
}
