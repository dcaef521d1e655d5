/**
 * Collection pages: under each card's stars, a count of its reviews ("27 reviews", "(1 Review)",
 * "312 ratings"). The stars are drawn, so the count stands alone on a line of its own, a number
 * repeated on every card that says nothing about the item itself. Found on several cards, the
 * counts go; a sentence that mentions reviews stays.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from './content-stats';
import { findShortLines } from './short-line';

const COUNT = /^\(?\d[\d,.]*\s+(?:reviews?|ratings?)\)?$/i;
/** A count is a number and a word. */
const MAX_COUNT_TEXT = 20;
/** Under several cards: a lone count may be the page's own. */
const MIN_REPEATS = 3;

export function removeReviewCounts(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_COUNT_TEXT, (text) => COUNT.test(text));
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}
