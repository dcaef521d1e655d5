/**
 * Boilerplate removal before scoring: structural chrome (nav, aside, footer, menus), hidden
 * nodes, and regions whose class/id/role names them as ads, sharing, cookie banners and such.
 */
import type { Element, ParentNode } from 'domhandler';
import { removeWithStats, type StatsMap } from './content-stats';
import { isElement } from './dom.util';

/** Tags that are page chrome whenever main content is wanted. */
const CHROME_TAGS = new Set([
  'nav',
  'aside',
  'footer',
  'menu',
  'button',
  'select',
  'input',
  'textarea',
  'label',
]);

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
  /(?:^|[\s_-])(?:ad|ads|adv|advert|advertisement|advertising|ad-?slot|dfp|gpt|banner|breadcrumbs?|combx|disqus|gdpr|cookies?|consent|cookie-?banner|onetrust|cmp|footer|masthead|header|menu|navbar|nav|navigation|megamenu|related|recommended|recirc|more-stories|remark|rss|shoutbox|sidebar|skyscraper|social|socials|share|sharing|sharebar|share-?buttons|sponsor|sponsored|supplemental|pagination|pager|popup|modal|overlay|newsletter|subscribe|subscription|signup|paywall|promo|promos|outbrain|taboola|toolbar|widget|skip|skiplink|sr-only|visually-hidden|screen-reader-text|print-only|author-bio|byline|tags|tag-list|jump-link|toc|table-of-contents|login|search|cart|minicart|drawer|offcanvas|hamburger|announcement|alert-bar|notice|interstitial)(?:$|[\s_-])/i;

/** Names that mark a content wrapper even when UNLIKELY also matches (e.g. "main-header-content"). */
const MAYBE = /article|body|content|main|column|entry|post|story|text|prose|markdown|thread|topic|message/i;

/** Reader comment sections: boilerplate on articles, the content itself on forum threads. */
const COMMENTS =
  /(?:^|[\s_-])(?:comments?|comment-?(?:list|area|section|thread|s-?container|s-?wrapper)|commentlist|disqus|respond|replies|discussion)(?:$|[\s_-])/i;

/**
 * Drop a comment section when its surroundings hold real content of their own (the article it
 * comments on); a section that is the whole of its container (a forum thread) stays.
 */
export function removeComments(root: Element, stats: StatsMap): void {
  const found: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const n = el === root ? '' : nameOf(el);
    if (n !== '' && COMMENTS.test(words(n))) {
      found.push(el);
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  const own = (e: Element): number => {
    const s = stats.get(e);
    return s ? s.text - s.link : 0;
  };
  for (const c of found) {
    const mine = own(c);
    let p = c.parent;
    let beside = 0;
    for (let up = 0; up < 3 && p && isElement(p); up++) {
      beside = own(p) - mine;
      if (beside >= MIN_OWN_CONTENT || p === root) break;
      p = p.parent;
    }
    if (beside >= MIN_OWN_CONTENT) removeWithStats(c, stats);
  }
}

const MIN_OWN_CONTENT = 300;

export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if (a['aria-hidden'] === 'true' && !/fallback-image/.test(a.class ?? '')) return true;
  if (a.style && HIDDEN_STYLE.test(a.style)) return true;
  return a.type === 'hidden';
}

/** Cheap, size-independent drop decision used during the stats pass. */
export function isChrome(el: Element): boolean {
  if (CHROME_TAGS.has(el.name)) return true;
  const role = el.attribs.role;
  return role !== undefined && CHROME_ROLES.has(role.toLowerCase());
}

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
  const n = nameOf(el);
  if (n === '') return false;
  const w = words(n);
  return UNLIKELY.test(w) && !MAYBE.test(n);
}

/**
 * Remove class/id-named chrome, but never a region holding most of the page's text: a wrapper
 * called "page-with-sidebar" around the article must survive.
 */
export function removeUnlikely(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
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
    if (el.name === 'a' || el.name === 'main' || el.name === 'article' || el.name === 'body') {
      push(el);
      continue;
    }
    // Hidden is judged by size too: shops hide whole pages until a script reveals them.
    if (el.name === 'header' || looksUnlikely(el) || isHidden(el)) {
      const s = stats.get(el);
      if (!s || s.text < 0.4 * total || (el.name === 'header' && s.text < 400)) {
        removeWithStats(el, stats);
        continue;
      }
    }
    if (el.name === 'table' || el.name === 'pre' || el.name === 'code') continue;
    push(el);
  }
}
