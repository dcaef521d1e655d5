/**
 * Forum threads: a thread's posts are its content, even where the markup names them
 * after comments or discussions ("comment", "replies", a "discussionAuthor" badge class). The
 * comment-section cleaner, made for reader comments under an article, must not take a post of
 * the thread for such a section.
 */
import type { Element } from 'domhandler';
import { isElement } from '../dom/dom.util';
import { isPost } from './post-heading';

/** One of the thread's posts: named as a post, beside at least one same-tag sibling that is too. */
export function isThreadPost(el: Element): boolean {
  if (!isPost(el)) return false;
  const p = el.parent;
  if (!p || !isElement(p)) return false;
  return p.children.some((c) => c !== el && isElement(c) && c.name === el.name && isPost(c));
}
