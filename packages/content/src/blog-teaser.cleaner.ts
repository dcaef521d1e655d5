/**
 * Service pages: a section that opens with a heading naming the site's blog or articles
 * ("Featured insights", "From our blog", "Latest news", "Our blogs") is a block of teasers for
 * other pages, not the service the page describes, once the page's own text came before it.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap, textBefore } from './content-stats';
import { findAll, isElement, opensWith, textOf } from './dom.util';

/** Headings, and the short paragraph a design sets as an overline above a section's headline. */
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const MAX_HEADING = 60;
/** The page's own text before the section: enough that the section cannot be the page. */
const MIN_BEFORE = 250;
const MIN_BEFORE_SHARE = 0.15;
/** A section never holds most of the region: then it is a wrapper of more than the teasers. */
const MAX_SHARE = 0.5;

/** A heading for teasers of the site's own articles; a bare "Insights" or "News" may be a section of its own. */
const BLOG_HEAD =
  /^(?:(?:featured|latest|recent)\s+(?:insights|articles|news|posts|blog posts|(?:client |customer )?stories)|(?:our |the )?blogs?|(?:(?:the )?latest )?from (?:our|the) blog|(?:explore|read|visit) our blog)[\s:.!»›-]*$/i;

/**
 * The section a heading opens: the outermost ancestor below `root` that starts with it (the
 * heading often sits in a column of a container of its own, the teaser cards beside that).
 */
function sectionOf(h: Element, root: Element, stats: StatsMap, total: number): Element | undefined {
  let section: Element | undefined;
  for (let cur: Element = h; ; ) {
    const p = cur.parent;
    if (!p || p === root || !isElement(p) || !opensWith(p, cur)) break;
    if ((stats.get(p)?.text ?? 0) > MAX_SHARE * total) break;
    section = p;
    cur = p;
  }
  return section;
}

export function removeBlogTeasers(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  if (total === 0) return;
  const drop: Element[] = [];
  for (const h of findAll(root, (e) => HEADINGS.has(e.name))) {
    const s = stats.get(h);
    if (!s || s.text === 0 || s.text > MAX_HEADING || !BLOG_HEAD.test(textOf(h).trim())) continue;
    const section = sectionOf(h, root, stats, total);
    if (!section || drop.some((d) => d === section || d.parent === section)) continue;
    const before = textBefore(section, root, stats);
    if (before < MIN_BEFORE || before < MIN_BEFORE_SHARE * total) continue;
    drop.push(section);
  }
  removeAllWithStats(drop, stats);
}
