/**
 * The item grid of a collection page: the largest group of same-tag siblings that are each a
 * short linked card showing a price (a shop's category page). Found on the whole page before
 * chrome removal, so that the wrappers around the items are not taken for chrome: shop themes
 * name them after what surrounds the items ("filtering-and-pagination", "search-results",
 * "results-with-facets").
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { findAll, holdsLink, isElement, rawText } from '../dom/dom.util';
import { PRICE } from './product.cleaner';

/** A card: a name, a price, maybe a line of description, a rating and a badge. */
const MAX_CARD_TEXT = 600;
const MIN_CARD_TEXT = 4;
const MIN_CARDS = 4;
/** Most siblings are cards (a banner or an ad tile may sit among them). */
const MIN_CARD_SHARE = 0.6;

function isCard(el: Element, stats: StatsMap): boolean {
  const text = stats.get(el)?.text ?? 0;
  if (text < MIN_CARD_TEXT || text > MAX_CARD_TEXT) return false;
  return holdsLink(el) && PRICE.test(rawText(el));
}

export interface PricedGrid {
  parent: Element;
  cards: Element[];
}

/** The grid with the most priced cards under `root`, or null. */
export function findPricedGrid(root: Element, stats: StatsMap): PricedGrid | null {
  let best: PricedGrid | null = null;
  for (const parent of findAll(root, (e) => e.children.length >= MIN_CARDS)) {
    const byTag = new Map<string, Element[]>();
    let kids = 0;
    for (const c of parent.children) {
      if (!isElement(c)) continue;
      kids++;
      if (!isCard(c, stats)) continue;
      const g = byTag.get(c.name);
      if (g) g.push(c);
      else byTag.set(c.name, [c]);
    }
    for (const cards of byTag.values()) {
      if (cards.length < MIN_CARDS || cards.length < MIN_CARD_SHARE * kids) continue;
      if (!best || cards.length > best.cards.length) best = { parent, cards };
    }
  }
  return best;
}
