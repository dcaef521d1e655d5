import {
  compileIgnoreRules,
  dropIgnoredLines,
  ignoreRuleProblem,
  MAX_LINE_CHARS,
} from './monitor-ignore-rules.contract';

describe('monitor ignoreText rules', () => {
  test('plain substrings match case-insensitively; regexes follow their flags', () => {
    const rules = compileIgnoreRules(['last updated', '/^\\d+ visitors$/', '/promo/i']);
    const text = [
      'Prices',
      'Last Updated: 5 Dec',
      '1234 visitors',
      'x 1234 visitors',
      'PROMO today',
      'Basic: $10',
    ].join('\n');
    expect(dropIgnoredLines(text, rules)).toBe(['Prices', 'x 1234 visitors', 'Basic: $10'].join('\n'));
  });

  test('no rules leave the text as it is', () => {
    expect(dropIgnoredLines('a\nb', compileIgnoreRules([]))).toBe('a\nb');
  });

  test('invalid, stateful, empty, long and catastrophic rules are refused, naming the rule', () => {
    expect(ignoreRuleProblem('/a(/')).toMatch(/^\/a\(\/ is not a valid regular expression/);
    expect(ignoreRuleProblem('/a/g')).toMatch(/flags must be among i, m, s, u/);
    expect(ignoreRuleProblem('/a/ii')).toMatch(/flags/);
    expect(ignoreRuleProblem('')).toMatch(/empty/);
    expect(ignoreRuleProblem('x'.repeat(201))).toMatch(/longer than 200/);
    expect(ignoreRuleProblem('/(a+)+$/')).toMatch(/backtrack catastrophically/);
    expect(ignoreRuleProblem('/(x|y*)*z/')).toMatch(/backtrack catastrophically/);
    expect(ignoreRuleProblem('/^Updated \\d+/i')).toBeNull();
    // A plain rule that looks like nothing in particular is just text.
    expect(ignoreRuleProblem('a/b(')).toBeNull();
  });

  test('regexes see only the first MAX_LINE_CHARS characters of a line', () => {
    const rules = compileIgnoreRules(['/tail$/']);
    const long = `${'w '.repeat(MAX_LINE_CHARS)}tail`;
    expect(dropIgnoredLines(`${long}\nshort tail`, rules)).toBe(long);
  });
});
