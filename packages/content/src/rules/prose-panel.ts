/**
 * Service pages fold the text about what they offer into accordions ("How it works", feature
 * lists, FAQs) whose closed panels are hidden until a click: readers open them, and the text is
 * the page's own. Articles do the same with their closing questions and answers, shops with the
 * buying guide under their items. Only panels holding prose (a paragraph or a list item of words)
 * are shown; closed filter lists and tabs of cards and buttons stay hidden (a menu or a carousel,
 * not text).
 */
import type { Element } from 'domhandler';
import { findAll, textOf } from '../dom/dom.util';

/** A paragraph of at least this many characters outside links is prose. */
const MIN_PROSE = 60;
/** Guides fold their advice as lists too ("Sit-in kayaks move fast, track straight..."). */
const PROSE_BLOCKS = new Set(['p', 'li']);
/** Most of the panel's text is outside links. */
const MAX_LINK_SHARE = 0.5;

const linkText = (el: Element): number =>
  findAll(
    el,
    (e) => e.name === 'a',
    (e) => e.name === 'a',
  ).reduce((n, a) => n + textOf(a).length, 0);

export function holdsProse(panel: Element): boolean {
  const total = textOf(panel).length;
  if (total === 0 || linkText(panel) > MAX_LINK_SHARE * total) return false;
  return findAll(panel, (e) => PROSE_BLOCKS.has(e.name)).some(
    (p) => textOf(p).length - linkText(p) >= MIN_PROSE,
  );
}
