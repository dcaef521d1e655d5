/**
 * Currency converters: a shop's price popup lists the one price in many currencies ("AED:
 * 549.56", "GBP: £110.82", "AUD: $232.60", ...). It is a widget of the shop's currency plugin
 * printed under every price, not a fact of the page. A list is one when six or more of its items
 * are each a currency code and an amount alone, with as many different codes; a price table in
 * two or three currencies, or a sentence naming a code, is the page's own.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

/** "AED: 549.56AED", "GBP $110.82", "USD 1,099.00": a code, a sign maybe, an amount. */
const CODE_AMOUNT = /^([A-Z]{3})\s*:?\s*[^\p{L}\d\s]{0,3}\s*\d[\d.,\s]*(?:[A-Z]{3}|[^\p{L}\d\s]{1,3})?$/u;
const MIN_CURRENCIES = 6;

/** "KWD: $46.060" is short: longer items are not read (the pass runs on every page). */
const MAX_ITEM = 40;

function isCurrencyList(el: Element, stats: StatsMap): boolean {
  if (el.children.length < MIN_CURRENCIES) return false;
  const codes = new Set<string>();
  for (const c of el.children) {
    if (!isElement(c)) continue;
    const n = stats.get(c)?.text ?? 0;
    if (n === 0 || n > MAX_ITEM) continue;
    const m = CODE_AMOUNT.exec(textOf(c));
    if (m) codes.add(m[1]!);
  }
  return codes.size >= MIN_CURRENCIES;
}

export function removeCurrencyLists(root: Element, stats: StatsMap): void {
  const is = (e: Element): boolean => isCurrencyList(e, stats);
  const found = findAll(root, is, is);
  if (found.length > 0) removeAllWithStats(found, stats);
}
