/**
 * Product pages open their description, specifications or ingredients in a sheet over the page
 * ("product-details-modal", "specifications-drawer"): a panel folded behind a button, named after
 * the widget. On a product page such a sheet is the product's text, not an overlay to drop; the
 * word before the widget's name says what it holds.
 */
import type { Element } from 'domhandler';

const SHEET_WORDS = new Set(['modal', 'popup', 'popover', 'drawer', 'overlay', 'offcanvas']);
const HOLDS_PRODUCT_TEXT =
  /(?:^|[\s_-])(?:(?:product|item)[-_]?(?:details?|description|info(?:rmation)?|specs|specifications|features)|details|description|specifications|specs|ingredients|dimensions|materials)[-_]+(?:\w+[-_]+)?(?:modal|popup|popover|drawer|overlay|offcanvas|sheet)/i;

export function isDetailSheet(el: Element, family: string): boolean {
  if (!SHEET_WORDS.has(family)) return false;
  const name = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  return HOLDS_PRODUCT_TEXT.test(name);
}
