/**
 * Collection pages: the cards of the item grid are often `<div>`s or `<article>`s, which the
 * markdown renders as a flat run of paragraphs (image, name, variant, price, next image...), so
 * items run into each other. The extracted grid is made a list: one bullet per item.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { isElement } from '../dom/dom.util';
import { findPricedGrid } from './priced-grid';

/** Tags a card may be renamed from: plain boxes, no semantics of their own to lose. */
const BOXES = new Set(['div', 'article', 'section']);

export function listCards(root: Element, stats: StatsMap): void {
  const grid = findPricedGrid(root, stats);
  if (!grid || grid.parent === root || !BOXES.has(grid.parent.name)) return;
  if (!grid.cards.every((c) => BOXES.has(c.name))) return;
  // only when the cards are all the grid holds: a banner among them would become an item
  for (const c of grid.parent.children) if (isElement(c) && !grid.cards.includes(c)) return;
  grid.parent.name = 'ul';
  for (const c of grid.cards) c.name = 'li';
}
