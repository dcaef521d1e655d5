/**
 * Forum threads: every post reads as its own block in markdown and text. A post whose
 * author line is plain text ("raoul (raoul) May 3, 2024, 8:45am") runs into the posts around it;
 * that line becomes a heading, so the thread reads "### author date" then the post, per post.
 *
 * Posts are the repeated siblings named as posts (class or id: post, message, comment, reply,
 * answer; or schema.org Comment, Answer, Question, DiscussionForumPosting microdata). A post's
 * author is its schema.org author, a "username"/"author"/"poster" class, or a link to a member
 * profile; its head line is the largest short block around that author that holds no body text.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { findAll, isElement } from '../dom/dom.util';

/** A class or id token naming a whole post ("post", "message--post", "topic-post", "post-1234"), not a part of one ("post-body"). */
const POST_TOKEN =
  /^(?:[a-z]+[-_]+)?(?:post|comment|reply|message|answer)(?:[-_]*(?:item|container|wrapper|\d+))?$/i;
const POST_TYPE = /schema\.org\/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)$/i;
const AUTHOR_NAME = /(?:^|[\s_-])(?:author|username|user-?name|poster|creator)(?:$|[\s_-])/i;
const PROFILE_LINK = /\/(?:u|user|users|member|members|profile|profiles|people)\/[^/?#]/i;

/** Longest head line: a name, a date, a post number; longer is part of the post. */
const MAX_HEAD = 150;
const HEADING = /^h[1-6]$/;
/** Blocks that never become a heading: their layout carries meaning of its own. */
const NOT_HEAD = new Set([
  'table',
  'tbody',
  'thead',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'li',
  'pre',
  'blockquote',
  'p',
]);
const HEAD_BLOCKS = new Set(['div', 'header', 'section', 'dl', 'dt', 'dd', 'address', 'footer']);

export const isPost = (e: Element): boolean =>
  (e.attribs.itemtype !== undefined && POST_TYPE.test(e.attribs.itemtype)) ||
  `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`
    .split(/\s+/)
    // camelCase names ("cPost", "ipsComment", "elComment_42") read as separate words
    .some((t) => POST_TOKEN.test(t.replace(/([a-z])([A-Z])/g, '$1-$2')));

/** Posts: elements named as posts with at least one same-tag sibling also named as a post. */
function findPosts(root: Element): Element[] {
  const out: Element[] = [];
  const parents = new Set<Element>();
  for (const e of findAll(root, isPost)) {
    const p = e.parent;
    if (!p || !isElement(p) || parents.has(p)) continue;
    const group = p.children.filter((c): c is Element => isElement(c) && c.name === e.name && isPost(c));
    if (group.length >= 2) {
      parents.add(p);
      out.push(...group);
    }
  }
  return out;
}

/** The post's author: schema.org author first, then a named class, then a profile link. */
function authorOf(post: Element, stats: StatsMap): Element | undefined {
  // a name, not an avatar's initial
  const short = (e: Element): boolean => {
    const t = stats.get(e)?.text ?? 0;
    return t >= 2 && t <= 60;
  };
  const first = (pred: (e: Element) => boolean): Element | undefined =>
    findAll(post, (e) => short(e) && pred(e))[0];
  return (
    first((e) => e.attribs.itemprop === 'author') ??
    first((e) => AUTHOR_NAME.test(e.attribs.class ?? '')) ??
    first((e) => e.name === 'a' && PROFILE_LINK.test(e.attribs.href ?? ''))
  );
}

/** The largest short block around the author, inside the post, that can be a heading. */
function headOf(post: Element, author: Element, stats: StatsMap): Element | undefined {
  let head: Element | undefined;
  for (let e: Element = author; e !== post; ) {
    if (NOT_HEAD.has(e.name) || HEADING.test(e.name)) return undefined;
    if ((stats.get(e)?.text ?? 0) > MAX_HEAD) break;
    if (HEAD_BLOCKS.has(e.name)) head = e;
    const p = e.parent;
    if (!p || !isElement(p)) break;
    e = p;
  }
  return head;
}

/** Turn each post's author line into a heading, unless the post has a heading already. */
export function markPostHeads(root: Element, stats: StatsMap): void {
  for (const post of findPosts(root)) {
    if (findAll(post, (e) => HEADING.test(e.name)).length > 0) continue;
    const author = authorOf(post, stats);
    const head = author && headOf(post, author, stats);
    if (!head) continue;
    head.name = 'h3';
  }
}
