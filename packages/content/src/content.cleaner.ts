/**
 * Cleaning inside the chosen content: readability's conditional rules (link-heavy lists and
 * divs, image galleries without prose, form remnants) plus short boilerplate lines ("Share",
 * "Advertisement", "Read more") that survive because they carry no telling class name.
 */
import type { Element, ParentNode } from 'domhandler';
import { classWeight } from './class-weight';
import {
  linkDensity,
  removeAllWithStats,
  removeWithStats,
  restoreWithStats,
  type Stats,
  type StatsMap,
} from './content-stats';
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
  /^(?:advertisements?|ad|adverts?|sponsored( content)?|sharing is caring|like this|like|tell us what you think|related (news|posts?|tags|articles|stories|content|reading)|tags|previous (post|article)|next (post|article)|don'?t miss|post comment( \(\+\))?|share( this( article| story| post)?)?( on \w+)?|read more|read next|read also|see also|related( articles| posts| stories| content)?|more from [\w\s]+|sign up( now)?|subscribe( now)?|follow us( on \w+)?|skip to (main )?content|loading\.*|continue reading( below)?|advertisement - continue reading below|story continues below( advertisement)?|click here to (subscribe|sign up)|print|email|tweet|comments?|leave a (comment|reply)|back to top|scroll to top|you may also like|recommended( for you)?|trending( now)?|most popular|newsletter|copy link|link copied)[\s.:!»›>-]*$/i;

interface Removal {
  el: Element;
  parent: ParentNode;
  index: number;
}

/**
 * Conditional cleaning, undone when it would gut the content: when rules misfire on an
 * unusual page, the uncleaned candidate beats an empty answer (readability retries likewise).
 */
export function cleanConditionally(
  root: Element,
  stats: StatsMap,
  scores: Map<Element, number>,
  top?: Element,
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
  const negative: Element[] = [];
  const els = findAll(root, (e) => CONDITIONAL.has(e.name) || SHORT_BLOCKS.has(e.name));
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    if (!el.parent) continue;
    const s = stats.get(el);
    if (!s) continue;
    if (s.text < 60 && SHORT_BLOCKS.has(el.name) && BOILERPLATE_LINE.test(textOf(el)))
      removeWithStats(el, stats);
    else if (s.text < 0.2 * total && classWeight(el) < 0) negative.push(el);
  }
  // chrome names on most of the region are a page builder's vocabulary, not chrome
  let named = 0;
  for (const el of negative) if (!hasRemovedAncestor(el, root)) named += stats.get(el)?.text ?? 0;
  if (named > 0.5 * total) return;
  for (const el of negative) if (el.parent && !hasRemovedAncestor(el, root)) removeWithStats(el, stats);
}

const CAPTION =
  /(?:^|[\s_-])(?:caption|captions|credit|credits|photo-?credit|image-?credit|figcaption|wp-caption-text)(?:$|[\s_-])/i;

/**
 * Article mode only: the headline, image captions and photo credits are page furniture around
 * the body text, not the body (both benchmarks' annotators and most readers agree).
 */
export function trimArticle(root: Element, stats: StatsMap): void {
  trimLines(root, stats);
  const h1 = findAll(root, (e) => e.name === 'h1');
  const caps = findAll(
    root,
    (e) =>
      e.name === 'figcaption' ||
      (e.name !== 'figure' && CAPTION.test(`${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`)),
    (e) => e.name === 'figcaption',
  );
  const total = stats.get(root)?.text ?? 0;
  const drop = [...h1, ...caps].filter((e) => {
    const s = stats.get(e);
    return !!s && s.text <= 400 && s.text <= 0.2 * total;
  });
  removeSome(root, stats, drop);
}

/**
 * Remove furniture, unless together it is a large part of the text: then the names lie (a
 * product grid whose every card has a "caption") and the page is not an article after all.
 */
function removeSome(root: Element, stats: StatsMap, els: Element[]): void {
  const total = stats.get(root)?.text ?? 0;
  const chosen = new Set(els);
  let sum = 0;
  for (const e of els) {
    let nested = false;
    for (let p: ParentNode | null = e.parent; p && p !== root; p = p.parent) {
      if (chosen.has(p as Element)) {
        nested = true;
        break;
      }
    }
    if (!nested) sum += stats.get(e)?.text ?? 0;
  }
  if (sum > 0.5 * total) return;
  removeAllWithStats(
    els.filter((e) => e.parent && !hasRemovedAncestor(e, root)),
    stats,
  );
}

const BYLINE =
  /^(?:by|por|von|par|di|door|av|af|przez|posted|published|updated|first published|last updated|written by)\b/i;
const DATE = /\b(?:1[89]|20)\d\d\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{1,2}:\d\d\b/;
const META_NAME =
  /(?:^|[\s_-])(?:byline|bylines|author|authors|author-?name|dateline|timestamp|date|published|pubdate|posted-?on|entry-meta|post-meta|article-meta|meta-?info|post-?date|publish-?date)(?:$|[\s_-])/i;
const LETTER_WORD = /\p{L}{2,}/gu;

/** Elements whose content is one line of text: no block-level descendants. */
function isLine(el: Element, s: Stats): boolean {
  return s.text === s.inline || el.name === 'time';
}

/**
 * Bylines, datelines and fully linked one-line teasers inside an article body: short lines
 * that carry no prose. Each rule is narrow; together they take most furniture out.
 */
function trimLines(root: Element, stats: StatsMap): void {
  const els = findAll(root, (e) => LINE_TAGS.has(e.name) || META_NAME.test(nameOf(e)));
  const meta: Element[] = [];
  const dated: Element[] = [];
  const linked: Element[] = [];
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    const s = stats.get(el);
    if (!s || s.text === 0 || s.text > 200) continue;
    if (el.name === 'time' || (META_NAME.test(nameOf(el)) && s.text < 150 && !ENDS_PROSE.test(textOf(el)))) {
      meta.push(el);
      continue;
    }
    if (!isLine(el, s) || s.text > 120 || hasAncestor(el, 'blockquote')) continue;
    const t = textOf(el);
    if (/[.!?:]["”’)]?$/.test(t) && !BYLINE.test(t)) continue;
    const words = t.match(LETTER_WORD)?.length ?? 0;
    if ((BYLINE.test(t) && words <= 10) || (DATE.test(t) && words <= 8)) dated.push(el);
    else if (s.link >= 0.9 * s.text && el.name !== 'li' && el.name !== 'span' && el.name !== 'a')
      linked.push(el);
  }
  // an article has a byline or two and a few teaser links; many of them make a listing, where
  // dates, authors and linked titles are the content
  const drop: Element[] = [];
  if (meta.length + dated.length <= 5) drop.push(...meta, ...dated);
  if (linked.length <= 4) drop.push(...linked);
  removeSome(root, stats, drop);
}

const ENDS_PROSE = /[.!?]["”’)]?$/;
const nameOf = (e: Element): string => `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`;

/** Detached subtrees keep their parent links: check the chain reaches the root. */
function hasRemovedAncestor(el: Element, root: Element): boolean {
  let p: ParentNode | null = el.parent;
  while (p && p !== root) p = p.parent;
  return p !== root;
}

const LINE_TAGS = new Set([
  'p',
  'div',
  'span',
  'time',
  'li',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'small',
  'address',
]);

/**
 * Drop later copies of a repeated block (responsive pages ship the same product summary or
 * article twice, for mobile and desktop). Candidates are matched by their statistics first,
 * so text is only compared for likely twins.
 */
export function removeDuplicates(root: Element, stats: StatsMap): void {
  // stats signature -> the first block with it, then blocks by text once signatures collide
  const seen = new Map<string, { first: Element; byText?: Map<string, Element[]> }>();
  const stack: Element[] = [];
  const push = (p: ParentNode): void => {
    for (let i = p.children.length - 1; i >= 0; i--) {
      const c = p.children[i]!;
      if ('name' in c) stack.push(c as Element);
    }
  };
  push(root);
  while (stack.length > 0) {
    const el = stack.pop()!;
    const s = stats.get(el);
    if (!s || s.text < 200) continue;
    const key = `${s.text}/${s.link}/${s.allCommas}/${s.paras}/${s.lis}/${s.imgs}/${s.headings}`;
    const entry = seen.get(key);
    if (!entry) seen.set(key, { first: el });
    else {
      if (!entry.byText) entry.byText = new Map([[textOf(entry.first), [entry.first]]]);
      const text = textOf(el);
      const twins = entry.byText.get(text);
      if (twins?.some((t) => !isAncestor(t, el))) {
        removeWithStats(el, stats);
        continue;
      }
      if (twins) twins.push(el);
      else entry.byText.set(text, [el]);
    }
    push(el);
  }
}

function isAncestor(a: Element, el: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === a) return true;
  return false;
}
