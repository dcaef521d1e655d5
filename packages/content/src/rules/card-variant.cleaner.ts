/**
 * Collection pages: under each card, a line that counts the item's variants or points to them
 * ("5 colors", "3 colours available", "12 sizes", "More options from $415.98 - $765.75"). The
 * swatches it counts are drawn, so it stands alone on its line, repeated on every card, and says
 * how many versions a shop stocks rather than what the item is. Found on several cards, the lines
 * go; a sentence that mentions colors stays, and so do the variants' own names ("Black", "Navy").
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findShortLines } from '../dom/short-line';

const PRICE = String.raw`\p{Sc}?\s?\d[\d,.]*(?:\s?\p{Sc})?`;
const VARIANTS = new RegExp(
  String.raw`^(?:(?:available in\s+)?\d+\s+(?:colou?rs?|sizes|styles|finishes|options)(?:\s+available)?` +
    String.raw`|more (?:colou?rs|sizes|styles|options)(?:\s+available)?` +
    String.raw`|more options from\s+${PRICE}(?:\s*[-–]\s*${PRICE})?)$`,
  'iu',
);
/** A count is a few words and a price range. */
const MAX_LINE_TEXT = 48;
/** Under several cards: a lone line may be the page's own. */
const MIN_REPEATS = 3;

export function removeCardVariants(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_LINE_TEXT, (text) => VARIANTS.test(text));
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}
