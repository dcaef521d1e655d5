/**
 * Script-rendered pages fetched without running their scripts: an empty mount point and the
 * site's footer, which is server-rendered. Everything left is the footer, and the extractor,
 * finding nothing better, would return it as the page's content; the page has no content.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from './content-stats';
import { isElement } from './dom.util';

/** Text outside the footer below this is a skip link or a hidden site name, not content. */
const MAX_OUTSIDE = 100;

const isFooter = (el: Element): boolean =>
  el.name === 'footer' || el.attribs.role?.toLowerCase() === 'contentinfo';

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

/** Does the page's visible text lie all in its footer? (`stats` as computed, before removals.) */
export function isEmptyShell(body: Element, stats: StatsMap): boolean {
  const total = stats.get(body)?.text ?? 0;
  if (total <= MAX_OUTSIDE) return false;
  let footer = 0;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== body && isFooter(el)) {
      if (holdsContent(el)) return false;
      footer += stats.get(el)?.text ?? 0;
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return footer > 0 && total - footer < MAX_OUTSIDE;
}
