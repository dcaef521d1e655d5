import { SelectorTooExpensiveError, ValidationError } from '@wcs/errors';
import { MAX_HAS_PER_LIST, MAX_SELECTOR_NESTING, processHtml, selectorListCostProblem } from '../index';

const URL = 'https://example.com/wide';
/** The probe's page: 20,000 sibling <div>s (a long product grid, a log, a table turned into divs). */
const wide = (n: number): string => `<html><body>${'<div>x</div>'.repeat(n)}</body></html>`;

describe('selector cost limits (checked before any page is touched)', () => {
  it('accepts the selectors people write, :has() and :not() included', () => {
    const real = [
      'article',
      'main .content > p',
      'div.post:not(.ad)',
      'section:has(> h2)',
      'li:has(> a[href^="/docs"])',
      ':is(h1, h2, h3):not(.hidden)',
      'div:not(:has(img)):not(.nav)',
      'table:has(thead) tr:nth-child(2n of .row)',
      '#comments, .sidebar, nav, footer, [role="banner"]',
    ];
    expect(selectorListCostProblem(real)).toBeUndefined();
  });

  it.each([
    ['div:has(~ div:has(~ div:has(~ div)))', /nests :has\(\) inside :has\(\)/],
    ['div:has(:not(:has(p)))', /nests :has\(\) inside :has\(\)/],
    [':not(:is(:not(:is(a))))', new RegExp(`4 deep; at most ${MAX_SELECTOR_NESTING}`)],
  ])('refuses %s', (selector, why) => {
    expect(selectorListCostProblem([selector])).toMatch(why);
    // The content thread refuses it too (a selector that reached it another way): the caller's 400.
    let err: unknown;
    try {
      processHtml(wide(3), { url: URL, includeTags: [selector] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(/^includeTags: /);
  });

  it(`refuses more than ${MAX_HAS_PER_LIST} :has() in one list`, () => {
    const list = Array.from({ length: MAX_HAS_PER_LIST + 1 }, (_, i) => `div.c${i}:has(> p)`);
    expect(selectorListCostProblem(list.slice(0, MAX_HAS_PER_LIST))).toBeUndefined();
    expect(selectorListCostProblem(list)).toMatch(`${MAX_HAS_PER_LIST + 1} :has() in one list`);
  });
});

describe('selector budget (a pass that runs long is cut)', () => {
  it('a quadratic :has() over 20,000 siblings is cut at the budget with SELECTOR_TOO_EXPENSIVE', () => {
    let err: unknown;
    try {
      processHtml(wide(20_000), { url: URL, excludeTags: ['div:has(+ div)'], selectorBudgetMs: 50 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SelectorTooExpensiveError);
    const se = err as SelectorTooExpensiveError;
    expect(se).toMatchObject({ code: 'SELECTOR_TOO_EXPENSIVE', status: 422, retryable: false, billed: true });
    expect(se.details).toEqual({ selectorBudgetMs: 50, field: 'excludeTags' });
    expect(se.message).toContain(URL);
  });

  it('cheap selectors on the same page stay within a generous budget', () => {
    const out = processHtml(wide(20_000), {
      url: URL,
      includeTags: ['div', 'body > div:not(.x)'],
      onlyMainContent: false,
      selectorBudgetMs: 5_000,
    });
    expect(out.markdown).toContain('x');
  });
});
