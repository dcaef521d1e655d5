/**
 * Shop listings: announcement bars repeat a shipping offer ("Free standard shipping on orders
 * $40+"), rotating or once per country with all but one hidden by script. The offer is store chrome,
 * not the items; in article mode a bar of twenty such lines can even win as the page's prose.
 */
import type { Element, ParentNode } from 'domhandler';
import { findAll, removeNode, textOf } from '../dom/dom.util';

/** One offer with its small print: a bar's line, never a paragraph of a guide. */
const MAX_OFFER_TEXT = 200;
const OFFER =
  /\bfree (?:standard |express |ground |next[- ]day )?(?:shipping|delivery) (?:on|over|for) (?:all |qualifying |eligible )?orders?\b/i;

const isOffer = (e: Element): boolean => {
  const t = textOf(e);
  return t.length > 0 && t.length <= MAX_OFFER_TEXT && OFFER.test(t);
};

/** A rotating or per-country bar repeats its offer; one mention may be the shop's own copy. */
const MIN_OFFERS = 3;

export function removeShippingOffers(root: ParentNode): void {
  const found = findAll(root, isOffer, isOffer);
  if (found.length >= MIN_OFFERS) for (const el of found) removeNode(el);
}
