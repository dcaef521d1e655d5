/**
 * The `includeTags` / `excludeTags` page options: CSS selectors, matched by css-select on the
 * domhandler tree, that remove elements from the page body or keep only some of them, before the
 * main-content step. Selectors are parsed by css-what and compiled once per page (all of one list
 * into one matcher); anything css-select cannot compile is invalid, as are a dangling combinator
 * ("div >") and relative selectors ("> p"), which browsers reject too.
 */
import { ValidationError } from '@wcs/errors';
import { compile } from 'css-select';
import { parse, type Selector } from 'css-what';
import { type AnyNode, type ChildNode, type Element, type ParentNode, Text } from 'domhandler';
import { isElement, setChildren } from './dom.util';
import type { SelectorBudget } from './selector-budget';
import { selectorCostProblem } from './selector-cost';

type Matcher = (el: Element) => boolean;

export interface TagFilterOptions {
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
}

/** Compiled `includeTags` / `excludeTags`; a side is absent when its list is absent or empty. */
export interface TagFilter {
  include?: Matcher;
  exclude?: Matcher;
  /** When given, every pass runs against it (the matchers count their DOM steps into it). */
  budget?: SelectorBudget;
}

const COMBINATORS: ReadonlySet<string> = new Set([
  'child',
  'parent',
  'sibling',
  'adjacent',
  'descendant',
  'column-combinator',
]);

/** css-what's tokens of one selector list; throws on a selector that is not valid. */
function tokensOf(selector: string): Selector[][] {
  if (selector.trim() === '') throw new Error('empty selector');
  const tokens = parse(selector);
  for (const seq of tokens) {
    const last = seq[seq.length - 1];
    if (!last || COMBINATORS.has(last.type)) throw new Error('selector ends with a combinator');
  }
  return tokens;
}

function compileTokens(tokens: Selector[][], budget?: SelectorBudget): Matcher {
  // relativeSelector: false makes "> p" an error instead of a selector relative to nothing
  return compile<AnyNode, Element>(tokens, {
    relativeSelector: false,
    xmlMode: false,
    ...(budget ? { adapter: budget.adapter() } : {}),
  }) as Matcher;
}

function isValidSelector(selector: string): boolean {
  try {
    compileTokens(tokensOf(selector));
    return true;
  } catch {
    return false;
  }
}

/**
 * The first selector of the list that css-select cannot use, or undefined when all are valid:
 * the gateway's check of `includeTags` / `excludeTags` (a 400 naming the selector).
 */
export function findInvalidSelector(selectors: readonly string[]): string | undefined {
  return selectors.find((s) => !isValidSelector(s));
}

/**
 * Why a list of valid selectors is refused as too costly to match (selector-cost.ts: nesting of
 * :has/:not/:is, :has() count), or undefined: the gateway's check after `findInvalidSelector`.
 */
export function selectorListCostProblem(selectors: readonly string[]): string | undefined {
  return selectorCostProblem(selectors.map((selector) => ({ selector, tokens: tokensOf(selector) })));
}

function compileList(
  field: string,
  selectors: readonly string[] | undefined,
  budget: SelectorBudget | undefined,
): Matcher | undefined {
  if (!selectors || selectors.length === 0) return undefined;
  const all: Selector[][] = [];
  const parsed: Array<{ selector: string; tokens: Selector[][] }> = [];
  for (const s of selectors) {
    try {
      const tokens = tokensOf(s);
      parsed.push({ selector: s, tokens });
      all.push(...tokens);
    } catch {
      throw new ValidationError(`${field}: ${JSON.stringify(s.slice(0, 200))} is not a valid CSS selector`);
    }
  }
  const costly = selectorCostProblem(parsed);
  if (costly) throw new ValidationError(`${field}: ${costly}`, { details: { field } });
  try {
    return compileTokens(all, budget);
  } catch {
    const bad = findInvalidSelector(selectors) ?? selectors[0]!;
    throw new ValidationError(`${field}: ${JSON.stringify(bad.slice(0, 200))} is not a valid CSS selector`);
  }
}

/**
 * Compile the options once per page (undefined when neither list has a selector). A selector that
 * slipped past the gateway's check is the caller's input, not our bug: a ValidationError naming it.
 */
export function compileTagFilter(opts: TagFilterOptions, budget?: SelectorBudget): TagFilter | undefined {
  const include = compileList('includeTags', opts.includeTags, budget);
  const exclude = compileList('excludeTags', opts.excludeTags, budget);
  if (!include && !exclude) return undefined;
  const filter: TagFilter = {};
  if (include) filter.include = include;
  if (exclude) filter.exclude = exclude;
  if (budget) filter.budget = budget;
  return filter;
}

/** Outermost matches under `root`, in document order (a match's subtree is not searched). */
function outermostMatches(root: ParentNode, match: Matcher): Element[] {
  const out: Element[] = [];
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (match(n)) {
      out.push(n);
      continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

const detach = (n: ChildNode): void => {
  n.parent = null;
  n.prev = null;
  n.next = null;
};

/** Remove every match (one rebuild per parent: splicing one by one is quadratic on wide parents). */
function removeMatches(body: Element, match: Matcher): void {
  const doomed = new Set<ChildNode>(outermostMatches(body, match));
  if (doomed.size === 0) return;
  const parents = new Set<ParentNode>();
  for (const el of doomed) if (el.parent) parents.add(el.parent);
  for (const p of parents)
    setChildren(
      p,
      p.children.filter((c) => !doomed.has(c)),
    );
  for (const el of doomed) detach(el);
}

/**
 * Keep only the matches as the body's children, in document order; a match inside another is
 * kept once, inside it. Consecutive matches are separated by a line break, so two inline matches
 * ("<span>a</span>…<span>b</span>") do not run together. No match leaves an empty body.
 */
function keepMatches(body: Element, match: Matcher): void {
  const kept = outermostMatches(body, match);
  const keptSet = new Set<ChildNode>(kept);
  for (const c of body.children) if (!keptSet.has(c)) detach(c);
  const kids: ChildNode[] = [];
  for (const el of kept) {
    if (kids.length > 0) kids.push(new Text('\n'));
    kids.push(el);
  }
  setChildren(body, kids);
}

/**
 * Apply the filter to the page body in place: exclusions first (on the page as written, so a
 * selector like "aside p" sees the real ancestors), then inclusion. An excluded element stays out
 * even when an included one contains it or sits inside it.
 */
export function applyTagFilter(body: Element, filter: TagFilter): void {
  const { exclude, include, budget } = filter;
  const pass = (field: string, fn: () => void) => (budget ? budget.pass(field, fn) : fn());
  if (exclude) pass('excludeTags', () => removeMatches(body, exclude));
  if (include) pass('includeTags', () => keepMatches(body, include));
}
