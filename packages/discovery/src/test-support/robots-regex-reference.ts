/**
 * The robots matcher as it was before robots-matcher.ts: one anchored RegExp per rule, every rule
 * tested against every target. Kept only as the oracle of the equivalence property test and the
 * "before" figure of bench/robots.bench.ts.
 */
import type { RobotsRule } from '../robots-matcher';

interface RegexRule {
  allow: boolean;
  length: number;
  re: RegExp;
}

export function compileRegexReference(rules: readonly RobotsRule[]): (target: string) => boolean {
  const compiled: RegexRule[] = rules
    .filter((r) => r.pattern !== '')
    .map(({ allow, pattern }) => {
      const anchored = pattern.endsWith('$');
      const body = anchored ? pattern.slice(0, -1) : pattern;
      const source = body
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      return { allow, length: pattern.length, re: new RegExp(`^${source}${anchored ? '$' : ''}`) };
    });
  return (target) => {
    let best: RegexRule | null = null;
    for (const r of compiled) {
      if (!r.re.test(target)) continue;
      if (!best || r.length > best.length || (r.length === best.length && r.allow && !best.allow)) best = r;
    }
    return best ? best.allow : true;
  };
}
