import {
  compileIgnoreRules,
  dropIgnoredLines,
  ignoreRuleProblem,
  isIgnoredLine,
  MAX_LINE_CHARS,
  stripBlockMarker,
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

  test('anchored regexes match list items, quotes, headings and table rows without their marker', () => {
    const rules = compileIgnoreRules(['/^\\d+ visitors$/', '/^updated \\w+$/i']);
    const text = [
      '- 12 visitors',
      '> 13 visitors',
      '> - 14 visitors',
      '|15 visitors|',
      '## 16 visitors',
      '3. 17 visitors',
      'Updated Monday',
      '- Updated Tuesday',
      '|Updated|Wednesday|',
      '- 12 visitors today',
      '-12 visitors',
      'Basic: $10',
    ].join('\n');
    expect(dropIgnoredLines(text, rules)).toBe(
      ['|Updated|Wednesday|', '- 12 visitors today', '-12 visitors', 'Basic: $10'].join('\n'),
    );
  });

  test('stripBlockMarker keeps text that only looks like a marker', () => {
    expect(stripBlockMarker('- item')).toBe('item');
    expect(stripBlockMarker('> > - nested')).toBe('nested');
    expect(stripBlockMarker('|a|b|')).toBe('a|b');
    expect(stripBlockMarker('-5 degrees')).toBe('-5 degrees');
    expect(stripBlockMarker('2024 was good')).toBe('2024 was good');
    expect(isIgnoredLine('- 5 degrees', compileIgnoreRules(['/^-/']))).toBe(true);
    expect(isIgnoredLine('plain', [])).toBe(false);
  });
});
