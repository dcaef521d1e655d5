/**
 * Forum threads: boards put a topic overview beside or inside the thread, a set of
 * small widgets titled "Top posters in this topic", "Most popular posts", "Popular days", next
 * to view and reply counts. They repeat names, dates and excerpts of the posts; they are not
 * the thread.
 *
 * A widget is the parent of a heading with one of those titles, when it is small; when the
 * widgets' common parent is left with only a few words (the counts), it goes as well.
 */
import type { Element } from 'domhandler';
import { removeWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, rawText } from '../dom/dom.util';

const TITLE =
  /^(top|most active) (posters|contributors|members)( in this (topic|thread|discussion))?$|^(most )?popular (posts|replies|days)( in this (topic|thread|discussion))?$/i;
const HEADING = /^h[2-6]$/;
/** Largest widget, in characters of text. */
const MAX_WIDGET = 2000;
/** What the widgets' parent may keep (view and reply counts) and still go with them. */
const MAX_LEFT = 120;

const words = (e: Element): string => rawText(e).replace(/\s+/g, ' ').trim();

export function removeTopicOverview(root: Element, stats: StatsMap): void {
  const heads = findAll(root, (e) => HEADING.test(e.name) && TITLE.test(words(e)));
  const parents = new Set<Element>();
  for (const h of heads) {
    const w = h.parent;
    if (!w || !isElement(w) || w === root || !w.parent) continue;
    if (words(w).length > MAX_WIDGET) continue;
    const p = w.parent;
    removeWithStats(w, stats);
    if (isElement(p) && p !== root) parents.add(p);
  }
  for (const p of parents) {
    if (p.parent && words(p).length <= MAX_LEFT) removeWithStats(p, stats);
  }
}
