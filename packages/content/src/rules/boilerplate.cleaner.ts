/**
 * Boilerplate removal before scoring: structural chrome (nav, aside, footer, menus), hidden
 * nodes, and regions whose class/id/role names them as ads, sharing, cookie banners and such.
 */
import type { Element, ParentNode } from 'domhandler';
import { newStats, removeWithStats, type Stats, type StatsMap } from '../dom/content-stats';
import { isElement } from '../dom/dom.util';
import { isAccordionDrawer } from './accordion-drawer';
import { cardFamilies, loneCardRegion } from './card-family';
import { layoutFamilies } from './layout-family';
import { isProseTablist } from './prose-menu';

/** Form controls: never content when main content is wanted (dropped during the stats pass). */
const CONTROL_TAGS = new Set(['button', 'select', 'input', 'textarea', 'label']);

/**
 * Structural chrome: removed before scoring unless it holds most of the page (broken markup
 * leaves whole pages inside an unclosed <aside>, and some sites wrap tab panels in a tablist).
 */
const CHROME_TAGS = new Set(['nav', 'aside', 'footer', 'menu']);

const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
  'alert',
  'status',
  'marquee',
]);

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Names that mark chrome. Matched against class + id; separators are -, _, space or camelCase. */
const UNLIKELY =
  /(?:^|[\s_-])(ad|ads|adv|advert|advertisement|advertising|ad-?slot|dfp|gpt|banner|breadcrumbs?|combx|disqus|gdpr|cookies?|consent|cookie-?banner|onetrust|footer|masthead|header|menu|navbar|nav|navigation|megamenu|related|recommended|recirc|more-stories|remark|rss|shoutbox|sidebar|skyscraper|social|socials|share|sharing|sharebar|share-?buttons|sponsor|sponsored|supplemental|pagination|pager|popup|popover|modal|overlay|newsletter|subscribe|subscription|signup|paywall|promo|promos|outbrain|taboola|toolbar|widget|skip|skiplink|sr-only|visually-hidden|screen-reader-text|print-only|author-bio|byline|tags|tag-list|jump-link|toc|table-of-contents|login|search|cart|minicart|drawer|offcanvas|hamburger|announcements?|alert-bar|notice|interstitial|disclaimers?|fine-?print|small-?print|legal-?(?:text|copy|notice)|copy-?legal|legalese)(?:$|[\s_-])/i;

/**
 * Forum signatures and Q&A user cards ("post-signature", "message-signature"): repeated under
 * every post, never part of it. Checked before MAYBE, whose "post"/"message"/"entry" they carry.
 */
const SIGNATURE = /(?:^|[\s_-])signatures?(?:$|[\s_-])/i;
/** Feature tables name their rows after what they list ("digital-signature-row"). */
const TABLE_PARTS = new Set(['table', 'tbody', 'thead', 'tr', 'td', 'th', 'a']);

/** Names that mark a content wrapper even when UNLIKELY also matches (e.g. "main-header-content"). */
const MAYBE = /article|body|content|main|column|entry|post|story|text|prose|markdown|thread|topic|message/i;

/** Reader comment sections: boilerplate on articles, the content itself on forum threads. */
const COMMENTS =
  /(?:^|[\s_-])(?:comments?|comment-?(?:list|area|section|thread|s-?container|s-?wrapper)|commentlist|disqus|respond|replies|discussion)(?:$|[\s_-])/i;

/**
 * Quotes the site chose to show ("testimonials-comments", a "comment" list in a testimonials
 * block): its own content, picked and laid out like the rest of the page, not readers' comments.
 */
const TESTIMONIALS = /testimonial/i;

function inTestimonials(el: Element, name: string): boolean {
  if (TESTIMONIALS.test(name)) return true;
  let p = el.parent;
  for (let up = 0; up < 3 && p && isElement(p); up++, p = p.parent) {
    if (TESTIMONIALS.test(nameOf(p))) return true;
  }
  return false;
}

/**
 * Customer reviews under a product: user content appended to the page like comments under an
 * article. Only on declared product pages: elsewhere "reviews" names editorial content
 * (review sites, "best of" lists) or testimonials that are part of a service page.
 */
const REVIEWS =
  /(?:^|[\s_-])(?:reviews|(?:customer|product|user)-?reviews|reviews?-?(?:list|section|container|wrapper|widget)|ratings-?(?:and-?)?reviews)(?:$|[\s_-])/i;

/**
 * Drop a comment section when its surroundings hold real content of their own (the article it
 * comments on); a section that is the whole of its container (a forum thread) stays.
 */
export function removeComments(
  root: Element,
  stats: StatsMap,
  product = false,
  keep?: (section: Element) => boolean,
): void {
  const found: Element[] = [];
  const reviews = new Set<Element>();
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const n = el === root ? '' : nameOf(el);
    if (n !== '' && COMMENTS.test(words(n)) && !inTestimonials(el, n) && !keep?.(el)) {
      found.push(el);
      continue;
    }
    if (n !== '' && product && isReviews(el, n, stats)) {
      found.push(el);
      reviews.add(el);
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  const own = (e: Element): number => {
    const s = stats.get(e);
    return s ? s.text - s.link : 0;
  };
  // A product beside its reviews is often mostly links (its sizes, formats, seller): all of its
  // text counts there, while an article beside its comments counts by its own prose.
  const all = (e: Element): number => stats.get(e)?.text ?? 0;
  for (const c of found) {
    const size = reviews.has(c) ? all : own;
    const mine = size(c);
    // a product's description is often short (a name, a price, a few lines): less beside the
    // reviews than beside comments still makes them an appendix, not the page
    const min = reviews.has(c) ? MIN_BESIDE_REVIEWS : MIN_OWN_CONTENT;
    let p = c.parent;
    let beside = 0;
    for (let up = 0; up < 3 && p && isElement(p); up++) {
      beside = size(p) - mine;
      if (beside >= min || p === root) break;
      p = p.parent;
    }
    if (beside >= min) removeWithStats(c, stats);
  }
}

const MIN_OWN_CONTENT = 300;
const MIN_BESIDE_REVIEWS = 100;

/** A rating summary line or a few quoted press reviews belong to the product description. */
const MIN_REVIEWS = 400;

const isReviews = (el: Element, name: string, stats: StatsMap): boolean =>
  REVIEWS.test(words(name)) && (stats.get(el)?.text ?? 0) >= MIN_REVIEWS;

export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if (a['aria-hidden'] === 'true' && !/fallback-image/.test(a.class ?? '')) return true;
  if (a.style && HIDDEN_STYLE.test(a.style)) return true;
  return a.type === 'hidden';
}

/** Cheap, size-independent drop decision used during the stats pass. */
export function isChrome(el: Element): boolean {
  if (CONTROL_TAGS.has(el.name)) return true;
  const role = el.attribs.role?.toLowerCase();
  if (role !== undefined && (MODAL_ROLES.has(role) || role === 'tooltip')) return true;
  return el.attribs['aria-modal'] === 'true' || isTooltipBubble(el.attribs.class);
}

/**
 * The text a tooltip shows on hover ("Impedance: usually between 8 and 600 ohm…" beside a spec
 * label): role=tooltip, or the bubble part of a tooltip widget ('tooltiptext', 'tooltip-content',
 * 'tool-tip__content', Bootstrap's 'tooltip-inner'). Not the widget's own class ('tooltip',
 * 'has-tooltip'): that is often on the term the bubble explains.
 */
const isTooltipBubble = (cls: string | undefined): boolean => cls !== undefined && TOOLTIP_TEXT.test(cls);
const TOOLTIP_TEXT = /(?:^|\s)tool-?tip(?:text|[-_]{1,2}(?:content|text|inner|body|bubble))(?=\s|$)/i;

/** Overlays (cookie dialogs, sign-up modals) are dropped whatever their size. */
const MODAL_ROLES = new Set(['dialog', 'alertdialog']);

function nameOf(el: Element): string {
  const a = el.attribs;
  const c = a.class;
  const id = a.id;
  if (!c) return id ?? '';
  return id ? `${c} ${id}` : c;
}

/** camelCase ids ("shareButtons") become separable words. */
const words = (s: string): string => s.replace(/([a-z])([A-Z])/g, '$1-$2');

export function looksUnlikely(el: Element): boolean {
  return unlikelyName(el) !== null;
}

/** The chrome word an element's class/id carries ("menu", "widget"...), if any. */
function unlikelyName(el: Element): string | null {
  const n = nameOf(el);
  if (n === '') return null;
  if (SIGNATURE.test(n) && !TABLE_PARTS.has(el.name)) return 'signature';
  let m = UNLIKELY.exec(words(n));
  // "subscription-eligible" says what a product card offers, not that it is a subscribe box
  const roles = m ? n.replace(CAPABILITIES, ' ') : n;
  if (roles !== n) m = UNLIKELY.exec(words(roles));
  if (!m || MAYBE.test(n) || isAccordionDrawer(m[1]!.toLowerCase(), n)) return null;
  return m[1]!.toLowerCase();
}

/** A class token flagging what an element allows ("share-enabled", "cart-eligible"): a state, not a role. */
const CAPABILITIES = /(?:^|\s)\S+[-_](?:eligible|enabled|available|allowed)(?=$|\s)/gi;

/** Structural chrome: landmark tags and roles. */
function structuralFamily(el: Element): string | null {
  if (CHROME_TAGS.has(el.name)) return el.name;
  const role = el.attribs.role?.toLowerCase();
  // tab panels inside the element marked as the tab strip (prose-menu.ts)
  if (role === 'tablist' && isProseTablist(el)) return null;
  return role !== undefined && CHROME_ROLES.has(role) ? `role:${role}` : null;
}

/**
 * Why an element looks like chrome by its markup, as a family key: elements removed for the
 * same reason are judged together (a page built from "elementor-widget" blocks is not made of
 * widgets to drop).
 */
function namedFamily(el: Element): string | null {
  if (el.name === 'header') return 'header';
  if (isHidden(el)) return 'hidden';
  return unlikelyName(el);
}

const NEVER_REMOVED = new Set(['a', 'main', 'article', 'body']);

type Measure = { text: number; link: number } | undefined;
const ownText = (s: Measure): number => (s ? s.text - s.link : 0);

/** A profile's exception to the named-chrome round: this element of that family is content. */
export type Spare = (el: Element, family: string, stats: StatsMap) => boolean;

/**
 * Remove page chrome before scoring, in two rounds. Landmarks (nav, aside, footer, ARIA roles)
 * go unless one holds most of the page (broken markup leaves whole pages inside an unclosed
 * <aside>). Then class/id-named and hidden regions go, but never one holding a large share of
 * what is left (a wrapper called "page-with-sidebar" around the article must survive), nor a
 * family of same-named regions that together hold most of it (page builders name every block
 * "widget", streaming renderers park every chunk in a hidden div).
 * `keep` (a collection's item grid) and its wrappers are looked into, never removed whole; `spare`
 * is a profile's exception to the named-chrome round.
 */
export function removeUnlikely(
  root: Element,
  stats: StatsMap,
  { keep, spare }: { keep?: Element; spare?: Spare } = {},
): void {
  const rs = stats.get(root);
  const total = rs?.text ?? 0;
  const totalOwn = ownText(rs);
  const kept = new Set<Element>();
  for (let p: ParentNode | null = keep ?? null; p && isElement(p); p = p.parent) kept.add(p);
  removeChrome(
    root,
    stats,
    structuralFamily,
    (s, el) => !kept.has(el) && (s.text < 0.5 * total || ownText(s) < 0.5 * totalOwn),
  );
  const named = (el: Element): string | null => {
    const f = namedFamily(el);
    return f !== null && spare?.(el, f, stats) ? null : f;
  };
  removeNamed(root, stats, kept, named);
}

function removeNamed(
  root: Element,
  stats: StatsMap,
  kept: Set<Element>,
  namedFamily: (el: Element) => string | null,
): void {
  const rs = stats.get(root);
  const total = rs?.text ?? 0;
  const totalOwn = ownText(rs);
  const found = collect(root, namedFamily);
  const sums = new Map<string, [number, number]>();
  let rest = totalOwn;
  for (const [el, f] of found) {
    const sum = sums.get(f) ?? [0, 0];
    const t = ownText(stats.get(el));
    sum[0] += t;
    sum[1]++;
    sums.set(f, sum);
    rest -= t;
  }
  const content = new Set<string>();
  for (const [f, [text, n]] of sums) {
    if (n < 2 || totalOwn <= 0 || text < 0.5 * totalOwn) continue;
    // hidden copies (mobile variants, microdata) often duplicate visible content: hidden blocks
    // are the content only when the visible page is nearly empty without them
    if (f === 'hidden' && rest >= 0.1 * totalOwn) continue;
    content.add(f);
  }
  // Many cards named like chrome holding most of the page are its items.
  for (const f of cardFamilies(found, stats, total)) content.add(f);
  // ...and so is the one card region left when named regions hold nearly all of the page
  const lone = loneCardRegion(found, stats, total);
  if (lone !== null) content.add(lone);
  const family = (el: Element): string | null => {
    const f = namedFamily(el);
    return f === null || content.has(f) ? null : f;
  };
  const minor = (s: Stats, el: Element): boolean =>
    !kept.has(el) && (s.text < 0.4 * total || (el.name === 'header' && s.text < 400));
  // a chrome name wrapping most of the page around more of itself is the page's layout
  const big = found.filter(([el]) => !minor(stats.get(el) ?? ZERO, el));
  for (const f of layoutFamilies(big, stats, namedFamily)) content.add(f);
  for (const [el, f] of found) {
    if (content.has(f))
      removeChrome(el, stats, family, minor, true); // other chrome inside content
    else if (minor(stats.get(el) ?? ZERO, el)) removeWithStats(el, stats);
    else removeChrome(el, stats, family, minor, true);
  }
}

const ZERO: Stats = newStats();

/** Outermost elements under `root` that `familyOf` names, with their family. */
function collect(root: Element, familyOf: (el: Element) => string | null): Array<[Element, string]> {
  const found: Array<[Element, string]> = [];
  const stack: Element[] = [];
  const push = (p: ParentNode): void => {
    for (let i = p.children.length - 1; i >= 0; i--) {
      const c = p.children[i]!;
      if (isElement(c)) stack.push(c);
    }
  };
  push(root);
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (!NEVER_REMOVED.has(el.name)) {
      const f = familyOf(el);
      if (f !== null) {
        found.push([el, f]);
        continue;
      }
      if (el.name === 'table' || el.name === 'pre' || el.name === 'code') continue;
    }
    push(el);
  }
  return found;
}

/**
 * Remove the outermost named elements that are minor; look inside the others. With `cards`, a
 * family of cards holding most of a region looked into is its content (`card-family.ts`).
 */
function removeChrome(
  root: Element,
  stats: StatsMap,
  familyOf: (el: Element) => string | null,
  minor: (s: Stats, el: Element) => boolean,
  cards = false,
): void {
  const queue: Element[] = [root];
  while (queue.length > 0) {
    const at = queue.pop()!;
    const found = collect(at, familyOf);
    const items = cards ? cardFamilies(found, stats, stats.get(at)?.text ?? 0) : undefined;
    for (const [el, f] of found) {
      if (items?.has(f)) queue.push(el);
      else if (minor(stats.get(el) ?? ZERO, el)) removeWithStats(el, stats);
      else queue.push(el);
    }
  }
}
