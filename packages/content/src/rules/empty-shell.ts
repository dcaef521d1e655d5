/**
 * Script-rendered pages fetched without running their scripts: an empty mount point and the
 * site's footer, which is server-rendered. Everything left is the footer, and the extractor,
 * finding nothing better, would return it as the page's content; the page has no content.
 * A page that says its content slot is still loading (`aria-busy="true"` on a spinner saved
 * mid-fetch) may draw its header and footer as named divs ("container-part-header",
 * "site-footer"): on such a page those count as chrome too, unless they hold the busy slot (a
 * "frame with_header" around the whole page).
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { isElement } from '../dom/dom.util';

/** Text outside the footer below this is a skip link or a hidden site name, not content. */
const MAX_OUTSIDE = 100;

const isFooter = (el: Element): boolean =>
  el.name === 'footer' || el.attribs.role?.toLowerCase() === 'contentinfo';

const CHROME_NAME = /(?:^|[\s_-])(?:header|footer)(?:$|[\s_-])/i;

const isNamedChrome = (el: Element): boolean =>
  el.name === 'header' ||
  isFooter(el) ||
  el.attribs.role?.toLowerCase() === 'banner' ||
  CHROME_NAME.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`);

/** Markup that means content: a footer holding it is an unclosed or misused one, not chrome. */
const CONTENT_TAGS = new Set(['main', 'article', 'h1']);

function holdsContent(el: Element): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (CONTENT_TAGS.has(e.name)) return true;
    for (const c of e.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** The busy elements and their ancestors: the way to the slot the page was still filling. */
function pathTo(busy: Element[]): Set<Element> {
  const path = new Set<Element>();
  for (const b of busy) {
    for (let p: Element | null = b; p && !path.has(p); p = p.parent && isElement(p.parent) ? p.parent : null)
      path.add(p);
  }
  return path;
}

/**
 * Text of the chrome regions (outermost ones), or -1 when one holds content markup. `busy`
 * collects the busy slots met on the way (outside chrome).
 */
function chromeText(
  body: Element,
  stats: StatsMap,
  isChrome: (el: Element) => boolean,
  busy?: Element[],
): number {
  let chrome = 0;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== body && isChrome(el)) {
      if (holdsContent(el)) return -1;
      chrome += stats.get(el)?.text ?? 0;
      continue;
    }
    if (busy && el.attribs['aria-busy'] === 'true') busy.push(el);
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return chrome;
}

/** Does the page's visible text lie all in its footer? (`stats` as computed, before removals.) */
export function isEmptyShell(body: Element, stats: StatsMap): boolean {
  const total = stats.get(body)?.text ?? 0;
  if (total <= MAX_OUTSIDE) return false;
  const empty = (chrome: number): boolean => chrome > 0 && total - chrome < MAX_OUTSIDE;
  const busy: Element[] = [];
  const footer = chromeText(body, stats, isFooter, busy);
  if (footer < 0) return false;
  if (empty(footer)) return true;
  // rare (a spinner saved with the page): only then a second walk
  if (busy.length === 0) return false;
  const path = pathTo(busy);
  return empty(chromeText(body, stats, (el) => !path.has(el) && isNamedChrome(el)));
}
