/**
 * Listing and service pages: after the list, sites add sections of other content ("Trending
 * stories", "Recommended articles", "You may also like"): teasers for other pages, not the list
 * the page is. A section that opens with such a heading goes once most of the region came before
 * it; the section is the outermost ancestor that starts with the heading and holds a small part
 * of the region.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap, textBefore } from './content-stats';
import { findAll, isElement, opensWith, textOf } from './dom.util';

const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
const MAX_HEADING = 60;
/** The list before the section: most of the region, so the section cannot be the list. */
const MIN_BEFORE = 250;
const MIN_BEFORE_SHARE = 0.5;
/** The section is a small part of the region; a larger ancestor wraps more than the teasers. */
const MAX_SHARE = 0.4;

/** A heading for other pages than the list's. */
const OTHER_HEAD =
  /^(?:(?:more|other|related|recommended|popular|trending|similar)\s+(?:stories|articles|posts|news|reads|pages|links|guides|videos)|trending(?: now)?|most (?:popular|read|viewed|shared)|you (?:may|might) also like|don'?t miss|further reading)[\s:.!»›-]*$/i;

function sectionOf(h: Element, root: Element, stats: StatsMap, total: number): Element | undefined {
  let section: Element | undefined;
  for (let cur: Element = h; ; ) {
    const p = cur.parent;
    if (!p || p === root || !isElement(p) || !opensWith(p, cur)) break;
    if ((stats.get(p)?.text ?? 0) > MAX_SHARE * total) break;
    section = p;
    cur = p;
  }
  return section;
}

export function removeRecirculation(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const drop: Element[] = [];
  for (const h of findAll(root, (e) => HEADINGS.has(e.name))) {
    const s = stats.get(h);
    if (!s || s.text === 0 || s.text > MAX_HEADING || !OTHER_HEAD.test(textOf(h))) continue;
    const section = sectionOf(h, root, stats, total);
    if (!section || drop.some((d) => d === section || d.parent === section)) continue;
    const before = textBefore(section, root, stats);
    if (before < MIN_BEFORE || before < MIN_BEFORE_SHARE * total) continue;
    drop.push(section);
  }
  removeAllWithStats(drop, stats);
}
