/** Deepest nesting of objects/arrays a request body may have (the body itself is level 1). */
export const MAX_BODY_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

export interface BodyProblem {
  kind: 'depth' | 'unicode';
  /** Dotted path of the offending value (`schema.a.a`, `items.0.id`), shortened when long. */
  path: string;
}

/**
 * The first structural problem of a parsed JSON body, or null: a value nested deeper than `limit`,
 * or a string (value or key) that is not well-formed UTF-16 (a lone surrogate such as `"\ud800"`,
 * which PostgreSQL and JSON columns refuse). Iterative: it must run before any recursive walk
 * (zod, JSON.stringify), which a body nested thousands deep would take past the stack.
 */
export function bodyProblem(root: unknown, limit: number): BodyProblem | null {
  const stack: Frame[] = [{ value: root, depth: 1, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { kind: 'unicode', path: pathOf(frame) };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return { kind: 'depth', path: pathOf(frame) };
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      if (LONE_SURROGATE.test(key))
        return { kind: 'unicode', path: pathOf({ value, depth, key, parent: frame }) };
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
  // Lone surrogates in a key would make the message itself ill-formed.
  return shown.join('.').replace(LONE_SURROGATES, '\uFFFD') || 'body';
}
