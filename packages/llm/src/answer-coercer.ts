/**
 * Safe type coercions of a parsed answer against the compiled JSON Schema, before ajv: only those
 * whose meaning cannot be in doubt. `"12"` / `" -3.5 "` → number where the schema says number (not
 * `"12 EUR"` or `"1,234"`, whose reading depends on locale: those go back to the model);
 * `"true"`/`"false"` → boolean; `"null"`, `"N/A"`, `""` → null for a nullable non-string; a number
 * or boolean → its text where a string is wanted; one value → `[value]` where an array is wanted;
 * and a root wrapped once (`{"data": {…}}`, `[{…}]`) unwrapped. Each kind used is reported.
 */
import type { JsonSchema } from './schema-compiler';

export type Coercion =
  | 'number-from-string'
  | 'boolean-from-string'
  | 'null-from-placeholder'
  | 'string-from-scalar'
  | 'array-from-single'
  | 'unwrapped-root';

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NULL_TEXT = /^(null|none|n\/a|na|nil|undefined|unknown|-|)$/i;
const WRAPPER_KEYS = new Set([
  'data',
  'result',
  'results',
  'output',
  'extraction',
  'answer',
  'json',
  'response',
  'properties',
  'record_extraction',
]);

function types(schema: JsonSchema): string[] {
  const t = schema.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

/** The answer with safe coercions applied (a new value; the input is not changed). */
export function coerceAnswer(answer: unknown, schema: JsonSchema, used: Set<Coercion>): unknown {
  return coerce(unwrapRoot(answer, schema, used), schema, used);
}

function unwrapRoot(answer: unknown, schema: JsonSchema, used: Set<Coercion>): unknown {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (Array.isArray(answer) && answer.length === 1 && isObject(answer[0])) {
    used.add('unwrapped-root');
    return unwrapRoot(answer[0], schema, used);
  }
  if (!props || !isObject(answer)) return answer;
  const keys = Object.keys(answer);
  const only = keys[0];
  if (keys.length === 1 && only !== undefined && !(only in props) && WRAPPER_KEYS.has(only.toLowerCase())) {
    const inner = answer[only];
    if (isObject(inner) && Object.keys(inner).some((k) => k in props)) {
      used.add('unwrapped-root');
      return inner;
    }
  }
  return answer;
}

function coerce(value: unknown, schema: JsonSchema, used: Set<Coercion>): unknown {
  const t = types(schema);
  if (t.length === 0) return value;
  const nullable = t.includes('null');
  if (value === null || value === undefined) return value;
  if (t.includes('array')) {
    const items = (schema.items as JsonSchema | undefined) ?? {};
    if (Array.isArray(value)) return value.map((v) => coerce(v, items, used));
    if (typeof value === 'string' && nullable && NULL_TEXT.test(value.trim())) {
      used.add('null-from-placeholder');
      return null;
    }
    used.add('array-from-single');
    return [coerce(value, items, used)];
  }
  if (t.includes('object')) {
    if (!isObject(value)) {
      if (typeof value === 'string' && nullable && NULL_TEXT.test(value.trim())) {
        used.add('null-from-placeholder');
        return null;
      }
      return value;
    }
    const props = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = props[k] ? coerce(v, props[k], used) : v;
    return out;
  }
  if (t.includes('number') || t.includes('integer')) {
    if (typeof value === 'string') {
      const s = value.trim();
      if (NUMBER_TEXT.test(s)) {
        used.add('number-from-string');
        return Number(s);
      }
      if (nullable && NULL_TEXT.test(s)) {
        used.add('null-from-placeholder');
        return null;
      }
    }
    return value;
  }
  if (t.includes('boolean')) {
    if (typeof value === 'string') {
      const s = value.trim().toLowerCase();
      if (s === 'true' || s === 'false') {
        used.add('boolean-from-string');
        return s === 'true';
      }
      if (nullable && NULL_TEXT.test(s)) {
        used.add('null-from-placeholder');
        return null;
      }
    }
    return value;
  }
  if (t.includes('string') && (typeof value === 'number' || typeof value === 'boolean')) {
    used.add('string-from-scalar');
    return String(value);
  }
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * True when an answer carries nothing: every leaf is null, an empty string or an empty list (or
 * the object has no keys at all) — what weak models return instead of admitting failure.
 */
export function isEmptyAnswer(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isEmptyAnswer);
  if (typeof value === 'object') return Object.values(value).every(isEmptyAnswer);
  return false;
}
