/**
 * Service pages (landing, product and company pages) open each of their sections with a header
 * block: the section's heading and a line under it ("section-header", "hero-header"). Named
 * "header", it would go as the site's masthead; a masthead is links (logo, menu, account), a
 * section header is a heading and words. A `<header>` element counts when it holds an h1-h3 and
 * is not inside an `<article>` (on cards and posts it holds titles, dates and bylines).
 * Docs themes do the same inside `<main>`: a "page-header" block holding the page's title, a
 * support note and the opening paragraphs, before the sections of the reference.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { findAll, isElement } from '../dom/dom.util';

/** A section header's text is mostly outside links. */
const MAX_LINK_SHARE = 0.3;
/** And it is short: a heading and a line or two. */
const MAX_TEXT = 1000;

const HEADING = /^h[1-6]$/;
const NAV = new Set(['nav', 'menu', 'form', 'input']);

/** A <header> with a section-level heading, not inside a card or post (`<article>`). */
function opensSection(el: Element): boolean {
  for (let p = el.parent; p && isElement(p); p = p.parent) if (p.name === 'article') return false;
  return findAll(el, (e) => e.name === 'h1' || e.name === 'h2' || e.name === 'h3').length > 0;
}

export function isSectionHeader(el: Element, family: string, stats: StatsMap): boolean {
  if (family !== 'header') return false;
  if (el.name === 'header' && !opensSection(el)) return false;
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > MAX_TEXT || s.link > MAX_LINK_SHARE * s.text) return false;
  const inside = findAll(
    el,
    (e) => HEADING.test(e.name) || NAV.has(e.name) || e.attribs.role === 'navigation',
  );
  return inside.some((e) => HEADING.test(e.name)) && !inside.some((e) => !HEADING.test(e.name));
}
