/**
 * Responsive twins: templates often render a block twice, once for small screens and once for
 * large ones, and let CSS show one ("result-mobile-card" beside "result-desktop-card"). Text
 * extraction sees both, and every item of a list reads twice. When an element's class names
 * it the mobile variant and a sibling carries the same class with "desktop" instead, the mobile
 * copy goes: the desktop one is what a reader of the full page sees, and it is the fuller one.
 */
import type { Element, ParentNode } from 'domhandler';
import { isElement, rawText, removeNode } from '../dom/dom.util';

const MOBILE = /mobile/i;
const SPACE = /\s+/;
const WORD = /[\p{L}\p{N}]+/gu;
/** Share of the mobile copy's words the desktop copy must hold: a twin says the same. */
const SAME_WORDS = 0.8;

const desktop = (t: string): string =>
  t
    .replace(/mobile/g, 'desktop')
    .replace(/Mobile/g, 'Desktop')
    .replace(/MOBILE/g, 'DESKTOP');

/**
 * The tokens naming this element the mobile variant, renamed to their desktop form. A token whose
 * desktop form the element also carries ("padding-mobile padding-desktop") is a responsive utility
 * class, not a variant.
 */
function variantTokens(cls: string | undefined): string[] | null {
  if (!cls || !MOBILE.test(cls)) return null;
  const own = new Set(cls.split(SPACE));
  const out: string[] = [];
  for (const t of own) if (MOBILE.test(t) && !own.has(desktop(t))) out.push(desktop(t));
  return out.length > 0 ? out : null;
}

const words = (el: Element): string[] => rawText(el).toLowerCase().match(WORD) ?? [];

/** `twin` holds nearly every word of `el`. */
function sameText(el: Element, twin: Element): boolean {
  const mine = words(el);
  if (mine.length === 0) return false;
  const theirs = new Set(words(twin));
  let n = 0;
  for (const w of mine) if (theirs.has(w)) n++;
  return n >= SAME_WORDS * mine.length;
}

/**
 * Utility-class frameworks say the same with breakpoints: "lg:hidden" or "d-lg-none" shows a
 * block on small screens only, "hidden lg:block" or "d-none d-lg-flex" on large ones only.
 */
const SMALL_ONLY = /(?:^|\s)(?:(?:sm|md|lg|xl|2xl):hidden|d-(?:sm|md|lg|xl|xxl)-none)(?=\s|$)/;
const LARGE_ONLY =
  /(?:^|\s)(?:(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-(?:sm|md|lg|xl|xxl)-(?:block|flex|grid|inline|inline-block|inline-flex|table))(?=\s|$)/;
const HIDDEN = /(?:^|\s)(?:hidden|d-none)(?=\s|$)/;

const smallOnly = (cls: string): boolean => SMALL_ONLY.test(cls);
const largeOnly = (cls: string): boolean => HIDDEN.test(cls) && LARGE_ONLY.test(cls);

/**
 * Remove mobile copies that have a desktop twin among their siblings (before stats are taken): a
 * sibling of the same tag carrying the desktop form of the variant tokens and nearly the same
 * words. Tokens are compared one by one, so other tokens on either copy do not matter. With
 * `breakpoints` (pages of items: lists, landing pages), a copy shown on small screens only beside
 * a same-tag copy shown on large ones only goes the same way; a shop's small-screen block lays
 * out the buy box its own way, and stays.
 */
export function removeResponsiveTwins(root: ParentNode, breakpoints = false): void {
  const stack: ParentNode[] = [root];
  const gone: Element[] = [];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of p.children) {
      if (!isElement(c)) continue;
      stack.push(c);
      const cls = c.attribs.class;
      if (breakpoints && cls && smallOnly(cls) && !largeOnly(cls)) {
        for (const s of p.children) {
          if (s === c || !isElement(s) || s.name !== c.name || !s.attribs.class) continue;
          if (largeOnly(s.attribs.class) && sameText(c, s)) {
            gone.push(c);
            break;
          }
        }
        continue;
      }
      const twin = variantTokens(cls);
      if (twin === null) continue;
      for (const s of p.children) {
        if (s === c || !isElement(s) || s.name !== c.name || !s.attribs.class) continue;
        const theirs = new Set(s.attribs.class.split(SPACE));
        if (twin.every((t) => theirs.has(t)) && sameText(c, s)) {
          gone.push(c);
          break;
        }
      }
    }
  }
  for (const el of gone) removeNode(el);
}
