/**
 * Cheap structural limits on `includeTags` / `excludeTags`, checked before any page is touched (the
 * gateway's 400, and again in the content thread for selectors that reached it another way). They
 * refuse the shapes whose matching cost grows as a power of the page's size: css-select answers
 * `:has()` by walking the candidate's following siblings and subtree, so `:has()` inside `:has()`
 * multiplies those walks (20,000 sibling <div>s and `div:has(~ div:has(~ div:has(~ div)))` never
 * finish). Real selectors stay far below every limit; what remains costly (one `:has(~ …)` over a
 * very long sibling list) is cut by the selector budget of the pass (selector-budget.ts).
 */
import type { Selector } from 'css-what';

/** Pseudo-classes whose argument is a selector list. */
const LIST_PSEUDOS: ReadonlySet<string> = new Set(['has', 'not', 'is', 'matches', 'where', 'any']);

/** `:not(:is(:not(…)))` at most this deep. */
export const MAX_SELECTOR_NESTING = 3;
/** `:has()` occurrences in one option's whole list (all its selectors together). */
export const MAX_HAS_PER_LIST = 10;

interface Walked {
  /** Deepest nesting of selector-list pseudos. */
  depth: number;
  hasCount: number;
  hasInsideHas: boolean;
}

function walk(tokens: Selector[][], depth: number, insideHas: boolean, acc: Walked): void {
  for (const seq of tokens) {
    for (const t of seq) {
      if (t.type !== 'pseudo' || !LIST_PSEUDOS.has(t.name) || !Array.isArray(t.data)) continue;
      const isHas = t.name === 'has';
      if (isHas) {
        acc.hasCount++;
        if (insideHas) acc.hasInsideHas = true;
      }
      acc.depth = Math.max(acc.depth, depth + 1);
      walk(t.data, depth + 1, insideHas || isHas, acc);
    }
  }
}

/**
 * Why one option's selectors (already parsed by css-what, one entry per selector) are refused, or
 * undefined. The message names the selector and the limit, for a 400 the caller can act on.
 */
export function selectorCostProblem(
  parsed: ReadonlyArray<{ selector: string; tokens: Selector[][] }>,
): string | undefined {
  let hasTotal = 0;
  for (const { selector, tokens } of parsed) {
    const acc: Walked = { depth: 0, hasCount: 0, hasInsideHas: false };
    walk(tokens, 0, false, acc);
    const quoted = JSON.stringify(selector.slice(0, 100));
    // Browsers refuse it too (Selectors Level 4: :has() cannot be nested).
    if (acc.hasInsideHas) return `${quoted} nests :has() inside :has(), which CSS does not allow`;
    if (acc.depth > MAX_SELECTOR_NESTING) {
      return `${quoted} nests :has()/:not()/:is()/:where() ${acc.depth} deep; at most ${MAX_SELECTOR_NESTING} levels are accepted`;
    }
    hasTotal += acc.hasCount;
  }
  if (hasTotal > MAX_HAS_PER_LIST) {
    return `${hasTotal} :has() in one list; at most ${MAX_HAS_PER_LIST} are accepted`;
  }
  return undefined;
}
