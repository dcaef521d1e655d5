/**
 * Article mode: a pop-up card set inside a sentence (a name's hover card: a portrait, the
 * person's latest headlines, "MORE") is hidden markup, not prose. It shows as an inline element
 * inside a paragraph holding an image and several links and little text of its own, while the
 * paragraph around it is prose.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll } from '../dom/dom.util';

const INLINE = new Set(['span', 'strong', 'em', 'b', 'i', 'small', 'cite']);
/** Links in the card: a few headlines at least. */
const MIN_LINKS = 3;
const LINKED_SHARE = 0.8;
/** The paragraph's own prose beside the card. */
const MIN_PROSE = 40;

function linkCount(el: Element): number {
  return findAll(el, (e) => e.name === 'a').length;
}

export function trimHoverCards(root: Element, stats: StatsMap): void {
  const drop: Element[] = [];
  for (const p of findAll(root, (e) => e.name === 'p')) {
    const ps = stats.get(p);
    if (!ps || ps.imgs === 0) continue;
    const inside = findAll(p, (e) => {
      if (!INLINE.has(e.name)) return false;
      const s = stats.get(e);
      return !!s && s.imgs > 0 && s.text > 0 && s.link >= LINKED_SHARE * s.text && linkCount(e) >= MIN_LINKS;
    });
    // the innermost: the card itself, not the name link it hangs on
    const cards = inside.filter((e) => !inside.some((o) => o !== e && contains(e, o)));
    const cardText = cards.reduce((n, e) => n + (stats.get(e)?.text ?? 0), 0);
    if (cards.length > 0 && ps.text - cardText >= MIN_PROSE) drop.push(...cards);
  }
  removeAllWithStats(drop, stats);
}

function contains(a: Element, b: Element): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}
