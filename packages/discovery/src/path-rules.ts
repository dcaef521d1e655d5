/**
 * includePaths / excludePaths, the one documented rule (README): each entry is a JavaScript
 * regular expression, tested (unanchored, case-sensitive) against the URL's percent-encoded
 * pathname plus its query string (`/blog/post?page=2`), never against scheme or host. A URL passes
 * when it matches no exclude pattern and, if there are include patterns, at least one of them.
 */
import { ValidationError } from '@wcs/errors';

export interface PathRules {
  includePaths?: string[];
  excludePaths?: string[];
}

export const MAX_PATH_PATTERNS = 20;
export const MAX_PATH_PATTERN_LENGTH = 200;

// A quantified group whose body is itself quantified, e.g. (a+)+, (\w*)*, (x|y+){2,}: the classic
// shapes of exponential backtracking. Refused up front; the length caps bound everything else.
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

function compile(field: string, patterns: string[], offset: number): RegExp[] {
  return patterns.map((pattern, i) => {
    const name = `${field}.${i}`;
    if (typeof pattern !== 'string' || pattern.length === 0) {
      throw new ValidationError(`${name}: pattern must be a non-empty string`, { details: { field: name } });
    }
    if (pattern.length > MAX_PATH_PATTERN_LENGTH) {
      throw new ValidationError(`${name}: pattern is longer than ${MAX_PATH_PATTERN_LENGTH} characters`, {
        details: { field: name },
      });
    }
    if (NESTED_QUANTIFIER.test(pattern)) {
      throw new ValidationError(
        `${name}: pattern "${pattern}" nests quantifiers (like (a+)+), which can take exponential time`,
        { details: { field: name, index: offset + i } },
      );
    }
    try {
      return new RegExp(pattern);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ValidationError(`${name}: invalid regular expression "${pattern}": ${why}`, {
        details: { field: name, pattern },
      });
    }
  });
}

/** The part of a URL the rules see: pathname + search, e.g. "/docs/a?lang=en". */
export function pathTarget(url: string | URL): string | null {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

/**
 * Compile the rules once (throws ValidationError naming the bad pattern: `includePaths.2: …`) and
 * return a predicate over absolute URLs (or URLs already parsed). Unparsable URLs never pass.
 */
export function compilePathRules(rules: PathRules): (url: string | URL) => boolean {
  const includes = rules.includePaths ?? [];
  const excludes = rules.excludePaths ?? [];
  if (includes.length + excludes.length > MAX_PATH_PATTERNS) {
    throw new ValidationError(
      `includePaths/excludePaths: at most ${MAX_PATH_PATTERNS} patterns in total (got ${includes.length + excludes.length})`,
    );
  }
  const inc = compile('includePaths', includes, 0);
  const exc = compile('excludePaths', excludes, includes.length);
  return (url: string | URL) => {
    const target = pathTarget(url);
    if (target === null) return false;
    if (exc.some((re) => re.test(target))) return false;
    return inc.length === 0 || inc.some((re) => re.test(target));
  };
}
