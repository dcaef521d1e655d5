/**
 * Cleaning inside the chosen content: readability's conditional rules (link-heavy lists and
 * divs, image galleries without prose, form remnants) plus short boilerplate lines ("Share",
 * "Advertisement", "Read more") that survive because they carry no telling class name.
 */
import type { Element, ParentNode } from 'domhandler';
import { classWeight } from './class-weight';
import { linkDensity, removeWithStats, type StatsMap } from './content-stats';
import { findAll, setChildren, textOf } from './dom.util';

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

const BOILERPLATE_LINE =
  /^(?:advertisements?|ad|sponsored( content)?|share( this( article| story| post)?)?( on \w+)?|read more|read next|read also|see also|related( articles| posts| stories| content)?|more from [\w\s]+|sign up( now)?|subscribe( now)?|follow us( on \w+)?|skip to (main )?content|loading\.*|continue reading( below)?|advertisement - continue reading below|story continues below( advertisement)?|click here to (subscribe|sign up)|print|email|tweet|comments?|leave a (comment|reply)|back to top|scroll to top|you may also like|recommended( for you)?|trending( now)?|most popular|newsletter|copy link|link copied)[\s.:!»›>-]*$/i;

interface Removal {
  el: Element;
  parent: ParentNode;
  index: number;
}

/**
 * Conditional cleaning, undone when it would gut the content: when rules misfire on an
 * unusual page, the uncleaned candidate beats an empty answer (readability retries likewise).
 */
export function cleanConditionally(root: Element, stats: StatsMap, scores: Map<Element, number>): void {
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
    if (!el.parent || el.parent === root) continue;
    const s = stats.get(el);
    if (!s) continue;
    if (s.text < 60 && SHORT_BLOCKS.has(el.name) && BOILERPLATE_LINE.test(textOf(el))) {
      remove(el);
      continue;
    }
    if (!CONDITIONAL.has(el.name)) continue;
    if (shouldRemove(el, stats, scores.get(el) ?? 0)) remove(el);
  }
  const after = stats.get(root)?.text ?? 0;
  if (before > 200 && after < before * 0.4) {
    for (let i = removed.length - 1; i >= 0; i--) {
      const r = removed[i]!;
      r.el.parent = r.parent;
      r.parent.children.splice(Math.min(r.index, r.parent.children.length), 0, r.el);
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

function hasAncestor(el: Element, name: string): boolean {
  let p = el.parent;
  for (let d = 0; p && d < 8; d++) {
    if ('name' in p && p.name === name) return true;
    p = p.parent;
  }
  return false;
}

/** Light cleaning for grid/list pages: their content is link-dense, so only drop named chrome. */
export function cleanRegion(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  const els = findAll(root, (e) => CONDITIONAL.has(e.name) || SHORT_BLOCKS.has(e.name));
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    if (!el.parent) continue;
    const s = stats.get(el);
    if (!s) continue;
    if (s.text < 60 && SHORT_BLOCKS.has(el.name) && BOILERPLATE_LINE.test(textOf(el)))
      removeWithStats(el, stats);
    else if (s.text < 0.2 * total && classWeight(el) < 0) removeWithStats(el, stats);
  }
}
