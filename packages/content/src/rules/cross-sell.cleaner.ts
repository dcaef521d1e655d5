/**
 * Product pages: sections a shop adds under the product to sell other ones ("Frequently bought
 * together", "Customers also viewed", "Similar items", "Recently viewed", "Complete the look") or
 * to state its terms ("Shipping & returns", "Delivery options", "Payment & security", a
 * "Disclaimer" on its product information), or to sell
 * beside it ("Choose your add-ons", "Accessories", "Complete your order", customer testimonials).
 * Their cards are often not priced or linked the way the product-grid rule needs (carousels
 * filled by script, sponsored tiles with scrambled labels), but their heading says what they are.
 */
import type { Element, ParentNode } from 'domhandler';
import { removeAllWithStats, type StatsMap, textBefore } from '../dom/content-stats';
import { findAll, isElement, isText, opensWith, textOf } from '../dom/dom.util';

/**
 * A heading that introduces other products, or the shop's delivery and returns terms, the same
 * on every product of the shop (shop vocabulary; punctuation may follow).
 */
const CROSS_SELL_HEAD =
  /^(?:(?:free )?(?:shipping|delivery) (?:and|&) returns?|(?:legal |product )?disclaimers?|shipping(?: information| policy| details)?|returns?(?: policy)?|delivery(?: information| options)?|payment (?:and|&) security|frequently (?:bought|purchased) (?:together|with)|(?:choose|select|add) (?:your )?add-?ons|complete your (?:order|purchase)|(?:customer |user )?testimonials|(?:recommended |compatible )?accessories|(?:[\w']+ ){0,3}(?:customers|people|shoppers) who (?:bought|viewed|purchased)\b.{0,40}|(?:customers|people|shoppers) (?:also|often) (?:bought|viewed|purchased|liked|love)\b.{0,30}|(?:you (?:may|might|will) )?also (?:like|love|need)\b.{0,30}|you (?:may|might) (?:also )?(?:like|love|need)\b.{0,30}|(?:similar|related|recommended|suggested|sponsored) (?:items|products|articles|picks)\b.{0,30}|(?:explore|shop|discover) (?:related|similar) (?:items|products)|(?:your )?recently viewed(?: items| products)?|complete the (?:look|set)|shop the look|(?:pairs|goes) well with|more (?:items )?from (?:this|the) (?:seller|brand|shop|store|collection)|(?:seller|shop)'?s other items|compare (?:with )?similar (?:items|products))[\s:.!»›-]*$/i;

const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
const MAX_HEADING = 80;
/** Blocks a theme styles as a section title instead of using a heading element. */
const TITLE_BLOCKS = new Set(['p', 'div', 'span', 'strong', 'b']);
const TITLE_CLASS = /(?:^|[\s_-])(?:title|heading|headline)(?:$|[\s_-])/i;

/**
 * A heading element, the <summary> of a <details> (accordions of shipping terms), a bold line, or a block
 * named as a title ('recommendations-title', 'section-heading') or marked role=heading:
 * carousels built by page builders often title themselves with a <p>.
 */
const isHeading = (e: Element): boolean =>
  HEADINGS.has(e.name) ||
  e.name === 'summary' ||
  (e.name === 'p' && isBoldLine(e)) ||
  (TITLE_BLOCKS.has(e.name) &&
    (e.attribs.role === 'heading' || TITLE_CLASS.test(e.attribs.class ?? '')) &&
    !hasTwin(e));

/**
 * A paragraph set wholly in bold is a heading too: rich-text fields (a product's accordion of
 * terms) have no heading element, editors bold a line instead.
 */
function isBoldLine(p: Element): boolean {
  let bold: Element | undefined;
  for (const c of p.children) {
    if (isElement(c)) {
      if (bold || (c.name !== 'b' && c.name !== 'strong')) return false;
      bold = c;
    } else if (isText(c) && c.data.trim() !== '') return false;
  }
  return bold !== undefined;
}

/** A title block repeated beside itself is a tab label of a tab bar, not a section's title. */
function hasTwin(e: Element): boolean {
  const p = e.parent;
  if (!p) return false;
  for (const c of p.children)
    if (c !== e && isElement(c) && c.name === e.name && c.attribs.class === e.attribs.class) return true;
  return false;
}
/**
 * The product before the section: enough text that the section cannot be the page. No share of
 * the page is asked for: a listing's own text can be a title and a few condition lines, far less
 * than the carousels under it.
 */
const MIN_BEFORE = 250;
/** A section holding most of the page is not an appendix to it. */
const MAX_SECTION_SHARE = 0.5;

/**
 * The block the heading opens: its parent, or, when the heading sits alone in wrappers (a title
 * bar), the parent of the outermost wrapper that holds nothing but the heading. A heading that
 * opens nothing (its cards are filled in by script) goes alone, with its wrappers.
 */
function sectionOf(h: Element, root: Element, stats: StatsMap): Element {
  const own = stats.get(h)?.text ?? 0;
  let cur = h;
  for (;;) {
    const p = cur.parent;
    if (!p || !isElement(p) || p === root || !opensWith(p, cur)) return cur;
    if ((stats.get(p)?.text ?? 0) > own) return p;
    cur = p;
  }
}

export function trimCrossSellSections(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const drop: Element[] = [];
  for (const h of findAll(root, isHeading)) {
    const s = stats.get(h);
    if (!s || s.text === 0 || s.text > MAX_HEADING || !CROSS_SELL_HEAD.test(textOf(h))) continue;
    const section = sectionOf(h, root, stats);
    if (drop.some((d) => d === section || isInside(section, d))) continue;
    if ((stats.get(section)?.text ?? 0) > MAX_SECTION_SHARE * total) continue;
    const before = textBefore(section, root, stats);
    if (before < MIN_BEFORE) continue;
    drop.push(section);
  }
  removeAllWithStats(drop, stats);
}

function isInside(el: Element, ancestor: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}
