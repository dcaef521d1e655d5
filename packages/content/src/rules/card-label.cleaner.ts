/**
 * Collection pages: the field names a card template prints as a description list's terms
 * ("Brand name", "Product name", "Price", "Rating") say the same on every card and nothing about
 * the item. A term of a few words whose text recurs on several cards goes; the values (<dd>)
 * stay. Inline labels ("Price: $49", "Maker:") stay: readers keep them with their value.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, textOf } from '../dom/dom.util';

/** A field name is a few words, no figures. */
const LABEL = /^\p{L}[\p{L} '&/-]{0,28}$/u;
const MAX_LABEL_TEXT = 30;
/** On several cards: a term printed once is the page's own (a specification list). */
const MIN_REPEATS = 3;

const labelKey = (e: Element, stats: StatsMap): string | undefined => {
  const n = stats.get(e)?.text ?? 0;
  if (n === 0 || n > MAX_LABEL_TEXT) return undefined;
  if (e.name !== 'dt') return undefined;
  const text = textOf(e).replace(/\s+/g, ' ').trim().replace(/:$/, '').trim();
  return LABEL.test(text) ? text.toLowerCase() : undefined;
};

export function removeCardLabels(root: Element, stats: StatsMap): void {
  const byText = new Map<string, Element[]>();
  findAll(
    root,
    (e) => {
      const key = labelKey(e, stats);
      if (key === undefined) return false;
      const same = byText.get(key);
      if (same) same.push(e);
      else byText.set(key, [e]);
      return true;
    },
    (e) => labelKey(e, stats) !== undefined,
  );
  const gone = [...byText.values()].filter((els) => els.length >= MIN_REPEATS).flat();
  if (gone.length > 0) removeAllWithStats(gone, stats);
}
