/** Class/id naming signals shared by scoring and cleaning (readability's weights). */
import type { Element } from 'domhandler';

const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown|thread/i;
const NEGATIVE =
  /hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|nav|menu|breadcrumb/i;

/** A clipping utility class (Tailwind's 'overflow-hidden', 'md:overflow-x-hidden'): layout. */
const CLIPPED = /\S*overflow[-_]*(?:[xy]-)?hidden\S*/gi;

/**
 * +25 / -25 per class and id: authors name their content wrappers and their chrome. With
 * `layout`, a clipping utility class does not read as "hidden" chrome.
 */
export function classWeight(el: Element, layout = false): number {
  let w = 0;
  const c = layout ? el.attribs.class?.replace(CLIPPED, ' ') : el.attribs.class;
  const id = el.attribs.id;
  if (c) {
    if (NEGATIVE.test(c)) w -= 25;
    if (POSITIVE.test(c)) w += 25;
  }
  if (id) {
    if (NEGATIVE.test(id)) w -= 25;
    if (POSITIVE.test(id)) w += 25;
  }
  return w;
}
