/**
 * Collection pages: the stickers a shop pins on its product cards ("New", "Sale", "Top rated",
 * "Award winner", "Online only", "Brand new", "Clearance", "<Shop> outlet") are merchandising,
 * not what the item is. Short blocks saying only such a word, >= 3 with one recurring, go (three
 * different ones once each are a menu); the item's name, price and description
 * stay, and so does what the card says about stock ("Sold out", "Back-order": the item's state)
 * and a "Bestseller" flag, which readers of a category keep as the shop's ranking.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { textOf } from '../dom/dom.util';
import { findShortLines } from '../dom/short-line';

const BADGE =
  /^(?:new|brand new|new arrivals?|just in|sale|clearance|(?:[\p{L}&'-]+ )?outlet|on sale|top rated|award winner|staff pick|reviewers?'? ?choice|exclusive|online only|limited edition)!?$/iu;
/** A badge is a word or two. */
const MAX_BADGE_TEXT = 24;
/** Pinned on several cards: a lone "Sale" may be a link to the shop's sale. */
const MIN_REPEATS = 3;

export function removeCardBadges(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_BADGE_TEXT, (text) => BADGE.test(text));
  // a menu's 'Sale', 'New arrivals' and 'Outlet' name three stickers once each; a card's
  // sticker recurs on other cards
  const texts = new Set(found.map((e) => textOf(e).trim().toLowerCase()));
  if (found.length >= MIN_REPEATS && texts.size < found.length) removeAllWithStats(found, stats);
}
