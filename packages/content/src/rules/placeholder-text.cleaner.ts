/**
 * Template placeholders: "Lorem ipsum dolor sit amet…" is the filler text of page templates, left
 * in a hidden slide, an unused tab or an unfinished block. It is never what a page says, in any
 * language, so the block that holds it goes (the smallest block: the rest of its section stays).
 */
import type { ChildNode, Element } from 'domhandler';
import { isBlockName, removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, isText, textOf } from '../dom/dom.util';

const FILLER = /lorem ipsum dolor sit amet/i;
/** A block much longer than a filler paragraph holds real text beside it: it stays. */
const MAX_BLOCK = 1200;

/** Has a block descendant that holds the filler itself (the block to remove is deeper). */
function deeperHolds(el: Element): boolean {
  for (const c of el.children)
    if (isElement(c) && (isBlockName(c.name) ? FILLER.test(textOf(c)) : deeperHolds(c))) return true;
  return false;
}

const WORD = /lorem/i;

function hasWord(root: Element): boolean {
  const stack: ChildNode[] = [...root.children];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isText(n)) {
      if (WORD.test(n.data)) return true;
    } else if (isElement(n)) for (const c of n.children) stack.push(c);
  }
  return false;
}

export function removePlaceholderText(root: Element, stats: StatsMap): void {
  // cheap test first: most pages carry no filler at all (a word is never split across text nodes)
  if (!hasWord(root)) return;
  const drop = findAll(root, (e) => {
    if (e === root || !isBlockName(e.name)) return false;
    const t = textOf(e);
    return t.length <= MAX_BLOCK && FILLER.test(t) && !deeperHolds(e);
  });
  removeAllWithStats(drop, stats);
}
