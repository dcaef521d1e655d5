/**
 * Listing, collection and service pages: every item of a list or grid repeats one action link
 * ("Read full story", "View map", "Start course", "Read their story"), each to its own item.
 * The item's title says where it goes; the action, on a line of its own under every item, is a
 * button, not what the item is. A label repeated on items ("Europe", "Opinion") is no verb and
 * points at one page every time: it stays.
 */
import type { Element } from 'domhandler';
import { isBlockName, removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

/** An action is a few words. */
const MAX_CHARS = 40;
const MAX_WORDS = 5;
/** Under several items, each to its own page. */
const MIN_TARGETS = 3;
/** Text around the link on its line (an arrow, a separator). */
const SLACK = 4;

/** Dates, ages and counts ('9 days ago', 'Mar 14') are each item's own data, not an action. */
const NUMBER = /(?:^|[^\p{L}\p{N}])\d+(?:$|[^\p{L}\p{N}])/u;

/** An action says what to do: a verb first ('read the full story', 'view map') or 'more'. */
const ACTION =
  /^(?:read|view|visit|see|explore|learn|start|check|register|watch|listen|discover|find|get|go|open|shop|buy|book|apply|download|continue|show|compare|join|enrol+|sign|try|play|more|\+ more)\b/;

const isLink = (e: Element): boolean => e.name === 'a' && !!e.attribs.href;

function blockOf(e: Element): Element | null {
  for (let p = e.parent; p; p = p.parent) if (isElement(p) && isBlockName(p.name)) return p;
  return null;
}

export function removeItemActions(root: Element, stats: StatsMap): void {
  const byText = new Map<string, Element[]>();
  for (const a of findAll(root, isLink, isLink)) {
    const n = stats.get(a)?.text ?? 0;
    if (n === 0 || n > MAX_CHARS) continue;
    const t = textOf(a).toLowerCase();
    if (t.split(' ').length > MAX_WORDS || !ACTION.test(t) || NUMBER.test(t)) continue;
    const list = byText.get(t);
    if (list) list.push(a);
    else byText.set(t, [a]);
  }
  const drop: Element[] = [];
  for (const links of byText.values()) {
    if (links.length < MIN_TARGETS) continue;
    const targets = new Set(links.map((a) => a.attribs.href));
    if (targets.size < MIN_TARGETS) continue;
    // on a line of its own: a link inside a sentence or beside the item's name is part of it
    const alone = links.filter((a) => {
      const block = blockOf(a);
      return !!block && (stats.get(block)?.text ?? 0) - (stats.get(a)?.text ?? 0) <= SLACK;
    });
    if (alone.length < MIN_TARGETS) continue;
    drop.push(...alone);
  }
  if (drop.length > 0) removeAllWithStats(drop, stats);
}
