/**
 * Forum threads: a thread ends with its last post. What a board prints after it, in
 * the same region, is about the board: sign-in and "join the discussion" prompts, reply forms,
 * "jump to" menus, related-question lists, follower counts, "powered by" lines.
 *
 * The thread is the largest group of same-tag sibling posts (see post-heading.ts) holding most of
 * the region's text; everything after its last post, at every level up to the region, goes,
 * except blocks that hold posts themselves (a thread split by an ad, a second page of posts).
 * Before the first post only small or link-heavy blocks without a heading go (tool bars, counts).
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement } from '../dom/dom.util';
import { isPost } from './post-heading';

/** Share of the region's text the posts must hold for the region to be read as one thread. */
const MIN_SHARE = 0.5;

/** The thread's posts: the same-tag sibling group of posts with the most text. */
function threadPosts(root: Element, stats: StatsMap): Element[] {
  let best: Element[] = [];
  let bestText = 0;
  const seen = new Set<Element>();
  for (const e of findAll(root, isPost)) {
    const p = e.parent;
    if (!p || !isElement(p) || seen.has(p)) continue;
    seen.add(p);
    const kids = p.children.filter((c): c is Element => isElement(c) && isPost(c));
    for (const tag of new Set(kids.map((k) => k.name))) {
      const group = kids.filter((k) => k.name === tag);
      if (group.length < 2) continue;
      const t = group.reduce((n, k) => n + (stats.get(k)?.text ?? 0), 0);
      if (t > bestText) {
        best = group;
        bestText = t;
      }
    }
  }
  return bestText >= MIN_SHARE * (stats.get(root)?.text ?? 0) ? best : [];
}

/** Drop what follows the thread's last post inside the region. */
export function removeThreadTail(root: Element, stats: StatsMap): void {
  const posts = threadPosts(root, stats);
  const last = posts[posts.length - 1];
  if (!last) return;
  const tail: Element[] = [];
  for (let cur: Element = last; cur !== root; ) {
    const p = cur.parent;
    if (!p || !isElement(p)) break;
    const kids = p.children;
    for (let i = kids.indexOf(cur) + 1; i < kids.length; i++) {
      const c = kids[i]!;
      if (isElement(c) && !isPost(c) && findAll(c, isPost).length === 0) tail.push(c);
    }
    cur = p;
  }
  if (tail.length > 0) removeAllWithStats(tail, stats);
  removeThreadHead(root, posts[0]!, stats);
}

const HEAD_MAX = 200;
const HEADING = /^h[1-6]$/;

/**
 * Before the first post: thread statistics, tool bars, "locked" badges. Only small or link-heavy
 * blocks without a heading go (the title, an opening post kept apart from the replies stay).
 */
function removeThreadHead(root: Element, first: Element, stats: StatsMap): void {
  const head: Element[] = [];
  for (let cur: Element = first; cur !== root; ) {
    const p = cur.parent;
    if (!p || !isElement(p)) break;
    const kids = p.children;
    for (let i = 0; i < kids.indexOf(cur); i++) {
      const c = kids[i]!;
      if (!isElement(c) || isPost(c) || HEADING.test(c.name)) continue;
      const s = stats.get(c);
      if (!s || (s.text > HEAD_MAX && s.link < 0.5 * s.text)) continue;
      if (findAll(c, (e) => isPost(e) || HEADING.test(e.name)).length === 0) head.push(c);
    }
    cur = p;
  }
  if (head.length > 0) removeAllWithStats(head, stats);
}
