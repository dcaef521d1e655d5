/**
 * Collection pages open with the category's heading and a line or two about it, often in a hero
 * or header block of their own above the items ("Since 1743, Hakutsuru has been crafting...").
 * The content chosen below it (the items, or a longer guide in article mode) leaves that block
 * out; it is the page's introduction, and joins the content in front of it.
 */
import type { Element, ParentNode } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { isElement } from '../dom/dom.util';
import { holds } from './item-grid';

/** A heading and an intro: a short block, never a section of the page. */
const MAX_INTRO = 600;
/** Mostly words, not a menu of sub-categories. */
const MAX_LINK_SHARE = 0.3;

/** Ancestors of `el`, from the document root down to `el`. */
function path(el: Element): ParentNode[] {
  const out: ParentNode[] = [];
  for (let p: ParentNode | null = el; p; p = p.parent) out.push(p);
  return out.reverse();
}

/** `a` comes before `b` in document order (neither holds the other). */
function precedes(a: Element, b: Element): boolean {
  const pa = path(a);
  const pb = path(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  const parent = pa[i - 1];
  if (!parent || i >= pa.length || i >= pb.length) return false;
  return parent.children.indexOf(pa[i] as Element) < parent.children.indexOf(pb[i] as Element);
}

/**
 * The block around the page's `<h1>` (one of `headings`, the page's h1/h2 elements) that lies
 * before the chosen content, outside it, and holds prose: `prose` gives each element's text of
 * prose paragraphs.
 */
export function introBefore(
  chosen: readonly Element[],
  body: Element,
  stats: StatsMap,
  prose: Map<Element, number>,
  headings: readonly Element[] = [],
): Element | undefined {
  const first = chosen[0];
  if (!first || first === body) return undefined;
  const h1 = headings.find((h) => h.name === 'h1' && holds(body, h) && !chosen.some((c) => holds(c, h)));
  if (!h1) return undefined;
  let block: Element = h1;
  for (let p = h1.parent; p && isElement(p) && p !== body; p = p.parent) {
    if ((stats.get(p)?.text ?? 0) > MAX_INTRO || chosen.some((c) => holds(p, c))) break;
    block = p;
  }
  const s = stats.get(block);
  if (block === h1 || !s || s.link > MAX_LINK_SHARE * s.text || (prose.get(block) ?? 0) === 0)
    return undefined;
  return precedes(block, first) ? block : undefined;
}
