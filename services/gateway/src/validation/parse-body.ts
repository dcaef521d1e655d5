import { ValidationError } from '@wcs/errors';
import type { z } from 'zod';
import { bodyProblem, MAX_BODY_DEPTH } from './json-depth';
import { LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from './well-formed-text';

/**
 * Validate a JSON body; the error names the first offending field (`urls.3: Invalid URL`).
 * Body schemas are strict objects (`z.strictObject`): unknown fields are reported first, all of
 * them, with a hint when one is close to a field we know (`onlyMaincontent` → `onlyMainContent`).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('Request body must be a JSON object (Content-Type: application/json)');
  }
  // Before zod: its walk of free-form JSON (extract's schema) is recursive.
  const problem = bodyProblem(body, MAX_BODY_DEPTH);
  if (problem?.kind === 'depth') {
    throw new ValidationError(
      `${problem.path}: the request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
      { details: { field: problem.path, maxDepth: MAX_BODY_DEPTH } },
    );
  }
  if (problem?.kind === 'unicode' || problem?.kind === 'nul') {
    const message = problem.kind === 'nul' ? NUL_MESSAGE : LONE_SURROGATE_MESSAGE;
    throw new ValidationError(`${problem.path}: ${message}`, { details: { field: problem.path } });
  }
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  const issues = res.error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.join('.'), message: messageOf(i) }));
  const unknown = unrecognizedFields(schema, res.error.issues);
  if (unknown.length > 0) throw unrecognizedFieldsError(unknown, issues);
  const issue = res.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw new ValidationError(`${field}: ${issue ? messageOf(issue) : 'invalid'}`, {
    details: { field, issues },
  });
}

/**
 * A size issue whose message does not state its bound (a field-wide `error: 'must be a string'`
 * also answers for `.max()`) gets one that does: `must be at most 10000 characters`.
 */
export function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return issue.message;
  const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum;
  const stated = [String(bound), Number(bound).toLocaleString('en-US')];
  if (stated.some((b) => issue.message.includes(b)) || /empty/i.test(issue.message)) return issue.message;
  const inclusive = issue.inclusive !== false;
  const word =
    issue.code === 'too_big' ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'more than';
  const plural = Number(bound) === 1 ? '' : 's';
  const unit =
    issue.origin === 'string'
      ? ` character${plural}`
      : issue.origin === 'array' || issue.origin === 'set'
        ? ` item${plural}`
        : '';
  return `must be ${word} ${String(bound)}${unit}`;
}

export interface UnrecognizedField {
  /** Dotted path of the unknown key (`onlyMaincontent`, `items.0.urll`). */
  field: string;
  /** The known field at the same level it probably meant (`onlyMainContent`), if any. */
  didYouMean?: string;
}

function unrecognizedFields(schema: z.ZodType, issues: z.core.$ZodIssue[]): UnrecognizedField[] {
  const out: UnrecognizedField[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeysAt(schema, issue.path);
    for (const key of issue.keys) {
      const hint = closestKey(key, known);
      out.push({ field: [...issue.path, key].join('.'), ...(hint ? { didYouMean: hint } : {}) });
    }
  }
  return out;
}

function unrecognizedFieldsError(
  unknown: UnrecognizedField[],
  issues: Array<{ path: string; message: string }>,
): ValidationError {
  const shown = unknown
    .slice(0, 5)
    .map((u) => `"${u.field}"${u.didYouMean ? ` (did you mean "${u.didYouMean}"?)` : ''}`);
  const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : '';
  const noun = unknown.length === 1 ? 'field' : 'fields';
  return new ValidationError(`Unrecognized ${noun} ${shown.join(', ')}${more}`, {
    details: { field: unknown[0]?.field, unrecognized: unknown.slice(0, 50), issues },
  });
}

/** The field names of the object schema reached by `path` (array indexes step into elements). */
function knownKeysAt(schema: z.ZodType, path: PropertyKey[]): string[] {
  let node: unknown = schema;
  for (let i = 0; ; ) {
    const def = (node as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
    if (!def) return [];
    // Wrappers: optional, default, nullable, pipe/transform (input side), readonly, catch…
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (inner) {
      node = inner;
      continue;
    }
    if (i === path.length) {
      return def.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
    }
    const step = path[i++];
    if (def.type === 'object') node = (def.shape as Record<string, unknown>)[String(step)];
    else if (def.type === 'array') node = def.element;
    else return [];
  }
}

/** Case-insensitive (and `_`/`-`-insensitive) equality first, else the nearest by edit distance. */
export function closestKey(key: string, known: string[]): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const exact = known.find((k) => fold(k) === fold(key));
  if (exact) return exact;
  const limit = key.length >= 6 ? 2 : 1;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(fold(key), fold(k));
    if (d <= limit && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
