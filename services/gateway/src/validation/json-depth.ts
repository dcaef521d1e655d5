/** Deepest nesting of objects/arrays a request body may have (the body itself is level 1). */
export const MAX_BODY_DEPTH = 32;

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

/**
 * The path of the first value nested deeper than `limit` (`schema.a.a.a`), or null. Iterative:
 * it must run before any recursive walk (zod, JSON.stringify), which a body nested thousands deep
 * would take past the stack.
 */
export function tooDeepAt(root: unknown, limit: number): string | null {
  const stack: Frame[] = [{ value: root, depth: 1, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return pathOf(frame);
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null) {
        stack.push({ value: child, depth: depth + 1, key, parent: frame });
      }
    }
  }
  return null;
}

function pathOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key);
  keys.reverse();
  const shown = keys.length > 12 ? [...keys.slice(0, 12), '…'] : keys;
  return shown.join('.') || 'body';
}
