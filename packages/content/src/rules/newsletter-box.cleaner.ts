/**
 * Listing pages: a newsletter sign-up box among the items ("Monthly updates. Get the
 * latest news straight to your inbox. Sign me up", "Subscribe to Health Newsletter") offers the
 * site's mail, not the list. A sign-up link or button, with the small block around it that speaks
 * of a newsletter or an inbox, goes; boxes named "newsletter" went with the chrome already.
 */
import type { Element } from 'domhandler';
import { isBlockName, removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

/** A sign-up box is a heading, a line and a button. */
const MAX_BOX = 300;
/** The box is a small part of the region: a page that is all sign-up is a newsletter's page. */
const MAX_SHARE = 0.2;
const SIGN_UP = /^(?:sign (?:me )?up|subscribe|join|register|get (?:it|the newsletter))\b/i;
const MAIL = /\b(?:newsletters?|inbox(?:es)?)\b/i;

const isControl = (e: Element): boolean =>
  e.name === 'a' || e.name === 'button' || e.attribs.role?.toLowerCase() === 'button';

export function removeNewsletterBoxes(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const max = Math.min(MAX_BOX, MAX_SHARE * total);
  const drop: Element[] = [];
  for (const c of findAll(root, isControl, isControl)) {
    const n = stats.get(c)?.text ?? 0;
    if (n === 0 || n > max || !SIGN_UP.test(textOf(c))) continue;
    // the largest block around the control, within the box's size, that mentions the mail
    let box: Element | undefined = MAIL.test(textOf(c)) ? c : undefined;
    for (let p = c.parent; p && p !== root && isElement(p); p = p.parent) {
      if ((stats.get(p)?.text ?? 0) > max) break;
      if (isBlockName(p.name) && MAIL.test(textOf(p))) box = p;
    }
    if (box && !drop.some((d) => d === box)) drop.push(box);
  }
  removeAllWithStats(drop, stats);
}
