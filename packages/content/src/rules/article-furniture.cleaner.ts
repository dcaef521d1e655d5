/**
 * Article-mode furniture trimmed from the chosen content: stray headings, figure captions and
 * photo credits, bylines and datelines, related-links headings, copyright lines, wire credits, bios
 * and calls to action. Each trim is guarded so a listing or a page whose names lie keeps its text.
 */
import type { ChildNode, Element, ParentNode } from 'domhandler';
import { removeAllWithStats, type Stats, type StatsMap } from '../dom/content-stats';
import {
  collapse,
  findAll,
  hasAncestor,
  hasRemovedAncestor,
  isAncestor,
  isElement,
  isText,
  textOf,
} from '../dom/dom.util';
import { BOILERPLATE_LINE, ownLine, PRESENTATIONAL } from './conditional.cleaner';
import { trimHoverCards } from './hover-card.cleaner';
import { trimRelatedSections } from './related-section.cleaner';
import { trimTeaserLines } from './teaser-lines.cleaner';

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
