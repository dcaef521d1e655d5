/**
 * Collection pages: the stickers a shop pins on its product cards ("New", "Sale", "Top rated",
 * "Award winner", "Online only") are merchandising, not what the item is. A short block saying
 * only such a word, repeated on several cards, goes; the item's name, price and description
 * stay, and so does what the card says about stock ("Sold out", "Back-order": the item's state)
 * and a "Bestseller" flag, which readers of a category keep as the shop's ranking.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from './content-stats';
import { findAll, textOf } from './dom.util';

const BADGE =
  /^(?:new|new arrivals?|just in|sale|on sale|top rated|award winner|staff pick|reviewers?'? ?choice|exclusive|online only|limited edition)!?$/i;
/** A badge is a word or two. */
const MAX_BADGE_TEXT = 24;
/** Pinned on several cards: a lone "Sale" may be a link to the shop's sale. */
const MIN_REPEATS = 3;

const isBadge = (e: Element, stats: StatsMap): boolean => {
  const n = stats.get(e)?.text ?? 0;
  return n > 0 && n <= MAX_BADGE_TEXT && BADGE.test(textOf(e).trim());
};

export function removeCardBadges(root: Element, stats: StatsMap): void {
  const found = findAll(
    root,
    (e) => isBadge(e, stats),
    (e) => isBadge(e, stats),
  );
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}
