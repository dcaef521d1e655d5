import { hasNul, LONE_SURROGATE, printableField } from './well-formed-text';

/** Deepest nesting of objects/arrays a request body may have (the body itself is level 1). */
export const MAX_BODY_DEPTH = 32;

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

export interface BodyProblem {
  kind: 'depth' | 'unicode' | 'nul';
  /** Dotted path of the offending value (`schema.a.a`, `items.0.id`), shortened when long. */
  path: string;
}

/**
 * The first structural problem of a parsed JSON body, or null: a value nested deeper than `limit`,
 * a string (value or key) that is not well-formed UTF-16 (a lone surrogate such as `"\ud800"`), or
 * one holding a NUL character: PostgreSQL's text and JSON columns refuse both. Iterative: it must run before any recursive walk
 * (zod, JSON.stringify), which a body nested thousands deep would take past the stack.
 */
export function bodyProblem(root: unknown, limit: number): BodyProblem | null {
  const stack: Frame[] = [{ value: root, depth: 1, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const kind = textProblem(value);
      if (kind) return { kind, path: pathOf(frame) };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return { kind: 'depth', path: pathOf(frame) };
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const kind = textProblem(key);
      if (kind) return { kind, path: pathOf({ value, depth, key, parent: frame }) };
      stack.push({ value: child, depth: depth + 1, key, parent: frame });
    }
  }
  return null;
}

/** Path of the first value nested deeper than `limit`, or null. */
export function tooDeepAt(root: unknown, limit: number): string | null {
  const p = bodyProblem(root, limit);
  return p?.kind === 'depth' ? p.path : null;
}

function pathOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key);
  keys.reverse();
  const shown = keys.length > 12 ? [...keys.slice(0, 12), '…'] : keys;
  // A key's bad character would otherwise be copied into the message (and the log).
  return printableField(shown.join('.')) || 'body';
}

function textProblem(s: string): 'unicode' | 'nul' | null {
  if (LONE_SURROGATE.test(s)) return 'unicode';
  return hasNul(s) ? 'nul' : null;
}
