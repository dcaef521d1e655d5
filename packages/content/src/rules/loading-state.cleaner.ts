/**
 * Loading placeholders: "Loading...", "Loading reviews...", "Loading recommendations" are what a
 * script-filled slot shows before its request returns. A saved page keeps the placeholder, never
 * what came later, so it says nothing about the page and goes, on every page type.
 */
import { Element, type Text } from 'domhandler';
import { computeStats, removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { isElement, isText, setChildren, textOf } from '../dom/dom.util';

const ELLIPSIS = String.raw`\s*(?:\.{2,}|…)`;
const WAIT = '(?:loading|please wait|chargement|cargando|caricamento|carregando|wird geladen|laden)';
/**
 * The whole text of the block: the bare word with an ellipsis (repeated when a spinner and its
 * label both say it), the word and a short object with an ellipsis ('Loading reviews...'), or
 * the word and one of the slots shops fill late, without one ('Loading recommendations').
 */
const LOADING = new RegExp(
  [
    String.raw`^(?:${WAIT}${ELLIPSIS}\s*)+$`,
    String.raw`^${WAIT}\s+[\p{L}_ -]{1,30}?${ELLIPSIS}$`,
    '^loading (?:recommendations|reviews|results|comments|questions|content|more)$',
  ].join('|'),
  'iu',
);
/** A placeholder is a short label. */
const MAX_TEXT = 40;

/**
 * A loose text node (a streaming renderer's fallback, between its slots) is wrapped in a span of
 * its own so it goes like an element: the same label in a wrapper must read the same.
 */
function wrapped(text: Text, stats: StatsMap): Element {
  const span = new Element('span', {});
  const parent = text.parent!;
  parent.children[parent.children.indexOf(text)] = span;
  span.parent = parent;
  span.prev = text.prev;
  span.next = text.next;
  if (span.prev) span.prev.next = span;
  if (span.next) span.next.prev = span;
  setChildren(span, [text]);
  const own = computeStats(span).get(span);
  if (own) stats.set(span, own);
  return span;
}

/**
 * Remove the outermost blocks (or loose text) of <= `max` chars whose whole text is `label`: the
 * state a script-filled slot was saved in (loading here, failed in error-state.cleaner.ts).
 */
export function removeSlotLabels(root: Element, stats: StatsMap, label: RegExp, max: number): void {
  const drop: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    for (const c of el.children) {
      if (isText(c)) {
        const t = c.data.trim();
        if (t.length > 0 && t.length <= max && label.test(t.replace(/\s+/g, ' ')))
          drop.push(wrapped(c, stats));
        continue;
      }
      if (!isElement(c)) continue;
      const text = stats.get(c)?.text ?? 0;
      if (text === 0) continue;
      if (text <= max && label.test(textOf(c).trim())) drop.push(c);
      else stack.push(c);
    }
  }
  removeAllWithStats(drop, stats);
}

/** Remove loading placeholders from the content. */
export const removeLoadingStates = (root: Element, stats: StatsMap): void =>
  removeSlotLabels(root, stats, LOADING, MAX_TEXT);
