/**
 * Skip links: "Skip to main content", "Skip to search results", "Skip to navigation" are the
 * keyboard user's way past a block, a link to an anchor on the same page. Themes put them
 * wherever a long block starts (a shop's filters, above its grid), inside the content region
 * as well as in the header, so they go on every page: they name the page's layout, not its text.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findShortLines } from '../dom/short-line';

const SKIP = /^skip(?:\s+to|\s+past)?\s+(?:the\s+)?[\p{L} ]{2,40}$/iu;
/** A skip link is a short line. */
const MAX_TEXT = 50;

const isSkipLink = (text: string, e: Element): boolean =>
  e.name === 'a' && !!e.attribs.href?.startsWith('#') && SKIP.test(text.replace(/\s+/g, ' '));

export function removeSkipLinks(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_TEXT, isSkipLink);
  if (found.length > 0) removeAllWithStats(found, stats);
}
