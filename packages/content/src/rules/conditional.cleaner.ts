/**
 * Cleaning inside the chosen content: readability's conditional rules (link-heavy lists and
 * divs, image galleries without prose, form remnants) plus short boilerplate lines ("Share",
 * "Advertisement", "Read more") that survive because they carry no telling class name.
 */
import { type ChildNode, type Element, Element as ElementNode, type ParentNode } from 'domhandler';
import { classWeight } from '../dom/class-weight';
import {
  computeStats,
  isBlockName,
  linkDensity,
  removeWithStats,
  restoreWithStats,
  type Stats,
  type StatsMap,
} from '../dom/content-stats';
import {
  collapse,
  findAll,
  hasAncestor,
  hasRemovedAncestor,
  isElement,
  isText,
  rawText,
  setChildren,
  textOf,
} from '../dom/dom.util';

const CONDITIONAL = new Set([
  'form',
  'fieldset',
  'table',
  'ul',
  'ol',
  'dl',
  'div',
  'section',
  'figure',
  'header',
]);
const SHORT_BLOCKS = new Set([
  'p',
  'div',
  'span',
  'li',
  'section',
  'strong',
  'em',
  'b',
  'a',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

export const BOILERPLATE_LINE =
  /^(?:advertisements?|ad|adverts?|sponsored( content)?|sharing is caring|like this|like|tell us what you think|related (news|posts?|tags|articles|stories|content|reading)|tags|previous (post|article)|next (post|article)|don'?t miss|post comment( \(\+\))?|share( this( article| story| post)?)?( on \w+)?|read more|read next|read also|see also|see more|related( articles| posts| stories| content)?|more from [\w\s]+|sign up( now)?|subscribe( now)?|follow us( on \w+)?|skip to (main )?content|loading\.*|continue reading( below)?|advertisement - continue reading below|story continues below( advertisement)?|click here to (subscribe|sign up)|print|email|tweet|comments?|leave a (comment|reply)|back to top|scroll to top|you may also like|recommended( for you)?|trending( now)?|most popular|newsletter|copy link|link copied|caption|close|enlarge(?: this)?(?: image| photo)?|text size|(?:image|photo|picture|slide) \d+ (?:of|\/) \d+|via [\w.-]+|learn more|this slideshow requires javascript)[\s.:!»›>-]*$/i;

/** Inline elements: a line of their own only when nothing else shares their line. */
const INLINE_LINE_TAGS = new Set(['span', 'strong', 'em', 'b', 'i', 'a', 'small', 'time']);
/**
 * Presentational wrappers say nothing about their text: a line is judged as the block that
 * holds it, wrapped or not (`<td><span>2024-2034</span></td>` reads as `<td>2024-2034</td>`).
 * Only a class or id naming them (byline, date...) makes them furniture of their own.
 */
export const PRESENTATIONAL = new Set(['span', 'strong', 'em', 'b', 'i']);

/** A short block on a line of its own whose whole text is a boilerplate line ("Share", "Advertisement"). */
function isBoilerplateLine(el: Element, s: Stats, stats: StatsMap): boolean {
  return (
    s.text < 60 &&
    SHORT_BLOCKS.has(el.name) &&
    !PRESENTATIONAL.has(el.name) &&
    BOILERPLATE_LINE.test(textOf(el)) &&
    ownLine(el, stats)
  );
}

/**
 * Is `el` a line of its own: a block, or an inline element with no other visible text
 * between it and the nearest block boundaries? A word wrapped in <b> or <span> inside a
 * sentence is part of that sentence, never a "Share" button or a byline.
 */
export function ownLine(el: Element, stats: StatsMap): boolean {
  if (!INLINE_LINE_TAGS.has(el.name)) return true;
  let n: Element = el;
  for (let depth = 0; depth < 16; depth++) {
    for (let s = n.prev; s && !lineBreak(s); s = s.prev) if (shows(s, stats)) return false;
    for (let s = n.next; s && !lineBreak(s); s = s.next) if (shows(s, stats)) return false;
    const p = n.parent;
    if (!p || !isElement(p) || isBlockName(p.name)) return true;
    n = p;
  }
  return true;
}

const lineBreak = (n: ChildNode): boolean => isElement(n) && (isBlockName(n.name) || n.name === 'br');
const shows = (n: ChildNode, stats: StatsMap): boolean =>
  isText(n) ? /\S/.test(n.data) : isElement(n) && (stats.get(n)?.text ?? 0) > 0;

/**
 * Boilerplate lines ("Advertisement", "Related links:") that are loose text between the blocks
 * of a container, wrapped or not: the same line is dropped whatever inline markup carries it.
 * One pass; a container with dozens of them is a page of its own kind and is left alone.
 */
function boilerplateRuns(el: Element, stats: StatsMap, remove: (e: Element) => void): void {
  const kids = el.children;
  const runs: Array<[number, number]> = [];
  let start = 0;
  for (let i = 0; i <= kids.length; i++) {
    const k = kids[i];
    if (k !== undefined && !lineBreak(k)) continue;
    if (i > start && i - start <= 8) {
      let t = '';
      let shown = false;
      for (let j = start; j < i; j++) {
        const n = kids[j]!;
        shown ||= shows(n, stats);
        t += isText(n) ? n.data : isElement(n) ? rawText(n) : '';
      }
      if (shown && t.length < 200 && BOILERPLATE_LINE.test(collapse(t)) && collapse(t).length < 60)
        runs.push([start, i]);
    }
    start = i + 1;
  }
  if (runs.length === 0 || runs.length > MAX_RUNS) return;
  // wrap each run in a span of its own, then remove the spans (with their statistics)
  const out: ChildNode[] = [];
  const spans: Array<[Element, ChildNode[]]> = [];
  let at = 0;
  for (const [a, b] of runs) {
    for (let j = at; j < a; j++) out.push(kids[j]!);
    const span = new ElementNode('span', {});
    spans.push([span, kids.slice(a, b)]);
    out.push(span);
    at = b;
  }
  for (let j = at; j < kids.length; j++) out.push(kids[j]!);
  setChildren(el, out);
  for (const [span, run] of spans) {
    setChildren(span, run);
    for (const [e, st] of computeStats(span)) stats.set(e, st);
    remove(span);
  }
}

const MAX_RUNS = 20;

interface Removal {
  el: Element;
  parent: ParentNode;
  index: number;
}

/**
 * Conditional cleaning, undone when it would gut the content: when rules misfire on an
 * unusual page, the uncleaned candidate beats an empty answer (readability retries likewise).
 * `keep` (a collection's item grid) and its cards stay: cards are link-dense by nature, which
 * the rules read as boilerplate; what is inside a card is still judged.
 */
export function cleanConditionally(
  root: Element,
  stats: StatsMap,
  scores: Map<Element, number>,
  top?: Element,
  keep?: Element,
): void {
  const before = stats.get(root)?.text ?? 0;
  const removed: Removal[] = [];
  const remove = (el: Element): void => {
    const parent = el.parent;
    if (!parent) return;
    removed.push({ el, parent, index: parent.children.indexOf(el) });
    removeWithStats(el, stats);
  };
  const els = findAll(root, (e) => CONDITIONAL.has(e.name) || SHORT_BLOCKS.has(e.name));
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    // the winner itself stays; siblings that joined it are judged like any other block
    if (!el.parent || (el.parent === root && (top === undefined || el === top))) continue;
    const s = stats.get(el);
    if (!s || (keep && (el === keep || el.parent === keep))) continue;
    if (isBoilerplateLine(el, s, stats)) {
      remove(el);
      continue;
    }
    if (s.inline > 0 && s.text > s.inline && isBlockName(el.name)) boilerplateRuns(el, stats, remove);
    if (!CONDITIONAL.has(el.name)) continue;
    if (shouldRemove(el, stats, scores.get(el) ?? 0)) remove(el);
  }
  const after = stats.get(root)?.text ?? 0;
  if (before > 200 && after < before * 0.4) {
    for (let i = removed.length - 1; i >= 0; i--) {
      const r = removed[i]!;
      restoreWithStats(r.el, r.parent, r.index, stats);
    }
    relink(root);
  }
}

/** Restore prev/next links after re-inserting nodes. */
function relink(root: ParentNode): void {
  for (const e of findAll(root, () => true)) setChildren(e, e.children);
  setChildren(root, root.children);
}

function shouldRemove(el: Element, stats: StatsMap, score: number): boolean {
  const s = stats.get(el);
  if (!s) return false;
  if (hasAncestor(el, 'pre') || hasAncestor(el, 'code')) return false;
  const weight = classWeight(el);
  if (weight + score < 0) return true;
  if (s.allCommas >= 10) return false;
  const isList = el.name === 'ul' || el.name === 'ol' || el.name === 'dl';
  const ld = linkDensity(s);
  // the element's own loose text (br-separated prose) counts as paragraphs too
  const p = s.paras + Math.floor(s.inline / 150);
  if (s.imgs > 1 && p / s.imgs < 0.5 && !hasAncestor(el, 'figure')) return true;
  if (!isList && s.lis - 100 > p) return true;
  if (s.inputs > Math.floor(p / 3)) return true;
  if (!isList && s.text < 25 && (s.imgs === 0 || s.imgs > 2) && ld > 0 && s.headings === 0) return true;
  if (!isList && weight < 25 && ld > 0.2) return true;
  if (weight >= 25 && ld > 0.5) return true;
  if (isList && ld > 0.5 && s.text < 1000) return true;
  return false;
}

/**
 * Light cleaning for grid/list pages: their content is link-dense, so only drop named chrome.
 * `layout`: the page's sections are boxes clipped by a layout utility ('overflow-hidden'), which
 * names no chrome (see classWeight).
 */
export function cleanRegion(root: Element, stats: StatsMap, layout = false): void {
  const total = stats.get(root)?.text ?? 0;
  const negative: Element[] = [];
  const els = findAll(root, (e) => CONDITIONAL.has(e.name) || SHORT_BLOCKS.has(e.name));
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    if (!el.parent) continue;
    const s = stats.get(el);
    if (!s) continue;
    if (isBoilerplateLine(el, s, stats)) removeWithStats(el, stats);
    else if (s.inline > 0 && s.text > s.inline && isBlockName(el.name)) {
      boilerplateRuns(el, stats, (x) => removeWithStats(x, stats));
      if (s.text < 0.2 * total && classWeight(el, layout) < 0) negative.push(el);
    } else if (s.text < 0.2 * total && classWeight(el, layout) < 0) negative.push(el);
  }
  // chrome names on most of the region are a page builder's vocabulary, not chrome
  let named = 0;
  for (const el of negative) if (!hasRemovedAncestor(el, root)) named += stats.get(el)?.text ?? 0;
  if (named > 0.5 * total) return;
  for (const el of negative) if (el.parent && !hasRemovedAncestor(el, root)) removeWithStats(el, stats);
}
