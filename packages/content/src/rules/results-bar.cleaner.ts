/**
 * Collection pages: the bar above or below the grid that counts the results shown ("1–30 of 338
 * products", "Showing 1 - 24 of 300", "1-24 items of 33") and names the order they are sorted in ("Sort: Best
 * match", "Sort by:") is the grid's control, not what the items are. A short block saying only
 * that goes; a bare total ("210 items") stays, as readers of a category keep it with its heading.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findShortLines } from '../dom/short-line';

const RANGE_COUNT =
  /^(?:(?:showing|displaying|viewing|results?)\s*:?\s*)?\d[\d,.]*\s*(?:-|–|—|to)\s*\d[\d,.]*\s+(?:(?:products?|items?|results?)\s+)?(?:of|out of)\s+\d[\d,.]*(?:\s+(?:products?|items?|results?|styles?|matches))?\.?$/i;
const SORT_CONTROL = /^sort(?:\s+by)?(?:\s*:\s*[^:]{0,30}|\s+options)?$/i;
/** One bar's count or sort label is a short line. */
const MAX_BAR_TEXT = 50;

const isBarLine = (raw: string): boolean => {
  const text = raw.replace(/\s+/g, ' ');
  return RANGE_COUNT.test(text) || SORT_CONTROL.test(text);
};

export function removeResultsBar(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_BAR_TEXT, isBarLine);
  if (found.length > 0) removeAllWithStats(found, stats);
}
