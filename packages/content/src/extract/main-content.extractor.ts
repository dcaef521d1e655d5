/**
 * Main-content selection, readability-style: paragraphs vote for their ancestors (commas and
 * length count, link-heavy candidates are discounted), the best candidate is widened when its
 * ancestors or siblings carry comparable content, and the result is cleaned conditionally.
 */
import { Element, type ParentNode } from 'domhandler';
import { classWeight } from '../dom/class-weight';
import {
  computeStats,
  isBlockName,
  linkDensity,
  type Stats,
  type StatsMap,
  sumStats,
} from '../dom/content-stats';
import { findAll, isElement, setChildren, textOf } from '../dom/dom.util';
import { removeAriaMenus } from '../rules/aria-menu.cleaner';
import { trimArticle } from '../rules/article-furniture.cleaner';
import { isChrome, removeComments, removeUnlikely, type Spare } from '../rules/boilerplate.cleaner';
import { revealFoldedPanels } from '../rules/collapsed-panel';
import { cleanConditionally, cleanRegion, PRESENTATIONAL } from '../rules/conditional.cleaner';
import { DUPLICATE_MIN_TEXT, removeDuplicates } from '../rules/duplicate-block.cleaner';
import { isEmptyShell } from '../rules/empty-shell';
import { foldedProse } from '../rules/folded-prose';
import { holds } from '../rules/item-grid';
import { removeLoginForms } from '../rules/login-form.cleaner';
import { removeProductGrids } from '../rules/product.cleaner';
import { isProseMenu } from '../rules/prose-menu';
import { isProseSibling } from '../rules/prose-sibling';
import { removeResponsiveTwins } from '../rules/responsive-twin.cleaner';
import { wholeArticle } from '../rules/split-article';
import { ensureTitle, findTitleCandidates, planTitle } from '../rules/title-heading';
import { faqBesideItems } from './collection-faq';
import type { PageHints } from './metadata.extractor';
import { DEFAULT_PROFILE, EVERY_PAGE_PASSES, PAGE_PROFILES, SELLING_PASSES } from './page-profile';

function baseScore(el: Element): number {
  switch (el.name) {
    case 'div':
    case 'article':
    case 'main':
    case 'section':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

const MIN_PARAGRAPH = 25;
const PROSE_PAGE_MIN = 300;

interface Scored {
  scores: Map<Element, number>;
  /** Text of prose paragraphs (long, few links) inside each element. */
  prose: Map<Element, number>;
}

const PROSE_MIN = 80;

const SELF_VOTING = new Set(['div', 'section', 'article', 'main', 'td']);

function scoreCandidates(stats: StatsMap, root: Element): Scored {
  const scores = new Map<Element, number>();
  const prose = new Map<Element, number>();
  const clean = new Map<Element, number>();
  const init = (el: Element): number => {
    let s = scores.get(el);
    if (s === undefined) {
      s = baseScore(el) + classWeight(el);
      scores.set(el, s);
    }
    return s;
  };
  const chain: Element[] = [];
  // prose inside regions named as chrome (footer, sidebar, comments) does not make a page an
  // article: it is not the prose the page is about
  const weights = new Map<Element, number>();
  const negative = (e: Element): boolean => {
    let w = weights.get(e);
    if (w === undefined) {
      w = classWeight(e);
      weights.set(e, w);
    }
    return w < 0;
  };
  for (const [el, st] of stats) {
    if (st.inline < MIN_PARAGRAPH || !isBlockName(el.name)) continue;
    if (el.name === 'li' || el.name === 'dt' || /^h[1-6]$/.test(el.name)) continue;
    // stats outlive removed subtrees: only paragraphs still attached to the root vote
    chain.length = 0;
    // a div holding loose text is its own paragraph's container (readability wraps that text
    // in <p> inside the div): it takes the first vote
    if (SELF_VOTING.has(el.name)) chain.push(el);
    let p: ParentNode | null = el === root ? null : el.parent;
    while (p && isElement(p)) {
      chain.push(p);
      if (p === root) break;
      p = p.parent;
    }
    if (chain[chain.length - 1] !== root) continue;
    const content = 1 + st.commas + Math.min(Math.floor(st.inline / 100), 3);
    for (let level = 0; level < 5 && level < chain.length; level++) {
      const div = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      const a = chain[level]!;
      scores.set(a, init(a) + content / div);
    }
    if (st.inline >= PROSE_MIN && linkDensity(st) < 0.3) {
      const m = chain.some(negative) ? prose : clean;
      for (const map of m === clean ? [prose, clean] : [prose]) {
        map.set(el, (map.get(el) ?? 0) + st.inline);
        for (const a of chain) if (a !== el) map.set(a, (map.get(a) ?? 0) + st.inline);
      }
    }
  }
  for (const [el, s] of scores) scores.set(el, s * (1 - linkDensity(stats.get(el))));
  // unless chrome names are everywhere (page builders call every block a "widget")
  const all = prose.get(root) ?? 0;
  const kept = clean.get(root) ?? 0;
  return { scores, prose: kept >= PROSE_PAGE_MIN || kept >= 0.5 * all ? clean : prose };
}

/** Worth descending into: holds blocks, is not itself a paragraph, list or table. */
function isContainer(el: Element, stats: StatsMap): boolean {
  if (!isBlockName(el.name) || LEAF_BLOCKS.has(el.name)) return false;
  const s = stats.get(el);
  return !!s && s.inline < MIN_PARAGRAPH;
}

const LEAF_BLOCKS = new Set([
  'p',
  'pre',
  'ul',
  'ol',
  'dl',
  'table',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
]);

/**
 * The page's main region when it has no dominant prose body (shops, listings, link grids):
 * the <main> landmark, else the deepest element holding most of the remaining text (and `keep`).
 */
function mainRegion(body: Element, stats: StatsMap, keep?: Element): Element {
  const total = stats.get(body)?.text ?? 0;
  let best: Element | null = null;
  let bestText = 0;
  for (const m of findAll(body, (e) => e.name === 'main' || e.attribs.role === 'main')) {
    const t = stats.get(m)?.text ?? 0;
    if (t > bestText) {
      best = m;
      bestText = t;
    }
  }
  if (best && bestText >= 0.3 * total) return best;
  // descend by text outside links: link farms are long but are not the content
  const own = (e: Element): number => {
    const s = stats.get(e);
    return s ? s.text - s.link : 0;
  };
  let cur = body;
  for (;;) {
    const curText = own(cur);
    let next: Element | null = null;
    for (const c of cur.children) {
      if (!isElement(c) || (keep && !holds(c, keep))) continue;
      if (own(c) >= 0.85 * curText && isContainer(c, stats)) next = c;
    }
    if (!next) return cur;
    cur = next;
  }
}

function pickTop(scores: Map<Element, number>, root: Element): Element {
  let best: Element | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  const ranked: Array<[Element, number]> = [];
  for (const [el, s] of scores) {
    ranked.push([el, s]);
    if (s > bestScore) {
      bestScore = s;
      best = el;
    }
  }
  if (!best || best === root) return root;
  let top = best;
  // Several strong candidates under one ancestor: the content is split, take the ancestor.
  ranked.sort((a, b) => b[1] - a[1]);
  const alternatives = ranked
    .slice(1, 6)
    .filter(([, s]) => s >= 0.75 * bestScore)
    .map(([e]) => ancestors(e));
  if (alternatives.length >= 3) {
    let p: ParentNode | null = top.parent;
    while (p && isElement(p) && p !== root) {
      let shared = 0;
      for (const a of alternatives) if (a.has(p)) shared++;
      if (shared >= 3) {
        top = p;
        break;
      }
      p = p.parent;
    }
  }
  // Climb while the parent scores better: the candidate was one part of a larger body.
  let last = scores.get(top) ?? 0;
  const threshold = last / 3;
  let p: ParentNode | null = top.parent;
  while (p && isElement(p) && p !== root) {
    const ps = scores.get(p);
    if (ps !== undefined) {
      if (ps < threshold) break;
      if (ps > last) {
        top = p;
        break;
      }
      last = ps;
    }
    p = p.parent;
  }
  // A lone child adds nothing: its parent holds the same content plus possible headers.
  while (top.parent && isElement(top.parent) && top.parent !== root && elementCount(top.parent) === 1) {
    top = top.parent;
  }
  return top;
}

function ancestors(el: Element): Set<ParentNode> {
  const s = new Set<ParentNode>();
  let p = el.parent;
  while (p) {
    s.add(p);
    p = p.parent;
  }
  return s;
}

/** Element children; presentational wrappers count as the loose text they wrap. */
const elementCount = (p: ParentNode): number => {
  let n = 0;
  for (const c of p.children) if (isElement(c) && !PRESENTATIONAL.has(c.name)) n++;
  return n;
};

const ENDS_SENTENCE = /\.( |$)/;

/** Siblings of the winner that look like more of the same content (readability's rule). */
function gatherSiblings(
  top: Element,
  scores: Map<Element, number>,
  stats: StatsMap,
  body: Element,
  prose: Map<Element, number>,
): Element[] {
  const parent = top.parent;
  if (!parent || !isElement(parent)) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const out: Element[] = [];
  // page-wide token counts only when two classed siblings are compared
  let tokensOf: ((el: Element) => Set<string>) | null = null;
  const tokens = (el: Element): Set<string> => {
    tokensOf ??= classTokens(body);
    return tokensOf(el);
  };
  let topTokens: Set<string> | null = null;
  for (const sib of parent.children) {
    if (!isElement(sib)) continue;
    if (sib === top) {
      out.push(sib);
      continue;
    }
    let bonus = 0;
    if (sib.attribs.class && top.attribs.class) {
      topTokens ??= tokens(top);
      if (sharesClass(tokens(sib), topTokens)) bonus += topScore * 0.2;
    }
    const s = scores.get(sib);
    if ((s !== undefined && s + bonus >= threshold) || isProseSibling(sib, top, scores, prose)) {
      out.push(sib);
      continue;
    }
    if (sib.name === 'p' || sib.name === 'pre' || sib.name === 'blockquote') {
      const st: Stats | undefined = stats.get(sib);
      if (!st) continue;
      const ld = linkDensity(st);
      if ((st.text > 80 && ld < 0.25) || (st.text > 0 && ld === 0 && ENDS_SENTENCE.test(textOf(sib))))
        out.push(sib);
    }
  }
  return out;
}

/**
 * Siblings of one kind carry the same class tokens. Only tokens used more than once on the
 * page count: a token on one element alone (an instance id, a generated hash) says nothing
 * about likeness, and must not make two blocks of one kind look different.
 */
function classTokens(body: Element): (el: Element) => Set<string> {
  const seen = new Map<string, number>();
  for (const e of findAll(body, (x) => !!x.attribs.class)) {
    for (const t of e.attribs.class!.split(/\s+/)) if (t !== '') seen.set(t, (seen.get(t) ?? 0) + 1);
  }
  return (el) => new Set((el.attribs.class ?? '').split(/\s+/).filter((t) => (seen.get(t) ?? 0) >= 2));
}

function sharesClass(ta: Set<string>, tb: Set<string>): boolean {
  if (ta.size === 0 || ta.size !== tb.size) return false;
  for (const t of tb) if (!ta.has(t)) return false;
  return true;
}

export interface ExtractResult {
  /** Synthetic wrapper holding the chosen nodes in document order. */
  root: Element;
  stats: StatsMap;
  /** Visible text characters of the page body before any removal. */
  pageText: number;
  /** Of which inside links (a site's header, menus and footer are mostly links). */
  pageLinkText: number;
}

/** Main content of a parsed page; `body` is the page body (or document root). */
export function extractMainContent(body: Element, hints?: PageHints): ExtractResult {
  const profile = hints?.pageType ? PAGE_PROFILES[hints.pageType] : DEFAULT_PROFILE;
  // pages read as a product that offer to buy count too (closed panels shown, reviews, priced
  // grids and cross-sell dropped): many shops declare no Product
  const product = hints?.product === true || (hints?.pageType === 'product' && hints.sells === true);
  const revealed = revealFoldedPanels(body, product ? 'product' : { accept: profile.reveal });
  // one copy of blocks rendered for both screen sizes; no dropdown menus (controls)
  removeResponsiveTwins(body, profile.breakpointTwins);
  removeAriaMenus(body);
  removeLoginForms(body);
  for (const pass of profile.pagePasses ?? []) pass(body);
  const stats = computeStats(body, isChrome);
  const pageText = stats.get(body)?.text ?? 0;
  const pageLinkText = stats.get(body)?.link ?? 0;
  if (isEmptyShell(body, stats)) return { root: new Element('div', {}), stats, pageText, pageLinkText };
  const titles = findTitleCandidates(body, hints?.titles ?? [], hints?.siteName, hints?.headings);
  const items = profile.keep?.(body, stats);
  // tab components named "menu" that hold prose are content on any page (prose-menu.ts)
  const spare: Spare = (el, family, st) =>
    isProseMenu(el, family) || profile.spare?.(el, family, st) === true;
  removeUnlikely(body, stats, { keep: items, spare });
  removeComments(body, stats, product, profile.ownPosts);
  if (product) removeProductGrids(body, stats, hints?.product === true);
  const { scores, prose } = scoreCandidates(stats, body);
  const top = pickTop(scores, body);
  let chosen = top === body ? [body] : gatherSiblings(top, scores, stats, body, prose);
  const proseTotal = prose.get(body) ?? 0;
  let chosenProse = chosen.reduce((n, e) => n + (prose.get(e) ?? 0), 0);
  // a story in sections whose winner is one nest of them: the <article> around them all
  const whole = wholeArticle(top, chosenProse, prose, body);
  if (whole) {
    chosen = [whole];
    chosenProse = prose.get(whole) ?? 0;
  }
  // Article mode when the winner holds most of the page's prose; otherwise the page is a
  // grid/list/shop page and its whole main region is the content.
  const faqItems = faqBesideItems(body, items, hints);
  // the prose the page shows unfolded decides (folded-prose.ts)
  const folded = foldedProse(profile.foldedBeside ? revealed : [], chosen, body, prose);
  const [total, inChosen] = [proseTotal - folded.total, chosenProse - folded.chosen];
  const articleMode =
    !faqItems &&
    !profile.region &&
    total >= PROSE_PAGE_MIN &&
    (inChosen >= 0.6 * total || (inChosen >= 1500 && inChosen >= 0.4 * total));
  if (!articleMode) chosen = [mainRegion(body, stats, faqItems ?? profile.items?.(body, stats))];
  // the category's heading and intro above the items (collection-intro.ts)
  const intro = profile.intro?.(chosen, body, stats, prose, hints?.headings);
  if (intro) chosen = [intro, ...chosen];
  const start = chosen.find((e) => (prose.get(e) ?? 0) > 0) ?? chosen[0]!;
  const title = planTitle(titles, chosen, start, body, stats, hints?.siteName);
  const root = new Element('div', {});
  setChildren(root, chosen.length === 1 && chosen[0] === body ? [...body.children] : chosen);
  stats.set(root, sumStats(chosen, stats));
  if (articleMode) {
    cleanConditionally(root, stats, scores, chosen.length > 1 ? top : undefined, items);
    trimArticle(root, stats, title?.candidate.el);
  } else {
    cleanRegion(root, stats, profile.clippedIsLayout);
    for (const pass of profile.regionPasses ?? []) pass(root, stats);
  }
  for (const pass of profile.passes ?? []) pass(root, stats);
  if (product) for (const pass of SELLING_PASSES) pass(root, stats);
  for (const pass of EVERY_PAGE_PASSES) pass(root, stats);
  removeDuplicates(root, stats, DUPLICATE_MIN_TEXT[articleMode ? 'article' : 'region']);
  if (title) ensureTitle(root, title, stats);
  return { root, stats, pageText, pageLinkText };
}

/** Whole body minus junk, for onlyMainContent: false. */
export function extractWholeBody(body: Element): ExtractResult {
  const stats = computeStats(body);
  return {
    root: body,
    stats,
    pageText: stats.get(body)?.text ?? 0,
    pageLinkText: stats.get(body)?.link ?? 0,
  };
}
