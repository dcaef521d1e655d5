/**
 * The `images` format: every image URL of the page as written (before main-content
 * extraction and before includeTags/excludeTags), absolute, de-duplicated, in document order.
 *
 * Read from <img> (src, then srcset's first candidate, then the lazy-loading data-src and
 * data-srcset) and from <source srcset> (as inside <picture>). Left out, on purpose: data: URIs
 * (inline bytes, not addresses), non-http(s) URLs, CSS background images, and <meta og:image> /
 * icons from <head> (og:image is `metadata.ogImage` already).
 */
import type { ChildNode, Document } from 'domhandler';
import { isElement } from '../dom/dom.util';
import { type ContentCuts, MAX_PAGE_IMAGES } from '../dom/input-caps';
import type { UrlResolver } from '../dom/url.util';

const MAX_URL = 8_192;
const SPACE = /\s/;

/** The URL of a srcset's first image candidate (HTML's parsing rules: URLs may hold commas). */
export function firstSrcsetCandidate(srcset: string): string | undefined {
  let i = 0;
  while (i < srcset.length && (srcset[i] === ',' || SPACE.test(srcset[i]!))) i++;
  let j = i;
  while (j < srcset.length && !SPACE.test(srcset[j]!)) j++;
  const url = srcset.slice(i, j).replace(/,+$/, '');
  return url === '' ? undefined : url;
}

const HTTP = /^https?:/i;

/** Document order, iterative, at most MAX_PAGE_IMAGES URLs (`cuts.images` set beyond). */
export function collectPageImages(doc: Document, resolver: UrlResolver, cuts: ContentCuts): string[] {
  const seen = new Set<string>();
  const add = (raw: string | undefined): boolean => {
    if (!raw || raw.length > MAX_URL) return true;
    const url = resolver.resolve(raw);
    if (!url || !HTTP.test(url) || seen.has(url)) return true;
    if (seen.size >= MAX_PAGE_IMAGES) {
      cuts.images = true;
      return false;
    }
    seen.add(url);
    return true;
  };
  const stack: ChildNode[] = [...doc.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const a = n.attribs;
    if (n.name === 'img') {
      const ok =
        add(a.src) &&
        add(a.srcset && firstSrcsetCandidate(a.srcset)) &&
        add(a['data-src']) &&
        add(a['data-srcset'] && firstSrcsetCandidate(a['data-srcset']));
      if (!ok) break;
    } else if (n.name === 'source' && a.srcset !== undefined) {
      if (!add(firstSrcsetCandidate(a.srcset))) break;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return [...seen];
}
