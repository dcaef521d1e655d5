/// <reference path="./safe-regex.d.ts" />
/**
 * A monitor's `ignoreText` rules: plain substrings (case-insensitive) or `/regex/flags` in
 * JavaScript syntax. Lines of the cleaned markdown that match any rule are left out before hashing
 * and diffing, so a "Last updated" line or a visitor counter never reads as a change. A rule is
 * tried on the line as it is and on its text without the block's marker (`- ` of a list item, `> `
 * of a quote, `#`s of a heading, a table row's outer pipes), so `/^\d+ visitors$/` also matches
 * the list item `- 12 visitors`.
 *
 * Regexes come from users and run on pages we do not control, so they are bounded three ways:
 * at most MAX_PATTERN_CHARS characters, refused when their star height exceeds 1 (nested
 * quantifiers such as `(a+)+`, the shape of catastrophic backtracking; checked by safe-regex),
 * and tested only on the first MAX_LINE_CHARS characters of each line.
 */
import safeRegex from 'safe-regex';

export const MAX_IGNORE_RULES = 50;
export const MAX_PATTERN_CHARS = 200;
export const MAX_LINE_CHARS = 1_000;

const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;
/** Flags that change matching; g and y make `test` stateful, so they are refused. */
const ALLOWED_FLAGS = /^[imsu]*$/;

export type IgnoreRule = { kind: 'text'; lower: string } | { kind: 'regex'; re: RegExp };

/** Why one rule is refused (null when it is fine). The message names the rule. */
export function ignoreRuleProblem(rule: string): string | null {
  if (rule.length === 0) return 'an empty rule would ignore every line';
  if (rule.length > MAX_PATTERN_CHARS) {
    return `${JSON.stringify(rule.slice(0, 40))}… is longer than ${MAX_PATTERN_CHARS} characters`;
  }
  const m = REGEX_FORM.exec(rule);
  if (!m) return null;
  const [, source, flags] = m as unknown as [string, string, string];
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    return `${rule}: flags must be among i, m, s, u (each once)`;
  }
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (err) {
    return `${rule} is not a valid regular expression (${(err as Error).message})`;
  }
  if (!safeRegex(re)) {
    return `${rule} may backtrack catastrophically (nested quantifiers such as (a+)+ are refused)`;
  }
  return null;
}

/** Compile rules already checked with `ignoreRuleProblem` (a bad one is skipped, never thrown). */
export function compileIgnoreRules(rules: readonly string[] | null | undefined): IgnoreRule[] {
  const out: IgnoreRule[] = [];
  for (const rule of rules ?? []) {
    if (ignoreRuleProblem(rule) !== null) continue;
    const m = REGEX_FORM.exec(rule);
    out.push(
      m ? { kind: 'regex', re: new RegExp(m[1]!, m[2]!) } : { kind: 'text', lower: rule.toLowerCase() },
    );
  }
  return out;
}

const BLOCK_MARKER = /^(?:#{1,6}[ \t]+|>[ \t]?|(?:[-*+]|\d{1,9}[.)])[ \t]+)/;

/** The line without its block markers: quote and list marks (nested: `> - x`), heading `#`s, a row's outer pipes. */
export function stripBlockMarker(line: string): string {
  let s = line.trim();
  for (let i = 0; i < 8; i++) {
    const next = s.replace(BLOCK_MARKER, '').trim();
    if (next === s) break;
    s = next;
  }
  return s.length >= 2 && s.startsWith('|') && s.endsWith('|') ? s.slice(1, -1).trim() : s;
}

function matches(rule: IgnoreRule, text: string): boolean {
  return rule.kind === 'text' ? text.toLowerCase().includes(rule.lower) : rule.re.test(text);
}

/** Whether any rule matches the line, or the line without its block marker. */
export function isIgnoredLine(line: string, rules: readonly IgnoreRule[]): boolean {
  if (rules.length === 0) return false;
  const head = line.slice(0, MAX_LINE_CHARS);
  const bare = stripBlockMarker(head);
  return rules.some((r) => matches(r, head) || (bare !== head && matches(r, bare)));
}

/** The text without the lines any rule matches (lines are `\n`-separated, as the cleaned markdown). */
export function dropIgnoredLines(text: string, rules: readonly IgnoreRule[]): string {
  if (rules.length === 0 || text === '') return text;
  return text
    .split('\n')
    .filter((line) => !isIgnoredLine(line, rules))
    .join('\n');
}
