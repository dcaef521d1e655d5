/**
 * Collection pages that declare an FAQPage in their structured data: shops put a block of
 * questions and answers (shipping, sizing, "which model is best") under their item grids as
 * search-engine copy. It is the page's longest prose, so article mode would keep it alone and
 * drop the items; the page is about its items, and the region holding them is kept instead.
 */
import type { Element } from 'domhandler';
import { holds } from '../rules/item-grid';
import type { PageHints } from './metadata.extractor';

/** The item grid to keep in a region, when a collection's declared FAQ must not be its body. */
export function faqBesideItems(
  body: Element,
  items: Element | undefined,
  hints?: PageHints,
): Element | undefined {
  if (hints?.pageType !== 'collection' || !items || !holds(body, items)) return undefined;
  return hints.declared?.schemaTypes.includes('FAQPage') ? items : undefined;
}
