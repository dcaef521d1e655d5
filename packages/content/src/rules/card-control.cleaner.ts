/**
 * Collection pages: the controls every product card repeats ("Quick view", "Add to cart",
 * "View details", "Compare", "Add to wishlist"; "Read full story", "+ More" on teaser cards) are
 * buttons drawn as links or spans, not what the item is. A line made only of such words,
 * repeated on several cards, goes; the item's name, price and description stay.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { isText } from '../dom/dom.util';
import { findShortLines } from '../dom/short-line';

const CONTROL =
  /^(?:(?:quick|fast) ?(?:view|shop|look|add|buy)|(?:view|see|show) (?:details?|product|options|more)|add to (?:cart|bag|basket|trolley|wish ?list|favou?rites|compare)|add to wish-list|compare|(?:choose|select) options|calculate shipping|more details|more info|more|read more|read (?:the )?(?:full )?(?:story|article|review|post))$/i;
/** One card's control is a short line. */
const MAX_CONTROL_TEXT = 30;
/** Repeated on several cards: a lone "Compare" link may be the page's own feature. */
const MIN_REPEATS = 3;

/**
 * Words of a sentence beside it ("…; read more at the port office") make it a link in the text;
 * separators between a card's controls ("Compare | Add to cart") do not.
 */
const WORD = /[\p{L}\p{N}]/u;
const inSentence = (e: Element): boolean =>
  (e.parent?.children ?? []).some((c) => c !== e && isText(c) && WORD.test(c.data));

const isControl = (text: string, e: Element): boolean =>
  !inSentence(e) && CONTROL.test(text.replace(/[+›»→]/g, '').trim());

export function removeCardControls(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_CONTROL_TEXT, isControl);
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}
