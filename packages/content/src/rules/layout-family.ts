/**
 * Page builders name their layout blocks with chrome words ("elementor-widget-wrap",
 * "sidebar-layout"): one such block wraps the whole page and more of them, nested inside,
 * split the article between them. A chrome name is layout on this page when an element that
 * carries it holds most of the page and same-named blocks inside it hold most of its text.
 */
import type { Element, ParentNode } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { isElement } from '../dom/dom.util';

/** Families whose meaning does not depend on the page: never promoted to layout. */
const FIXED = new Set(['hidden', 'header']);

const ownText = (stats: StatsMap, el: Element): number => {
  const s = stats.get(el);
  return s ? s.text - s.link : 0;
};

/** Outermost descendants of `root` whose family is `family`. */
function nested(root: Element, family: string, familyOf: (el: Element) => string | null): Element[] {
  const out: Element[] = [];
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of p.children) {
      if (!isElement(c)) continue;
      if (familyOf(c) === family) out.push(c);
      else stack.push(c);
    }
  }
  return out;
}

/**
 * Chrome-name families that are the page's layout: `big` are the outermost named elements too
 * large to drop as chrome. Two or more same-named blocks inside one of them holding half its
 * text make the name a layout word (a real sidebar or widget holds no such nest of itself).
 */
export function layoutFamilies(
  big: Array<[Element, string]>,
  stats: StatsMap,
  familyOf: (el: Element) => string | null,
): Set<string> {
  const out = new Set<string>();
  for (const [el, f] of big) {
    if (FIXED.has(f) || out.has(f)) continue;
    const inner = nested(el, f, familyOf);
    if (inner.length < 2) continue;
    let sum = 0;
    for (const e of inner) sum += ownText(stats, e);
    if (sum >= 0.5 * ownText(stats, el)) out.add(f);
  }
  return out;
}
