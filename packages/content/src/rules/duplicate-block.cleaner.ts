/** Later copies of a block rendered twice (mobile and desktop) are dropped. */
import type { Element, ParentNode } from 'domhandler';
import { removeWithStats, type StatsMap } from '../dom/content-stats';
import { isAncestor, rawText } from '../dom/dom.util';
/**
 * Below this much text a repeat is as likely the page's own as a second rendering. In an
 * article a paragraph may well come back (an interview's recurring question, a meal plan's
 * breakfast on every day): only blocks of 200 characters and more are copies. On a page kept
 * whole (a shop, a service page) short twins are renderings too — a spec table in a tab and in
 * an accordion, a carousel's cloned feature list, a quoted post — from 100 characters; below
 * that, a caption every card repeats. Both measured on wcxb-dev (both id halves) and
 * article-extraction.
 */
export const DUPLICATE_MIN_TEXT = { article: 200, region: 100 } as const;

/**
 * Drop later copies of a repeated block (responsive pages ship the same product summary or
 * article twice, for mobile and desktop). Candidates are matched by their statistics first,
 * so text is only compared for likely twins.
 */
export function removeDuplicates(root: Element, stats: StatsMap, minText: number): void {
  // stats signature -> the first block with it, then blocks by text once signatures collide
  const seen = new Map<string, { first: Element; byText?: Map<string, Element[]> }>();
  const stack: Element[] = [];
  const push = (p: ParentNode): void => {
    for (let i = p.children.length - 1; i >= 0; i--) {
      const c = p.children[i]!;
      if ('name' in c) stack.push(c as Element);
    }
  };
  push(root);
  while (stack.length > 0) {
    const el = stack.pop()!;
    const s = stats.get(el);
    if (!s || s.text < minText) continue;
    const key = `${s.text}/${s.link}/${s.allCommas}/${s.paras}/${s.lis}/${s.imgs}/${s.headings}`;
    const entry = seen.get(key);
    if (!entry) seen.set(key, { first: el });
    else {
      if (!entry.byText) entry.byText = new Map([[bareText(entry.first), [entry.first]]]);
      const text = bareText(el);
      const twins = entry.byText.get(text);
      if (twins?.some((t) => !isAncestor(t, el))) {
        removeWithStats(el, stats);
        continue;
      }
      if (twins) twins.push(el);
      else entry.byText.set(text, [el]);
    }
    push(el);
  }
}

/** Text without whitespace: copies indented differently are still copies. */
const bareText = (el: Element): string => rawText(el).replace(/\s+/g, '');
