/**
 * Product pages: the strip of the shop's promises beside the buy button ("Free shipping · Free
 * 90-day returns · Lifetime warranty", "Fast shipping / Same day shipping if ordered by 4PM"). It is
 * the same on every product of the shop, a sales argument for the store, not a fact of the product.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { isElement, textOf } from '../dom/dom.util';

/**
 * One promise: a service word (shipping, delivery, returns, trial, warranty, guarantee, payment)
 * qualified as free, fast or secure, or by a duration; a few languages' shop wording.
 */
const PROMISE = new RegExp(
  [
    String.raw`\b(?:free|fast|express|quick|same[- ]day|next[- ]day|tracked|easy|hassle[- ]free|risk[- ]free)\b.{0,30}\b(?:shipping|delivery|returns?|exchanges?|trial)\b`,
    String.raw`\b(?:\d+|lifetime|extended)[- ](?:(?:days?|months?|years?)[- ])?(?:money[- ]back |free |hassle[- ]free )?(?:warranty|guarantee|returns?|trial)\b`,
    String.raw`\bsecure (?:payments?|checkout)\b`,
    String.raw`\b(?:livraison|retours?|échanges?) (?:gratuite?s?|offerte?s?|rapide|express)\b`,
    String.raw`\b(?:kostenlose[rn]? )(?:versand|lieferung|rückversand)\b`,
    String.raw`\b(?:envío|devoluciones?) (?:gratis|gratuit[oa]s?)\b`,
    String.raw`\b(?:spedizione|reso) (?:gratuit[oa]|gratis)\b`,
    String.raw`\bgratis (?:verzending|retourneren|bezorging)\b`,
  ].join('|'),
  'i',
);

/** A promise is a line, not a paragraph of the shop's terms. */
const MAX_PROMISE = 100;
/** The whole strip: a few badges, never a section of the description. */
const MAX_STRIP = 400;
const MIN_PROMISES = 2;

const isPromise = (text: string): boolean => text.length <= MAX_PROMISE && PROMISE.test(text);

/**
 * A strip: >= 2 of its items are promises, and promises are at least half of its items (a
 * badge row may also hold a rating or a payment-plan line).
 */
function isStrip(el: Element, stats: StatsMap): boolean {
  const text = stats.get(el)?.text ?? 0;
  if (text === 0 || text > MAX_STRIP) return false;
  let items = 0;
  let promises = 0;
  for (const c of el.children) {
    if (!isElement(c) || (stats.get(c)?.text ?? 0) === 0) continue;
    items++;
    if (isPromise(textOf(c))) promises++;
  }
  return promises >= MIN_PROMISES && promises * 2 >= items;
}

/** Remove the shop's promise strips from a product page's content (outermost ones only). */
export function removeShopPromises(root: Element, stats: StatsMap): void {
  const drop: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      // only blocks small enough to be a strip are read; larger ones are descended into
      if ((stats.get(c)?.text ?? 0) <= MAX_STRIP && isStrip(c, stats)) drop.push(c);
      else stack.push(c);
    }
  }
  removeAllWithStats(drop, stats);
}
