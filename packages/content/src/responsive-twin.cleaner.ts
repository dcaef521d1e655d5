/**
 * Responsive twins: templates often render a block twice, once for small screens and once for
 * large ones, and let CSS show one ("result-mobile-card" beside "result-desktop-card"). Text
 * extraction sees both, and every item of a list reads twice. When an element's class names
 * it the mobile variant and a sibling carries the same class with "desktop" instead, the mobile
 * copy goes: the desktop one is what a reader of the full page sees, and it is the fuller one.
 */
import type { Element, ParentNode } from 'domhandler';
import { isElement, rawText, removeNode } from './dom.util';

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
 * Remove mobile copies that have a desktop twin among their siblings (before stats are taken): a
 * sibling of the same tag carrying the desktop form of the variant tokens and nearly the same
 * words. Tokens are compared one by one, so other tokens on either copy do not matter.
 */
export function removeResponsiveTwins(root: ParentNode): void {
  const stack: ParentNode[] = [root];
  const gone: Element[] = [];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of p.children) {
      if (!isElement(c)) continue;
      stack.push(c);
      const twin = variantTokens(c.attribs.class);
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
