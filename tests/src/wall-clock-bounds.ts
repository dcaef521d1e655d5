/**
 * Finds wall-clock upper bounds in test sources: an `expect(…)` whose subject is a time the test
 * measured (`Date.now()`, `performance.now()`, `process.hrtime`, a difference of timestamps such as
 * `closedAt - goneAt`, or a name like `took`, `elapsed`, `ms`, `releasedMs`, `worstLag`) followed
 * by `.toBeLessThan(…)` / `.toBeLessThanOrEqual(…)` (or their `.not.toBeGreaterThan…` forms, or a
 * `<` / `<=` comparison asserted with `.toBe(true)`). A busy machine makes such bounds fail; tests
 * assert the budget the code enforces instead (its error kind, the budget named in its message, a
 * counter), and `pnpm bench:*` prints the speed. Lower bounds ("it waited at least the delay") do
 * not flake and are not reported.
 */

export interface WallClockBound {
  line: number;
  text: string;
}

const CLOCK_CALL = /\b(?:Date\.now|performance\.now|process\.hrtime)\b/;
/** Names of durations: `ms`, `took`, `elapsed`, `lag`, … alone, or as a camel-case part. */
const DURATION_NAME = [
  /^(?:ms|took|elapsed|lag|duration|latency|secs?)$/i,
  /[a-z0-9](?:Ms|Took|Elapsed|Lag|Duration|Latency|Secs?)$/,
  /^(?:took|elapsed|lag|duration|latency)[A-Z_]/,
];
/** Names of instants, whose difference is a duration: `closedAt`, `started`, `t0`, … */
const INSTANT_NAME = [/[a-z0-9]At$/, /^(?:start|started|t\d)$/, /[a-z0-9](?:Start|Started)$/];
const UPPER_BOUND =
  /^\s*\.\s*(?:toBeLessThan|toBeLessThanOrEqual|not\s*\.\s*toBeGreaterThan|not\s*\.\s*toBeGreaterThanOrEqual)\s*\(/;
const ASSERTED_TRUE = /^\s*\.\s*toBe\s*\(\s*true\s*\)/;

function isTimed(subject: string): boolean {
  if (CLOCK_CALL.test(subject)) return true;
  const names = subject.match(/[A-Za-z_$][\w$]*/g) ?? [];
  if (names.some((n) => DURATION_NAME.some((r) => r.test(n)))) return true;
  // A difference with an instant in it (`(seen?.abortedAt ?? 0) - gaveUpAt`).
  return /[^-]-[^-=>]/.test(subject) && names.some((n) => INSTANT_NAME.some((r) => r.test(n)));
}

/** The text between `expect(` at `open` (the index of its parenthesis) and its closing one. */
function argumentAt(source: string, open: number): { text: string; end: number } | null {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return { text: source.slice(open + 1, i), end: i + 1 };
    }
  }
  return null;
}

export function findWallClockBounds(source: string): WallClockBound[] {
  const found: WallClockBound[] = [];
  const expectCall = /\bexpect\s*\(/g;
  for (let m = expectCall.exec(source); m; m = expectCall.exec(source)) {
    const arg = argumentAt(source, m.index + m[0].length - 1);
    if (!arg) continue;
    const rest = source.slice(arg.end, arg.end + 80);
    const bound =
      (UPPER_BOUND.test(rest) && isTimed(arg.text)) ||
      (ASSERTED_TRUE.test(rest) && /<=?[^=]/.test(arg.text) && isTimed(arg.text));
    if (!bound) continue;
    const line = source.slice(0, m.index).split('\n').length;
    found.push({ line, text: (source.split('\n')[line - 1] ?? '').trim() });
  }
  return found;
}
