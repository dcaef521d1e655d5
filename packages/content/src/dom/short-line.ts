/**
 * Short lines that say only one thing (a card's sticker, a review count, a results bar's count,
 * a card's control, a skip link): the outermost elements of a region whose whole text is short
 * and passes a test. The cleaners built on it decide what is enough of them to remove.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from './content-stats';
import { findAll, textOf } from './dom.util';

/** `says` gets the element's text, trimmed (whitespace runs kept: some tests read them). */
export function findShortLines(
  root: Element,
  stats: StatsMap,
  maxText: number,
  says: (text: string, e: Element) => boolean,
): Element[] {
  const is = (e: Element): boolean => {
    const n = stats.get(e)?.text ?? 0;
    return n > 0 && n <= maxText && says(textOf(e).trim(), e);
  };
  return findAll(root, is, is);
}
