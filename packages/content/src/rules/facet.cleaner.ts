/**
 * Listing, collection and product pages: the facet and filter panels beside the items (brand, price, size
 * checkboxes; sort menus) are controls for the list, not its content. They are named for what
 * they do, in class or id, on every shop platform. A product page's review list has its own
 * (rating, playtime, device).
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll } from '../dom/dom.util';

const FACET = /(?:^|[\s_-])(?:facets?|filters?|refinements?|refine|sort-?by|sorting|sort)(?:$|[\s_-])/i;
/** A panel named so but holding much of the region is the list itself, named by a framework. */
const MAX_SHARE = 0.3;

/** A heading's id is an anchor made from its words ("bloom-filter"), not the name of a control. */
const HEADING = /^h[1-6]$/;

const named = (e: Element): boolean =>
  !HEADING.test(e.name) &&
  ((e.attribs.class !== undefined && FACET.test(e.attribs.class)) ||
    (e.attribs.id !== undefined && FACET.test(e.attribs.id)));

export function removeFacets(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  const small = (e: Element): boolean => (stats.get(e)?.text ?? 0) <= MAX_SHARE * total;
  // a block named so but too large to be a panel ("grid facets-vertical" around the items and
  // their filters) is looked into: the filter panels beside the items are named inside it
  const panels = findAll(
    root,
    (e) => named(e) && small(e),
    (e) => named(e) && small(e),
  );
  if (panels.length > 0) removeAllWithStats(panels, stats);
}
