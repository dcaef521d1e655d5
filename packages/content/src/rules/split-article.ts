/**
 * An article split into sections (one per h2, often nested) gives many candidates of similar
 * weight; the winner and its siblings may be one nested group of them, leaving the rest of the
 * story behind. When the chosen nodes hold well under the page's prose while one ancestor of
 * theirs (below the body) holds nearly all of it, that ancestor is the article.
 */
import type { Element } from 'domhandler';
import { findAll, isElement } from '../dom/dom.util';

/** Below this share of the page's prose, the chosen nodes may be part of a split article. */
const PART = 0.7;
/** The ancestor that is the article holds at least this share of the page's prose. */
const WHOLE = 0.85;

/** The ancestor of `top` to take instead of the chosen nodes, or null to keep them. */
export function wholeArticle(
  top: Element,
  chosenProse: number,
  prose: Map<Element, number>,
  body: Element,
): Element | null {
  const total = prose.get(body) ?? 0;
  if (total <= 0 || chosenProse >= PART * total) return null;
  for (let p = top.parent; p && isElement(p) && p !== body; p = p.parent) {
    if (p.name === 'html') return null;
    if ((prose.get(p) ?? 0) >= WHOLE * total) return p.name === 'article' && !nestsArticles(p) ? p : null;
  }
  return null;
}

/** Articles inside an article are teasers, replies or the next story, not sections of this one. */
const nestsArticles = (el: Element): boolean => findAll(el, (e) => e.name === 'article').length > 0;
