/**
 * Per-element text statistics, computed in one iterative post-order pass and kept up to date
 * when subtrees are removed. Scoring and cleaning read these instead of re-walking subtrees.
 */
import type { ChildNode, Element, ParentNode } from 'domhandler';
import { BLOCK_TAGS, isElement, isText, JUNK_TAGS, removeNode, setChildren } from './dom.util';

export interface Stats {
  /** Visible text characters in the subtree (per text node, trimmed). */
  text: number;
  /** Of which inside <a>. */
  link: number;
  /** Text not inside a block-level descendant: this element's own paragraph text. */
  inline: number;
  /** Commas in the inline text (a cheap "is prose" signal). */
  commas: number;
  /** Commas in the whole subtree. */
  allCommas: number;
  /** Descendant counts used by conditional cleaning. */
  paras: number;
  imgs: number;
  lis: number;
  inputs: number;
  headings: number;
}

export type StatsMap = Map<Element, Stats>;

/** Unknown custom elements (with a dash) behave like blocks on real pages. */
export const isBlockName = (name: string): boolean => BLOCK_TAGS.has(name) || name.includes('-');

/** All-zero counts: a fresh accumulator (copy it) or a neutral default. */
export const newStats = (): Stats => ({
  text: 0,
  link: 0,
  inline: 0,
  commas: 0,
  allCommas: 0,
  paras: 0,
  imgs: 0,
  lis: 0,
  inputs: 0,
  headings: 0,
});

/** Adds a child's (or a chosen node's) counts that always sum up the tree. */
function addCounts(s: Stats, c: Stats): void {
  s.text += c.text;
  s.link += c.link;
  s.allCommas += c.allCommas;
  s.paras += c.paras;
  s.imgs += c.imgs;
  s.lis += c.lis;
  s.inputs += c.inputs;
  s.headings += c.headings;
}

/** The counts of several elements together (the chosen nodes of the main content). */
export function sumStats(els: Element[], stats: StatsMap): Stats {
  const s = newStats();
  for (const e of els) {
    const c = stats.get(e);
    if (c) addCounts(s, c);
  }
  return s;
}

/**
 * Visible length of a text node as rendered: non-whitespace characters plus one per interior
 * whitespace run (source line breaks and indentation count as one space), and whether it starts
 * or ends with whitespace. Counting runs, not whitespace characters, makes the figures the same
 * for a reflowed or re-indented page and for text split by inline wrappers.
 */
interface Measured {
  len: number;
  lead: boolean;
  trail: boolean;
  commas: number;
}
const measured: Measured = { len: 0, lead: false, trail: false, commas: 0 };

/** Interior whitespace other than single spaces: the slow path has to count runs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: characters below U+0020 are the whitespace counted here
const UNEVEN_SPACE = /[\x00-\x1f]| {2}/;

function countOf(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

function measure(s: string): Measured {
  const n = s.length;
  let a = 0;
  let b = n;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  measured.lead = a > 0 && a < b;
  measured.trail = b < n && a < b;
  if (a === b) {
    measured.len = 0;
    measured.commas = 0;
    return measured;
  }
  const core = a === 0 && b === n ? s : s.substring(a, b);
  let len = core.length;
  if (UNEVEN_SPACE.test(core)) {
    // count non-whitespace characters plus one per whitespace run
    len = 0;
    let inWs = false;
    for (let i = 0; i < core.length; i++) {
      if (core.charCodeAt(i) <= 32) inWs = true;
      else {
        if (inWs) len++;
        inWs = false;
        len++;
      }
    }
  }
  measured.len = len;
  // CJK and Arabic commas carry the same signal
  measured.commas =
    countOf(core, ',') + countOf(core, '\u3001') + countOf(core, '\uff0c') + countOf(core, '\u060c');
  return measured;
}

/** Does this sibling continue the same line of inline text (so a space next to it renders)? */
function inlineNeighbour(k: ChildNode | undefined): boolean {
  if (k === undefined) return false;
  if (isText(k)) return true;
  return isElement(k) && k.name !== 'br' && !isBlockName(k.name);
}

/**
 * Drops junk elements (scripts, styles, comments...) from `root` and returns stats for every
 * remaining element. `dropJunk` may veto extra elements (hidden nodes, boilerplate).
 */
export function computeStats(root: ParentNode, drop?: (e: Element) => boolean): StatsMap {
  const stats: StatsMap = new Map();
  // Explicit stack of [node, childrenVisited]; post-order finish sums children into the parent.
  const stack: Array<[ParentNode, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const node = top[0];
    if (!top[1]) {
      top[1] = true;
      const kids = node.children;
      let dirty = false;
      for (const k of kids) {
        if (isElement(k)) {
          if (JUNK_TAGS.has(k.name) || drop?.(k)) dirty = true;
          else if (k.children.length > 0) stack.push([k, false]);
        } else if (!isText(k)) dirty = true;
      }
      if (dirty) setChildren(node, kids.filter(keep(drop)));
      continue;
    }
    stack.pop();
    if (isElement(node)) {
      // an element holding only whitespace is as empty as one holding nothing (which is never
      // visited): re-indenting a page must not give it statistics
      const st = finish(node, stats);
      if (st.text > 0 || node.children.some(isElement)) stats.set(node, st);
    }
  }
  return stats;
}

const keep =
  (drop?: (e: Element) => boolean) =>
  (k: ChildNode): boolean =>
    isElement(k) ? !JUNK_TAGS.has(k.name) && !drop?.(k) : isText(k);

function finish(el: Element, stats: StatsMap): Stats {
  const s = newStats();
  const kids = el.children;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i]!;
    if (isText(k)) {
      const m = measure(k.data);
      if (m.len > 0) {
        let len = m.len;
        if (m.lead && inlineNeighbour(kids[i - 1])) len++;
        if (m.trail && inlineNeighbour(kids[i + 1])) len++;
        s.text += len;
        s.inline += len;
        s.commas += m.commas;
        s.allCommas += m.commas;
      } else if (inlineNeighbour(kids[i - 1]) && inlineNeighbour(kids[i + 1])) {
        // the space between two inline elements renders
        s.text++;
        s.inline++;
      }
      continue;
    }
    if (!isElement(k)) continue;
    const c = stats.get(k);
    if (c) {
      addCounts(s, c);
      if (!isBlockName(k.name)) {
        s.inline += c.inline;
        s.commas += c.commas;
      }
    }
    switch (k.name) {
      case 'p':
      case 'pre':
        s.paras++;
        break;
      case 'div':
      case 'section':
      case 'td':
      case 'blockquote':
        // text-bearing divs are paragraphs on pages that never use <p>
        if (c && c.inline >= 80) s.paras++;
        break;
      case 'img':
        s.imgs++;
        break;
      case 'li':
        s.lis++;
        break;
      case 'input':
      case 'select':
      case 'textarea':
      case 'button':
        s.inputs++;
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        s.headings++;
        break;
    }
  }
  if (el.name === 'a') s.link = s.text;
  return s;
}

/** Remove a subtree and subtract its stats from every ancestor. */
export function removeWithStats(el: Element, stats: StatsMap): void {
  propagate(el, el.parent, stats, -1);
  removeNode(el);
}

/**
 * removeWithStats for many nodes at once: each parent's child list is filtered once, so
 * removing thousands of siblings stays linear.
 */
export function removeAllWithStats(els: Element[], stats: StatsMap): void {
  const byParent = new Map<ParentNode, Set<Element>>();
  for (const el of els) {
    const p = el.parent;
    if (!p) continue;
    propagate(el, p, stats, -1);
    const set = byParent.get(p);
    if (set) set.add(el);
    else byParent.set(p, new Set([el]));
  }
  for (const [p, gone] of byParent) {
    setChildren(
      p,
      p.children.filter((c) => !gone.has(c as Element)),
    );
    for (const el of gone) {
      el.parent = null;
      el.prev = null;
      el.next = null;
    }
  }
}

/** Undo removeWithStats: put `el` back under `parent` at `index` and re-add its stats. */
export function restoreWithStats(el: Element, parent: ParentNode, index: number, stats: StatsMap): void {
  el.parent = parent;
  parent.children.splice(Math.min(index, parent.children.length), 0, el);
  propagate(el, parent, stats, 1);
}

function propagate(el: Element, parent: ParentNode | null, stats: StatsMap, sign: 1 | -1): void {
  const s = stats.get(el);
  if (!s) return;
  let p: ParentNode | null = parent;
  const block = isBlockName(el.name);
  while (p && isElement(p)) {
    const ps = stats.get(p);
    if (ps) {
      ps.text += sign * s.text;
      ps.link += sign * (p.name === 'a' ? s.text : s.link);
      ps.paras += sign * (s.paras + (el.name === 'p' || el.name === 'pre' ? 1 : 0));
      ps.imgs += sign * (s.imgs + (el.name === 'img' ? 1 : 0));
      ps.lis += sign * (s.lis + (el.name === 'li' ? 1 : 0));
      ps.inputs += sign * s.inputs;
      ps.allCommas += sign * s.allCommas;
      ps.headings += sign * (s.headings + (/^h[1-6]$/.test(el.name) ? 1 : 0));
      if (!block && p === parent) {
        ps.inline += sign * s.inline;
        ps.commas += sign * s.commas;
      }
    }
    p = p.parent;
  }
}

/** Text of `root` that comes before `el` in document order (text outside elements trimmed). */
export function textBefore(el: Element, root: Element, stats: StatsMap): number {
  let n = 0;
  for (let cur: Element = el; cur !== root; ) {
    const parent = cur.parent;
    if (!parent || !isElement(parent)) break;
    for (const c of parent.children) {
      if (c === cur) break;
      if (isElement(c)) n += stats.get(c)?.text ?? 0;
      else if (isText(c)) n += c.data.trim().length;
    }
    cur = parent;
  }
  return n;
}

export const linkDensity = (s: Stats | undefined): number => (s && s.text > 0 ? s.link / s.text : 0);
