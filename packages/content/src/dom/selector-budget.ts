/**
 * The time budget of one page's `includeTags` / `excludeTags` matching. css-select's compiled
 * matchers are synchronous and one call may walk the whole page (`:has(~ div)` on a long sibling
 * list is quadratic), so the budget is checked from inside them: every DOM step goes through an
 * adapter that counts, and every CHECK_EVERY steps looks at the clock. Past the budget the pass
 * throws SelectorTooExpensiveError — the caller's selectors, not the page or the service, spent it.
 */
import { SelectorTooExpensiveError } from '@wcs/errors';
import type { Options } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import * as DomUtils from 'domutils';

type Adapter = NonNullable<Options<AnyNode, Element>['adapter']>;

/** Steps between two clock reads: a step is a few ns, a clock read ~30 ns. */
const CHECK_EVERY = 1024;

export class SelectorBudget {
  /** Time left for matching, ms; spent only inside passes (parsing and rendering are not counted). */
  private leftMs: number;
  private passEnd: number | undefined;
  private field = 'includeTags';
  private steps = 0;

  constructor(
    readonly budgetMs: number,
    private readonly url: string,
  ) {
    this.leftMs = budgetMs;
  }

  /** Run one pass (one option over one tree) against what is left of the budget. */
  pass<T>(field: string, fn: () => T): T {
    const started = performance.now();
    this.field = field;
    this.passEnd = started + this.leftMs;
    this.check(started);
    try {
      return fn();
    } finally {
      this.leftMs -= performance.now() - started;
      this.passEnd = undefined;
    }
  }

  /** One DOM step of a matcher. */
  step(): void {
    if (++this.steps % CHECK_EVERY === 0 && this.passEnd !== undefined) this.check(performance.now());
  }

  private check(now: number): void {
    if (this.passEnd === undefined || now <= this.passEnd) return;
    throw new SelectorTooExpensiveError(
      `${this.field}: matching the selectors on ${this.url.slice(0, 200)} took longer than ${this.budgetMs} ms; ` +
        'use simpler selectors (:has() over long sibling lists is what usually costs)',
      { details: { selectorBudgetMs: this.budgetMs, field: this.field } },
    );
  }

  /** css-select's default adapter (domutils), with a step on every call the matchers make per node. */
  adapter(): Adapter {
    const step = () => this.step();
    return {
      ...DomUtils,
      isTag: (n: AnyNode): n is Element => {
        step();
        return DomUtils.isTag(n);
      },
      getChildren: (n: AnyNode) => {
        step();
        return DomUtils.getChildren(n);
      },
      getParent: (n: Element) => {
        step();
        return DomUtils.getParent(n) as Element | null;
      },
      getSiblings: (n: AnyNode) => {
        step();
        return DomUtils.getSiblings(n);
      },
      getName: (n: Element) => {
        step();
        return DomUtils.getName(n);
      },
      getAttributeValue: (n: Element, name: string) => {
        step();
        return DomUtils.getAttributeValue(n, name);
      },
      hasAttrib: (n: Element, name: string) => {
        step();
        return DomUtils.hasAttrib(n, name);
      },
    };
  }
}
