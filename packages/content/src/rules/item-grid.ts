/**
 * The item grid of a listing or collection page: the largest group of same-tag siblings that
 * each hold a link and some text (cards, result rows, product tiles). Found on the extraction DOM
 * after chrome removal, from the per-element stats, without another text walk.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { findAll, isElement } from '../dom/dom.util';

export interface ItemGrid {
  /** The element whose children are the items. */
  parent: Element;
  items: Element[];
  /** Visible text of the items together. */
  text: number;
}

/** An item is a card with a link and a few words: a name, a price, a teaser. */
const MIN_ITEM_TEXT = 16;
const MIN_ITEMS = 4;
/** Lists of links in the page's header, navigation, footer or sidebar are menus, not items. */
const CHROME = new Set(['header', 'nav', 'footer', 'aside']);

/** The group with the most items among groups holding at least `minShare` of the root's text. */
export function findItemGrid(root: Element, stats: StatsMap, minShare: number): ItemGrid | null {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return null;
  let best: ItemGrid | null = null;
  const parents = findAll(
    root,
    (e) => e.children.length >= MIN_ITEMS && !CHROME.has(e.name),
    (e) => CHROME.has(e.name),
  );
  for (const parent of parents) {
    const groups = new Map<string, ItemGrid>();
    for (const c of parent.children) {
      if (!isElement(c)) continue;
      const s = stats.get(c);
      if (!s || s.link === 0 || s.text < MIN_ITEM_TEXT) continue;
      const g = groups.get(c.name);
      if (g) {
        g.items.push(c);
        g.text += s.text;
      } else groups.set(c.name, { parent, items: [c], text: s.text });
    }
    for (const g of groups.values()) {
      if (g.items.length < MIN_ITEMS || g.text < minShare * total) continue;
      const more = !best || g.items.length > best.items.length;
      if (more || (g.items.length === best?.items.length && g.text > best.text)) best = g;
    }
  }
  return best;
}

/** Items holding at least this share of the page's text are what a listing page is about. */
const LISTING_GRID_SHARE = 0.5;

/**
 * On a listing or collection page, the element whose items the main region must keep: cards are
 * mostly link text, so a region chosen by text outside links would leave them for an intro blurb.
 */
export function listingItems(body: Element, stats: StatsMap): Element | undefined {
  return findItemGrid(body, stats, LISTING_GRID_SHARE)?.parent;
}

/** `inner` is `outer` or lies inside it. */
export function holds(outer: Element, inner: Element): boolean {
  for (let p: Element | null = inner; p; p = p.parent && isElement(p.parent) ? p.parent : null)
    if (p === outer) return true;
  return false;
}
