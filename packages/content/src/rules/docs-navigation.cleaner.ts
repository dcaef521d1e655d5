/**
 * Documentation pages: the section tree beside the text, the page's own table of contents,
 * previous/next page links, version and language switchers, and the "Edit this page" / "Was this
 * helpful?" widgets are the docs site's navigation, not the page. Docs themes put them inside
 * `<main>` under neutral class names, so they are found by shape: lists made of links (nested for
 * a tree; in-page `#anchors` for a table of contents) and short lines of a known vocabulary.
 * Headings, prose, tables and code blocks are never touched.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

const LIST = new Set(['ul', 'ol']);
const KEEP = new Set(['pre', 'code', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A widget may carry its own small heading ("Help improve the docs"); code, tables, h1 never. */
const NEVER_WIDGET = new Set(['pre', 'code', 'table', 'h1']);
const HEADING = /^h[2-6]$/;

/** A tree of ≥ this many links, almost all of its text in links, is a navigation tree. */
const TREE_LINKS = 6;
const TREE_DENSITY = 0.8;
/** A table of contents: ≥ this many links into one page (`#anchor`), nearly all its text. */
const TOC_LINKS = 3;
/** Furniture lines and prev/next blocks are short. */
const MAX_LINE = 200;

/** The label a table of contents carries above its list. */
const TOC_LABEL =
  /^(?:on this page|in this (?:article|page|section|topic|guide)|(?:table of )?contents|page contents|contents of this page|sections|jump to|outline|toc)\s*:?$/i;

/** "Edit this page", feedback prompts, last-modified stamps, back-to-top links. */
const WIDGET =
  /^(?:was this (?:page|article|section|doc(?:ument)?|content|information)? ?(?:helpful|useful)|did (?:this|you find this) (?:page|article|doc(?:ument)?)? ?(?:help|helpful)|is this page helpful|rate this (?:page|article)|(?:edit|improve) (?:this page|this doc(?:ument)?|this article|on github)|help (?:us )?improve\b|learn how to contribute|suggest (?:an )?edits?|report (?:a problem|an issue|a bug) with this|view (?:this page|the source|source|page source) on|this page was last (?:modified|updated|edited)|last (?:modified|updated|edited)(?: on)?:? |back to top|(?:jump|skip) to (?:main )?(?:navigation|search|content)|share (?:via|this page)|give (?:us )?feedback|send feedback|(?:learn how to )?contribute to (?:this|the) (?:page|docs|documentation))/i;

/** Previous / next page links: a block of one or two such links and little else. */
const PREV_NEXT_DENSITY = 0.6;
const PREV_NEXT = /^(?:[«‹←<]\s*)?(?:previous|prev|next|older|newer)\b(?!\s+steps?\b)|^[«‹←→›»]/i;

/** A version or language switcher's entries: "5.1", "v3", "dev", "latest", "pt-br", "zh-hans". */
const SWITCH_ENTRY =
  /^(?:v?\d+(?:\.\d+){0,2}(?:\.x)?|dev|latest|stable|main|master|nightly|[a-z]{2}(?:[-_][a-z]{2,4})?)$/i;

const SWITCH_DENSITY = 0.6;

const textLen = (stats: StatsMap, e: Element): number => stats.get(e)?.text ?? 0;
const linkLen = (stats: StatsMap, e: Element): number => stats.get(e)?.link ?? 0;

const holdsKept = (e: Element): boolean => findAll(e, (x) => KEEP.has(x.name)).length > 0;
const holdsCode = (e: Element): boolean => findAll(e, (x) => NEVER_WIDGET.has(x.name)).length > 0;

/** Path part of an href that points into one page ("#x", "page#x"), else null. */
function anchorBase(href: string | undefined): string | null {
  if (!href) return null;
  const i = href.indexOf('#');
  return i >= 0 && i < href.length - 1 ? href.slice(0, i) : null;
}

/** Outermost lists only: a nested list is judged as part of its tree. */
function outerLists(root: Element): Element[] {
  return findAll(
    root,
    (e) => LIST.has(e.name),
    (e) => LIST.has(e.name),
  );
}

function linksOf(list: Element): Element[] {
  return findAll(list, (e) => e.name === 'a' && !!e.attribs.href);
}

/** Every link points into one page (its own `#anchors`). */
function isToc(list: Element, links: Element[], stats: StatsMap): boolean {
  if (links.length < TOC_LINKS) return false;
  const bases = new Set<string>();
  for (const a of links) {
    const b = anchorBase(a.attribs.href);
    if (b === null) return false;
    bases.add(b);
  }
  return bases.size === 1 && linkLen(stats, list) >= TREE_DENSITY * textLen(stats, list);
}

/** Links nested under group labels, nearly all text linked: a section tree. */
function isTree(list: Element, links: Element[], stats: StatsMap): boolean {
  if (links.length < TREE_LINKS || linkLen(stats, list) < TREE_DENSITY * textLen(stats, list)) return false;
  const nested = findAll(list, (e) => LIST.has(e.name) && linksOf(e).length > 0);
  return nested.length > 0 && !holdsKept(list) && !inProse(list, stats);
}

/** A paragraph of prose beside the list: it is part of the text (a "See also" section), not a column. */
const PROSE = 80;
function inProse(list: Element, stats: StatsMap): boolean {
  const p = list.parent;
  if (!p || !isElement(p)) return false;
  return p.children.some((c) => isElement(c) && c.name === 'p' && textLen(stats, c) >= PROSE);
}

/** ≥ 4 links, each a version number or a language code, and little else ("Language: en"). */
function isSwitcher(list: Element, links: Element[], stats: StatsMap): boolean {
  if (links.length < 4 || linkLen(stats, list) < SWITCH_DENSITY * textLen(stats, list)) return false;
  return links.every((a) => SWITCH_ENTRY.test(textOf(a)));
}

/** The short label block right before a table of contents ("On this page"). */
function labelBefore(list: Element): Element | null {
  let p = list.prev;
  while (p && !isElement(p)) p = p.prev;
  return p && isElement(p) && TOC_LABEL.test(textOf(p)) ? p : null;
}

/** Beside a widget's line, its wrapper may hold only buttons and labels ("Yes", "No"). */
const WIDGET_EXTRA = 60;

/** Climb from `el` while the parent holds little else (the wrappers of one widget). */
function widest(el: Element, root: Element, stats: StatsMap): Element {
  let cur = el;
  for (;;) {
    const p = cur.parent;
    if (!p || !isElement(p) || p === root) return cur;
    // sizes first: the code check walks the subtree
    if (textLen(stats, p) > MAX_LINE || textLen(stats, p) - textLen(stats, el) > WIDGET_EXTRA) return cur;
    if (holdsCode(p)) return cur;
    cur = p;
  }
}

export function removeDocsNavigation(root: Element, stats: StatsMap): void {
  const drop = new Set<Element>();
  for (const list of outerLists(root)) {
    const links = linksOf(list);
    if (isToc(list, links, stats)) {
      drop.add(list);
      const label = labelBefore(list);
      if (label && !holdsKept(label)) drop.add(label);
    } else if (isTree(list, links, stats) || isSwitcher(list, links, stats)) drop.add(list);
  }
  // Short lines: the smallest block saying it, widened to the wrapper that holds only it.
  const matched = new Set<Element>();
  const isLine = (e: Element): boolean => {
    if (NEVER_WIDGET.has(e.name) || LIST.has(e.name)) return false;
    const t = textLen(stats, e);
    if (t === 0 || t > MAX_LINE) return false;
    const text = textOf(e);
    if (TOC_LABEL.test(text)) return false;
    if (WIDGET.test(text)) return !holdsCode(e);
    if (HEADING.test(e.name)) return false;
    const links = findAll(e, (x) => x.name === 'a');
    return (
      links.length > 0 &&
      links.length <= 2 &&
      linkLen(stats, e) >= PREV_NEXT_DENSITY * t &&
      (links.every((a) => PREV_NEXT.test(textOf(a))) ||
        links.every((a) => /^(?:prev|next)$/i.test(a.attribs.rel ?? '')))
    );
  };
  const lines = findAll(
    root,
    (e) => {
      if (!isLine(e)) return false;
      matched.add(e);
      return true;
    },
    (e) => matched.has(e),
  );
  for (const line of lines) {
    if (HEADING.test(line.name)) for (const e of headedWidget(line, stats)) drop.add(e);
    else if (!holdsCode(line)) drop.add(widest(line, root, stats));
  }
  const els = [...drop].filter((e) => !hasAncestorIn(e, drop, root));
  if (els.length > 0) removeAllWithStats(els, stats);
}

/** A widget's heading and what follows it up to the next heading, when all of it is short. */
function headedWidget(heading: Element, stats: StatsMap): Element[] {
  const out = [heading];
  let total = textLen(stats, heading);
  for (let n = heading.next; n; n = n.next) {
    if (!isElement(n)) continue;
    if (KEEP.has(n.name) || holdsKept(n)) break;
    total += textLen(stats, n);
    if (total > 2 * MAX_LINE) return [heading];
    out.push(n);
  }
  return out;
}

function hasAncestorIn(e: Element, set: Set<Element>, root: Element): boolean {
  for (let p = e.parent; p && p !== root; p = p.parent) if (isElement(p) && set.has(p)) return true;
  return false;
}
