/**
 * Listing pages: link aggregators and boards follow each item with a metadata line of
 * pipe-separated bits ("12 points by ann 3 hours ago | hide | past | 4 comments"): a vote count
 * or a relative time, then per-item actions. The item's title and link are the content; the
 * line, repeated under every item, is not.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, textOf } from '../dom/dom.util';

/** One item's metadata fits on a short line. */
const MAX_LINE_TEXT = 200;
/** Short bits: a long segment is prose that happens to hold a pipe. */
const MAX_SEGMENT = 60;
/** At least three bits: the count or time, then actions. */
const MIN_SEGMENTS = 3;
/** Under several items, not a page's one byline. */
const MIN_REPEATS = 3;
const COUNT_OR_AGE =
  /\b\d[\d,.]*\s*(?:points?|votes?|karma)\b|\b\d+\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b/i;

const isMetaLine = (e: Element, stats: StatsMap): boolean => {
  const n = stats.get(e)?.text ?? 0;
  if (n === 0 || n > MAX_LINE_TEXT) return false;
  const text = textOf(e);
  const parts = text.split('|').map((s) => s.trim());
  return (
    parts.length >= MIN_SEGMENTS &&
    parts.every((s) => s.length <= MAX_SEGMENT) &&
    COUNT_OR_AGE.test(parts[0] ?? '')
  );
};

export function removeItemMetaLines(root: Element, stats: StatsMap): void {
  const found = findAll(
    root,
    (e) => isMetaLine(e, stats),
    (e) => isMetaLine(e, stats),
  );
  if (found.length >= MIN_REPEATS) removeAllWithStats(found, stats);
}
