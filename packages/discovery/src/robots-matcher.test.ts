import fc from 'fast-check';
import { canonicalPath } from './robots';
import { compileRobotsRules, MAX_WILDCARD_RULES, type RobotsRule } from './robots-matcher';
import { compileRegexReference } from './test-support/robots-regex-reference';

// A small alphabet makes prefixes, wildcards and anchors collide often; `*` and `$` also occur
// literally in targets (URLs may contain both).
const chars = fc.constantFrom('/', 'a', 'b', '*', '$', '?', '=', '.', '%2F');
const pattern = fc.array(chars, { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
const rule = fc.record({
  allow: fc.boolean(),
  pattern: fc.oneof(
    pattern,
    pattern.map((p) => `/${p}`),
  ),
});
const target = fc.array(chars, { maxLength: 12 }).map((cs) => `/${cs.join('')}`);

describe('compileRobotsRules', () => {
  it('decides exactly like the per-rule regex matcher (longest match, Allow wins ties, *, $)', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 25 }),
        fc.array(target, { minLength: 1, maxLength: 20 }),
        (rules, targets) => {
          const fast = compileRobotsRules(rules);
          const slow = compileRegexReference(rules);
          for (const t of targets) {
            if (fast.isAllowed(t) !== slow(t)) {
              throw new Error(`differs on ${JSON.stringify(t)}: fast=${fast.isAllowed(t)}`);
            }
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('handles the edge patterns the RFC names', () => {
    const cases: Array<[RobotsRule[], string, boolean]> = [
      [[{ allow: false, pattern: '/*' }], '/anything', false],
      [[{ allow: false, pattern: '*' }], '/', false],
      [[{ allow: false, pattern: '/a$' }], '/a', false],
      [[{ allow: false, pattern: '/a$' }], '/ab', true],
      [[{ allow: false, pattern: '/a*$' }], '/abc', false],
      [[{ allow: false, pattern: '/*.php$' }], '/x.php?y', true],
      [[{ allow: false, pattern: '/*.php$' }], '/a.php/b.php', false],
      [
        [
          { allow: false, pattern: '/p' },
          { allow: true, pattern: '/p' },
        ],
        '/page',
        true,
      ],
      [
        [
          { allow: true, pattern: '/folder' },
          { allow: false, pattern: '/folder$' },
        ],
        '/folder',
        false, // the longer pattern wins, even anchored
      ],
    ];
    for (const [rules, t, allowed] of cases)
      expect([rules, t, compileRobotsRules(rules).isAllowed(t)]).toEqual([rules, t, allowed]);
  });

  it(`keeps at most ${MAX_WILDCARD_RULES} wildcard rules (file order) and counts the rest`, () => {
    const rules: RobotsRule[] = Array.from({ length: 20_000 }, (_, i) => ({
      allow: false,
      pattern: `/*-${i}-`,
    }));
    rules.push({ allow: false, pattern: '/literal/' }, { allow: false, pattern: '/*-1-' }); // duplicate
    const m = compileRobotsRules(rules);
    expect(m.ignoredWildcardRules).toBe(20_000 - MAX_WILDCARD_RULES);
    expect(m.isAllowed('/a/-1-')).toBe(false);
    expect(m.isAllowed('/a/-19999-')).toBe(true); // beyond the cap: ignored
    expect(m.isAllowed('/literal/a')).toBe(false); // literal rules are never capped
    // How fast checks against 20k hostile rules are (the regex oracle needs seconds): bench/robots.bench.ts.
  });

  it('canonicalPath: the ASCII fast path gives what the full canonicalisation gives', () => {
    const full = (x: string) => {
      let out = '';
      for (const ch of x) {
        const code = ch.codePointAt(0) ?? 0;
        out += code > 0x7e || code < 0x21 ? encodeURIComponent(ch) : ch;
      }
      return out.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
    };
    const piece = fc.constantFrom(
      '/',
      'a',
      'F',
      '%',
      '%2f',
      '%2F',
      '%e9',
      '%C3%A9',
      'é',
      ' ',
      '~',
      '\t',
      '7',
      'f',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const x = parts.join('');
        expect(canonicalPath(x)).toBe(full(x));
      }),
      { numRuns: 2_000 },
    );
  });
});
