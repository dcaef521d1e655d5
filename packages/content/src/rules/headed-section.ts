/**
 * A section that a heading opens, found from the heading: the outermost ancestor below the
 * region that starts with it (the heading often sits in a column of a container of its own, the
 * cards beside that). The teaser cleaners (blog teasers, recirculation) drop such sections by
 * what their heading says, once enough of the region came before them.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap, textBefore } from '../dom/content-stats';
import { findAll, isElement, opensWith, textOf } from '../dom/dom.util';

export interface HeadedSectionRule {
  /** What the heading says, the whole of its text. */
  heading: RegExp;
  /** The elements that may be the heading (a design's overline may be a short `<p>`). */
  tags: ReadonlySet<string>;
  /** A heading is a short line. */
  maxHeading: number;
  /** The region's text before the section: enough that the section cannot be the page. */
  minBefore: number;
  minBeforeShare: number;
  /** The largest share of the region the section holds; a larger ancestor wraps more. */
  maxShare: number;
}

function sectionOf(h: Element, root: Element, stats: StatsMap, maxText: number): Element | undefined {
  let section: Element | undefined;
  for (let cur: Element = h; ; ) {
    const p = cur.parent;
    if (!p || p === root || !isElement(p) || !opensWith(p, cur)) break;
    if ((stats.get(p)?.text ?? 0) > maxText) break;
    section = p;
    cur = p;
  }
  return section;
}

/** Remove the sections of `root` whose heading the rule names (stats kept in step). */
export function removeHeadedSections(root: Element, stats: StatsMap, rule: HeadedSectionRule): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const drop: Element[] = [];
  for (const h of findAll(root, (e) => rule.tags.has(e.name))) {
    const s = stats.get(h);
    if (!s || s.text === 0 || s.text > rule.maxHeading || !rule.heading.test(textOf(h).trim())) continue;
    const section = sectionOf(h, root, stats, rule.maxShare * total);
    if (!section || drop.some((d) => d === section || d.parent === section)) continue;
    const before = textBefore(section, root, stats);
    if (before < rule.minBefore || before < rule.minBeforeShare * total) continue;
    drop.push(section);
  }
  removeAllWithStats(drop, stats);
}
