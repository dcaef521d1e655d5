/**
 * Cleaned HTML of the chosen content: no scripts/styles (already dropped), no event handlers,
 * inline styles or javascript: URLs, every URL absolute, lazy images given a real src.
 */
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { escapeAttribute, escapeText } from 'entities';
import { isElement, isText, JUNK_TAGS, VOID_ELEMENTS } from '../dom/dom.util';
import type { UrlResolver } from '../dom/url.util';

const URL_ATTRS = new Set(['href', 'src', 'poster', 'cite', 'action', 'longdesc', 'background']);
const RAW_TEXT = new Set(['pre', 'textarea']);

function attributes(el: Element, resolver: UrlResolver): string {
  const a = el.attribs;
  let out = '';
  for (const name in a) {
    const v = a[name]!;
    if (name.startsWith('on') || name === 'style' || name.startsWith('data-') || name === 'srcset') continue;
    if (!/^[a-z_:][-a-z0-9_:.]*$/.test(name)) continue;
    let value: string | null = v;
    if (URL_ATTRS.has(name)) {
      if (name === 'src' && el.name === 'img' && (v === '' || v.startsWith('data:'))) {
        value = resolver.resolveImage(
          a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'],
          a.srcset ?? a['data-srcset'],
        );
      } else value = resolver.resolve(v);
      if (value === null) continue;
    }
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  if (el.name === 'img' && a.src === undefined) {
    const lazy = resolver.resolveImage(
      a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'],
      a.srcset ?? a['data-srcset'],
    );
    if (lazy) out += ` src="${escapeAttribute(lazy)}"`;
  }
  return out;
}

export function serializeHtml(root: ParentNode, resolver: UrlResolver, includeRoot = false): string {
  const parts: string[] = [];
  const walk = (n: AnyNode, pre: boolean): void => {
    if (isText(n)) {
      parts.push(escapeText(pre ? n.data : n.data.replace(/\s+/g, ' ')));
      return;
    }
    if (!isElement(n) || JUNK_TAGS.has(n.name)) return;
    parts.push(`<${n.name}${attributes(n, resolver)}>`);
    if (VOID_ELEMENTS.has(n.name)) return;
    const inPre = pre || RAW_TEXT.has(n.name);
    for (const c of n.children) walk(c, inPre);
    parts.push(`</${n.name}>`);
  };
  if (includeRoot) walk(root as AnyNode, false);
  else for (const c of root.children) walk(c, false);
  return parts.join('').trim();
}
