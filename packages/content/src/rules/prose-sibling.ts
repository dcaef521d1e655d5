/**
 * A sibling of the winner that holds a large share of prose is more of the story:
 * paragraphs vote for five levels of ancestors only, so a section wrapped deeper than that (a CMS
 * block nested in its own wrappers) scores nothing at the level of its siblings, while its
 * paragraphs still count as the page's prose.
 */
import type { Element } from 'domhandler';

const MIN_PROSE = 500;
const SHARE = 0.25;

export function isProseSibling(
  sib: Element,
  top: Element,
  scores: Map<Element, number>,
  prose: Map<Element, number>,
): boolean {
  // a sibling its paragraphs voted for was measured by its score already
  if (scores.has(sib)) return false;
  const own = prose.get(sib) ?? 0;
  const topProse = prose.get(top) ?? 0;
  // a part of the story smaller than the winner (as much prose again is a twin: tabs, copies)
  return own >= MIN_PROSE && own >= SHARE * topProse && own < topProse;
}
