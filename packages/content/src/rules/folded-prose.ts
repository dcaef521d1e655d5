/**
 * Collection pages fold a buying guide or an FAQ under their items into accordions ("How to
 * choose", "Fit tips"): its panels are shown, as on service pages, but the reading they hold
 * stays beside the items. Counted as the page's prose, a guide longer than the category's intro
 * would make the page an article and drop its items; so the choice between article and region
 * mode is made on the prose the page shows unfolded.
 */
import type { Element } from 'domhandler';
import { holds } from './item-grid';

export interface FoldedProse {
  /** Prose in the revealed panels still on the page. */
  total: number;
  /** The part of it inside the chosen nodes. */
  chosen: number;
}

export function foldedProse(
  revealed: readonly Element[],
  chosen: readonly Element[],
  body: Element,
  prose: Map<Element, number>,
): FoldedProse {
  const out = { total: 0, chosen: 0 };
  for (const panel of revealed) {
    const n = prose.get(panel) ?? 0;
    // a panel removed as chrome since it was shown counts for nothing
    if (n === 0 || !holds(body, panel)) continue;
    out.total += n;
    if (chosen.some((c) => holds(c, panel))) out.chosen += n;
  }
  return out;
}
