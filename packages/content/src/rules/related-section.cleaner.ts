/**
 * Article mode: a section that opens with a heading naming related content ("You may also
 * like", or a heading whose class says `related`, in any language) is a block of teasers for
 * other pages, however much prose the teasers carry, once the story itself came before it.
 */
import type { Element, ParentNode } from 'domhandler';
import { removeAllWithStats, type StatsMap, textBefore } from '../dom/content-stats';
import { findAll, isElement, opensWith, textOf } from '../dom/dom.util';

const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
/** "related", "relatedPosts", "jp-relatedposts-headline"; not "unrelated". */
const RELATED_NAME = /(?<![a-z])related/i;
/** A heading is a short line; a section title longer than this is a headline of its own. */
const MAX_HEADING = 80;
/** The story before the section: enough text that the section cannot be the story. */
const MIN_BEFORE = 250;
const MIN_BEFORE_SHARE = 0.15;

const nameOf = (e: Element): string =>
  `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`.replace(/([a-z])([A-Z])/g, '$1-$2');

export function trimRelatedSections(root: Element, stats: StatsMap, relatedHead: RegExp): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const drop: Element[] = [];
  for (const h of findAll(root, (e) => HEADINGS.has(e.name))) {
    const s = stats.get(h);
    if (!s || s.text === 0 || s.text > MAX_HEADING) continue;
    if (!RELATED_NAME.test(nameOf(h)) && !relatedHead.test(textOf(h))) continue;
    const section = h.parent;
    if (!section || section === root || !isElement(section) || !opensWith(section, h)) continue;
    if (drop.some((d) => d === section || isInside(section, d))) continue;
    const before = textBefore(section, root, stats);
    if (before < MIN_BEFORE || before < MIN_BEFORE_SHARE * total) continue;
    drop.push(section);
  }
  removeAllWithStats(drop, stats);
}

function isInside(el: Element, ancestor: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}
