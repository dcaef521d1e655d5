/**
 * Collection pages: under each card's stars, a count of its reviews ("27 reviews", "(1 Review)",
 * "312 ratings"). The stars are drawn, so the count stands alone on a line of its own, a number
 * repeated on every card that says nothing about the item itself. Found on several cards, the
 * counts go; a sentence that mentions reviews stays.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findShortLines } from '../dom/short-line';

const COUNT = /^\(?\d[\d,.]*\s+(?:reviews?|ratings?)\)?$/i;
/** A count is a number and a word. */
const MAX_COUNT_TEXT = 20;
/** Under several cards: a lone count may be the page's own. */
const MIN_REPEATS = 3;

export function removeReviewCounts(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_COUNT_TEXT, (text) => COUNT.test(text));
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}

const N = String.raw`\d[\d,.]*`;
/**
 * A product's rating summary on a line of its own: "4.4 stars out of 1935 reviews", "4.8(333
 * reviews)", "Rated 4.4 out of 5 stars.", "1,935 ratings", "(5 customer reviews)". The stars are
 * drawn; the line says how the shop's buyers scored the item, not what the item is.
 */
const RATING = new RegExp(
  String.raw`^(?:rated\s+)?(?:${N}\s*(?:stars?\s*)?(?:out\s+of\s+${N}\s*(?:stars?)?\s*)?[.,]?\s*)?\(?${N}\s+(?:customer\s+)?(?:reviews?|ratings?)\)?\.?$` +
    String.raw`|^(?:rated\s+)?${N}\s*(?:stars?\s+)?out\s+of\s+${N}(?:\s+stars?)?\.?$`,
  'i',
);
const MAX_RATING_TEXT = 45;

/** On a page that sells one product: its rating summary lines, wherever they stand. */
export function removeRatingSummaries(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_RATING_TEXT, (text) => RATING.test(text));
  if (found.length > 0) removeAllWithStats(found, stats);
}
