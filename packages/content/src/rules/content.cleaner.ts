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
  removeAllWithStats,
  removeWithStats,
  restoreWithStats,
  type Stats,
  type StatsMap,
} from '../dom/content-stats';
import {
  collapse,
  findAll,
  hasAncestor,
  isElement,
  isText,
  rawText,
  setChildren,
  textOf,
} from '../dom/dom.util';
import { trimHoverCards } from './hover-card.cleaner';
import { trimRelatedSections } from './related-section.cleaner';
import { trimTeaserLines } from './teaser-lines.cleaner';

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
function ownLine(el: Element, stats: StatsMap): boolean {
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

/** A <figcaption> is a caption by markup, not by name: long explanatory ones are captions too. */
const MAX_FIGCAPTION = 1200;
const CAPTION =
  /(?:^|[\s_-])(?:caption|captions|credit|credits|photo-?credit|image-?credit|figcaption|wp-caption-text)(?:$|[\s_-])/i;

/**
 * Article mode only: image captions, photo credits and stray <h1>s are page furniture around
 * the body text, not the body (both benchmarks' annotators and most readers agree). The page's
 * title heading (`title`, see title-heading.ts) is not furniture: readers expect it on top.
 */
export function trimArticle(root: Element, stats: StatsMap, title?: Element): void {
  // before trimLines: it takes a lone "You may also like" line, which opens the section
  trimRelatedSections(root, stats, RELATED_HEAD);
  trimTeaserLines(root, stats, RELATED_HEAD);
  trimHoverCards(root, stats);
  trimLines(root, stats);
  trimRelated(root, stats);
  trimImageCaptions(root, stats);
  // other h1s are furniture (a section name, a repeated headline); the page's title stays
  const h1 = findAll(root, (e) => e.name === 'h1' && e !== title);
  const caps = findAll(
    root,
    (e) =>
      e.name === 'figcaption' ||
      (e.name === 'cite' && hasAncestor(e, 'figure')) ||
      (e.name !== 'figure' && CAPTION.test(nameOf(e))),
    (e) => e.name === 'figcaption',
  );
  const total = stats.get(root)?.text ?? 0;
  const drop = [...h1, ...caps].filter((e) => {
    const s = stats.get(e);
    return !!s && s.text <= (e.name === 'figcaption' ? MAX_FIGCAPTION : 400) && s.text <= 0.2 * total;
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
  const notices: Element[] = [];
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    const s = stats.get(el);
    if (!s || s.text === 0 || s.text > 300 || !ownLine(el, stats)) continue;
    if (el.name === 'time' || (META_NAME.test(nameOf(el)) && s.text < 150 && !ENDS_PROSE.test(textOf(el)))) {
      if (s.text > 200) continue;
      meta.push(el);
      continue;
    }
    if (PRESENTATIONAL.has(el.name)) continue;
    if (!isLine(el, s) || hasAncestor(el, 'blockquote')) continue;
    const t = textOf(el);
    // a list item asking to sign up is a step of instructions, not a promotion
    if (isNotice(t) || (CTA_TAIL.test(t) && t.length <= 250 && el.name !== 'li' && !hasAncestor(el, 'li'))) {
      notices.push(el);
      continue;
    }
    if (s.text > 120) continue;
    if (/[.!?:]["”’)]?$/.test(t) && !BYLINE.test(t)) continue;
    const words = t.match(LETTER_WORD)?.length ?? 0;
    if ((BYLINE.test(t) && words <= 10) || (DATE.test(t) && words <= 8)) dated.push(el);
    else if (el.name === 'li' || el.name === 'a') continue;
    else if (s.link >= 0.9 * s.text) linked.push(el);
    // "Related: <a>Other story</a>", "Read more: <a>…</a>": a lead-in and a link
    else if (s.link >= 0.5 * s.text && BOILERPLATE_LINE.test(collapse(textOutsideLinks(el)))) linked.push(el);
  }
  // an article has a byline or two and a few teaser links; many of them make a listing, where
  // dates, authors and linked titles are the content
  const drop: Element[] = [];
  if (meta.length + dated.length <= 5) drop.push(...meta, ...dated);
  if (linked.length <= 4) drop.push(...linked);
  if (notices.length <= 6) drop.push(...notices);
  removeSome(root, stats, drop);
}

/**
 * A block holding one image and a short text beside it, in an element of its own: the text is
 * the image's caption or credit, however it is named (`<div><img><span>Caption</span></div>`).
 */
function trimImageCaptions(root: Element, stats: StatsMap): void {
  const drop: Element[] = [];
  const blocks = new Set<Element>();
  for (const img of findAll(root, (e) => e.name === 'img')) {
    // the nearest few ancestors holding exactly this image and a short text
    let el: ParentNode | null = img.parent;
    for (let up = 0; up < 4 && el && el !== root && isElement(el); up++, el = el.parent) {
      const s = stats.get(el);
      if (s?.imgs !== 1) break;
      if (s.text > 0 && s.text <= 200 && s.paras <= 1 && el.children.length > 1) blocks.add(el);
    }
  }
  for (const el of blocks) {
    const kids = el.children.filter(isElement);
    const withImage = kids.filter((k) => k.name === 'img' || (stats.get(k)?.imgs ?? 0) > 0);
    if (withImage.length !== 1) continue;
    // only text in blocks of its own: loose text beside an image (wrapped in presentational
    // inline markup or not) is a sentence with an icon or a logo with its name
    if (
      el.children.some(
        (c) => (isText(c) && c.data.trim() !== '') || (isElement(c) && PRESENTATIONAL.has(c.name)),
      )
    )
      continue;
    for (const k of kids) if (k !== withImage[0] && (stats.get(k)?.text ?? 0) > 0) drop.push(k);
    if (drop.length > 64) return; // a gallery or a grid: nothing to trim here
  }
  const outer = drop.filter((e) => !drop.some((d) => d !== e && isAncestor(d, e)));
  // many image cards make a grid (a listing, a service page), where the text is the content
  if (outer.length > 0 && outer.length <= 4) removeSome(root, stats, outer);
}

/** "More Great Stories", "Related", "Popular on X", "Don't miss": a heading for other pages. */
const RELATED_HEAD =
  /^(?:(?:more|other|related|recommended|popular|trending|top|latest|similar)\b.{0,40}\b(?:stories|articles|posts|news|reads|reading|links|coverage)|related|recommended(?: for you)?|popular (?:on|in) .{1,30}|(?:read|see) (?:more|next|also)|you (?:may|might) (?:also )?like|further reading|don'?t miss)[\s:.!»›-]*$/i;

const RELATED_TAGS = new Set(['p', 'div', 'span', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'section']);

/** A related-links heading with the list of links under it. */
function trimRelated(root: Element, stats: StatsMap): void {
  const drop: Element[] = [];
  for (const el of findAll(root, (e) => RELATED_TAGS.has(e.name))) {
    const s = stats.get(el);
    if (!s || s.text === 0 || s.text > 80 || !isLine(el, s) || !RELATED_HEAD.test(textOf(el))) continue;
    let next = el.next;
    while (next && !isElement(next)) next = next.next;
    if (!next || !isElement(next)) continue;
    const ls = stats.get(next);
    if (!ls || ls.lis < 2 || ls.link < 0.3 * ls.text) continue;
    const items = findAll(
      next,
      (e) => e.name === 'li',
      (e) => e.name === 'li',
    );
    if (items.every((li) => (stats.get(li)?.link ?? 0) > 0)) drop.push(el, next);
  }
  if (drop.length <= 6) removeSome(root, stats, drop);
}

/** Copyright lines, photo credits and calls to action: notices around a story, not the story. */
const COPYRIGHT = /©|\(c\) *(?:19|20)\d\d|\ball rights reserved\b|\bsubject to copyright\b|^copyright\b/i;
const CREDIT =
  /^(?:photo|photos|image|images|picture|credit|credits|foto|bild|source)(?: by| credit)? *[:|]|^photo(?:graph)? by\b|\/ *(?:getty images|afp|reuters|ap|ap photo|shutterstock|istock(?:photo)?|epa|alamy)\.? *$/i;
const CTA =
  /^(?:subscribe (?:to|now)|follow (?:us|me|@)|follow \S+(?: \S+)? on (?:twitter|x|facebook|instagram|linkedin|youtube|tiktok|threads|bluesky)|click here|join (?:us|our)|if you (?:enjoyed|liked) this (?:article|story|post)|get the latest|download (?:the|our)|like this (?:story|article)|share this (?:story|article))\b/i;

/** Wire credits ("Reporting by …; Editing by …", "… contributed to this report") and bios. */
const CONTRIBUTORS =
  /^\(?(?:reporting|writing|additional reporting|editing|compiled|produced) by\b|\bcontributed (?:reporting )?to this (?:report|story|article)\W*$/i;
const BIO =
  /^(?:\p{Lu}[\p{L}.'’-]*\s+){0,3}\p{Lu}[\p{L}.'’-]*(?:\s+\([^)]{1,60}\))?\s+is\s+(?:a|an|the)\s+(?:[\p{L}’'-]+\s+){0,5}(?:reporter|writer|journalist|editor|correspondent|contributor|columnist|publisher|producer|author|curator)\b/u;

/** "Have a tip? … may be reached at …", "Email Jane Doe at jane@…", "Write to … at …". */
const CONTACT =
  /^(?:have a (?:news )?tip\b|(?:email|e-mail|contact|write to|reach) \S+(?: \S+){0,2} at \S)|\b(?:can|may) be reached at\b/i;

/** A short paragraph that ends by asking the reader to click, sign up or subscribe is a promotion. */
const CTA_TAIL = /(?:^|[.!?]\s+)(?:click here|sign up|subscribe)\b[^.!?]{0,120}[.!?]?$/i;

function isNotice(t: string): boolean {
  if (CONTACT.test(t)) return t.length <= 250;
  if (COPYRIGHT.test(t)) return t.length <= 300;
  if (CONTRIBUTORS.test(t) || BIO.test(t)) return t.length <= 300;
  if (CREDIT.test(t)) return t.length <= 120;
  return CTA.test(t) && t.length <= 200;
}

const ENDS_PROSE = /[.!?]["”’)]?$/;

/** Text of a subtree outside its links. */
function textOutsideLinks(root: Element): string {
  let out = '';
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data;
    else if (isElement(n) && n.name !== 'a')
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}
/** Class and id, camelCase split into words ("newsCaption" names a caption too). */
const nameOf = (e: Element): string =>
  `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`.replace(/([a-z])([A-Z])/g, '$1-$2');

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
  'section',
]);

/**
 * Below this much text a repeat is as likely the page's own as a second rendering. In an
 * article a paragraph may well come back (an interview's recurring question, a meal plan's
 * breakfast on every day): only blocks of 200 characters and more are copies. On a page kept
 * whole (a shop, a service page) short twins are renderings too — a spec table in a tab and in
 * an accordion, a carousel's cloned feature list, a quoted post — from 100 characters; below
 * that, a caption every card repeats. Both measured on wcxb-dev (both id halves) and
 * article-extraction.
 */
export const DUPLICATE_MIN_TEXT = { article: 200, region: 100 } as const;

/**
 * Drop later copies of a repeated block (responsive pages ship the same product summary or
 * article twice, for mobile and desktop). Candidates are matched by their statistics first,
 * so text is only compared for likely twins.
 */
export function removeDuplicates(root: Element, stats: StatsMap, minText: number): void {
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
    if (!s || s.text < minText) continue;
    const key = `${s.text}/${s.link}/${s.allCommas}/${s.paras}/${s.lis}/${s.imgs}/${s.headings}`;
    const entry = seen.get(key);
    if (!entry) seen.set(key, { first: el });
    else {
      if (!entry.byText) entry.byText = new Map([[bareText(entry.first), [entry.first]]]);
      const text = bareText(el);
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

/** Text without whitespace: copies indented differently are still copies. */
const bareText = (el: Element): string => rawText(el).replace(/\s+/g, '');

function isAncestor(a: Element, el: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === a) return true;
  return false;
}
