/**
 * Links of an HTML page, with a streaming tokenizer (no DOM): <a href> and <area href> with their
 * text and rel=nofollow, <link rel=next|prev> and <link rel=alternate hreflang=…>. Resolved
 * against <base href> (wherever it appears, like browsers) or the page URL, de-duplicated by
 * `urlKey` in document order (the first spelling is the one fetched), http(s) only.
 */
import { Parser } from 'htmlparser2';
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

const MAX_TEXT = 200;
const MAX_HREF = 8_192;

interface RawLink {
  href: string;
  text: string;
  nofollow: boolean;
}

function relTokens(rel: string | undefined): Set<string> {
  return new Set((rel ?? '').toLowerCase().split(/\s+/).filter(Boolean));
}

export function extractLinks(html: string, pageUrl: string): ExtractedLink[] {
  const raw: RawLink[] = [];
  let baseHref: string | null = null;
  let open: RawLink | null = null; // the <a> we are inside (text accumulates)

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'base' && baseHref === null && attrs.href) baseHref = attrs.href;
        else if (name === 'a' || name === 'area') {
          const href = attrs.href?.trim();
          if (!href || href.length > MAX_HREF || href.startsWith('#')) return;
          const link = { href, text: '', nofollow: relTokens(attrs.rel).has('nofollow') };
          raw.push(link);
          if (name === 'a') open = link;
        } else if (name === 'link') {
          const rel = relTokens(attrs.rel);
          const wanted =
            rel.has('next') || rel.has('prev') || (rel.has('alternate') && attrs.hreflang !== undefined);
          const href = attrs.href?.trim();
          if (wanted && href && href.length <= MAX_HREF) raw.push({ href, text: '', nofollow: false });
        }
      },
      ontext(text) {
        if (open && open.text.length < MAX_TEXT * 2) open.text += text;
      },
      onclosetag(name) {
        if (name === 'a') open = null;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

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
      byKey.set(id.key, { url: id.url, key: id.key, text, nofollow: r.nofollow });
      continue;
    }
    if (!seen.text && text) seen.text = text;
    if (!r.nofollow) seen.nofollow = false;
  }
  return [...byKey.values()];
}
