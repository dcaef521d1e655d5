/**
 * Product pages: what a shop puts around the product itself. A product page is about one item;
 * grids of other priced items ("related products", "customers also bought", sponsored
 * carousels, bundles) are merchandising, not the product's description or specifications.
 */
import { Element, Text } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { holdsLink, isElement, rawText, setChildren, textOf } from '../dom/dom.util';

/**
 * A price: a currency sign or code next to a number, either order, the code glued to it or not
 * ("EUR22.37", "22 EUR"). A code is not part of a word, but may follow a digit: text joined from
 * neighbouring elements reads "4.6EUR22.37" or "4.6 EUR22.37" by the whitespace between them.
 */
export const PRICE =
  /(?:[$€£¥₹₩]|(?<![A-Za-z])(?:USD|EUR|GBP|AUD|CAD|CHF|JPY|SEK|NOK|DKK|PLN|RRP))\s?\d|\d(?:[\d.,\s]*\d)?\s?(?:[€£¥₹₩]|(?:USD|EUR|GBP|AUD|CAD|CHF|SEK|NOK|DKK|PLN|zł|kr|Kč|Ft|lei)(?![A-Za-z]))/;

/** A card is short: a title, a price, maybe a rating and a badge. */
const MAX_CARD_TEXT = 400;
const MIN_CARDS = 3;

/** One tile of a grid of other products: linked, priced and short. */
function isPricedCard(el: Element, stats: StatsMap): boolean {
  const text = stats.get(el)?.text ?? 0;
  if (text === 0 || text > MAX_CARD_TEXT) return false;
  return (el.name === 'a' || holdsLink(el)) && PRICE.test(rawText(el));
}

/**
 * Remove grids of priced, linked cards from a product page. The product's own price sits in a
 * single block, never in three sibling tiles; the grid goes with its heading when the two are
 * all its wrapper holds. `declared`: the page declares a Product; one read as a product by its
 * shape alone (a price, a cart button) may be a category page the classifier misread, so less
 * of it may go.
 */
export function removeProductGrids(root: Element, stats: StatsMap, declared: boolean): void {
  const grids: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    let kids = 0;
    let cards = 0;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      kids++;
      if (isPricedCard(c, stats)) cards++;
    }
    if (cards >= MIN_CARDS && cards >= 0.6 * kids && el !== root) {
      grids.push(widen(el, stats, root));
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  // a widened wrapper may hold a grid found on another branch: remove outermost ones only
  const set = new Set(grids);
  const outer = grids.filter((g) => !hasAncestorIn(g, set));
  // grids that make up most of the page are the page: a category page declaring its items as
  // Products, not one product with recommendations under it
  const gridText = outer.reduce((n, g) => n + (stats.get(g)?.text ?? 0), 0);
  const maxShare = declared ? MAX_GRID_SHARE : MAX_GRID_SHARE_UNDECLARED;
  if (gridText > maxShare * (stats.get(root)?.text ?? 0)) return;
  removeAllWithStats(outer, stats);
}

const MAX_GRID_SHARE = 0.5;
const MAX_GRID_SHARE_UNDECLARED = 1 / 3;

function hasAncestorIn(el: Element, set: Set<Element>): boolean {
  for (let p = el.parent; p && isElement(p); p = p.parent) if (set.has(p)) return true;
  return false;
}

/** Climb to the wrapper that holds only the grid and a heading or "see all" link. */
function widen(grid: Element, stats: StatsMap, root: Element): Element {
  const own = stats.get(grid)?.text ?? 0;
  let cur = grid;
  for (let up = 0; up < 4; up++) {
    const p = cur.parent;
    if (!p || !isElement(p) || p === root) break;
    if ((stats.get(p)?.text ?? 0) > own + 120) break;
    cur = p;
  }
  return cur;
}

/** Words of the description looked for in the extracted text (enough to be unmistakable). */
const PROBE_CHARS = 80;

/** Does the subtree's text hold the start of `description`? */
export function shows(root: Element, description: string): boolean {
  return textOf(root).toLowerCase().includes(probe(description));
}

const probe = (description: string): string => description.slice(0, PROBE_CHARS).toLowerCase();

/**
 * Below this much text, the extracted product is a name, a price and the buying controls: a
 * script renders the rest. Its declared description is then the page's text even when the
 * markup never shows it.
 */
const THIN_PRODUCT = 600;

/**
 * A product page whose visible text lacks the description it declares in its structured data
 * (shops hide it in tabs or accordions rendered by script): the description is added at the end
 * when the page's markup holds it somewhere (`shownOnPage`), or when what was extracted is too
 * thin to be the product's text. A declaration the page neither shows nor needs stays out (it
 * is often an SEO blurb the page words differently).
 */
export function addDeclaredDescription(root: Element, description: string, shownOnPage: boolean): void {
  const text = textOf(root);
  if (text.toLowerCase().includes(probe(description))) return;
  if (!shownOnPage && text.length >= THIN_PRODUCT) return;
  const p = new Element('p', {});
  setChildren(p, [new Text(description)]);
  setChildren(root, [...root.children, p]);
}
