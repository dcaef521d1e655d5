/**
 * The spec's plain extract schema -> JSON Schema. Plain shapes: `"string"`, `"number"`,
 * `"boolean"`, a one-element array holding the element shape, and nested objects. Every property
 * is required but nullable, so "not on the page" is an explicit `null` (the model must say so
 * instead of leaving the key out or inventing a value); objects are closed
 * (`additionalProperties: false`). Anything else is a 400 naming the offending path.
 */
import { ValidationError } from '@wcs/errors';

export type JsonSchema = Record<string, unknown>;

const PRIMITIVES = new Set(['string', 'number', 'boolean']);
const MAX_DEPTH = 8;
const MAX_FIELDS = 300;
const MAX_KEY_LENGTH = 200;
const CACHE_LIMIT = 500;

/** Compiled schemas by the plain schema's JSON text: repeated requests compile once. */
const cache = new Map<string, JsonSchema>();

export interface CompiledSchema {
  /** The JSON Schema handed to the model (tool input_schema / response_format) and to ajv. */
  jsonSchema: JsonSchema;
  /** Cache key: the plain schema's JSON text (also the validator cache key). */
  key: string;
}

export function compilePlainSchema(plain: unknown): CompiledSchema {
  // Before JSON.stringify and the recursive compile: both would overflow the stack first.
  assertPlainSchemaDepth(plain);
  const key = JSON.stringify(plain) ?? 'undefined';
  const known = cache.get(key);
  if (known) return { jsonSchema: known, key };
  if (!isPlainObject(plain))
    throw new ValidationError('schema: must be an object, e.g. { "title": "string" }');
  const counter = { fields: 0 };
  const jsonSchema = objectSchema(plain, 'schema', 0, counter, false);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, jsonSchema);
  return { jsonSchema, key };
}

/**
 * Throws the depth-limit 400 for a plain schema nested deeper than MAX_DEPTH, counted like the
 * compiler counts (each object field and array element is one level), naming the path. Iterative,
 * so a schema nested thousands deep gets this answer instead of a stack overflow.
 */
export function assertPlainSchemaDepth(plain: unknown): void {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: plain, depth: 0, path: 'schema' }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop() as { v: unknown; depth: number; path: string };
    if (typeof v !== 'object' || v === null) continue;
    // Objects as objectSchema counts them; arrays the same way (it never checked them).
    if (depth > MAX_DEPTH) {
      throw new ValidationError(`${shortPath(path)}: nested deeper than ${MAX_DEPTH} levels`, {
        details: { field: shortPath(path), maxDepth: MAX_DEPTH },
      });
    }
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) stack.push({ v: x, depth: depth + 1, path: `${path}[${i}]` });
    } else {
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, depth: depth + 1, path: `${path}.${k}` });
    }
  }
}

function shortPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/** The schema of prompt-only requests: any JSON object the model chooses. */
export const FREE_OBJECT_SCHEMA: CompiledSchema = {
  jsonSchema: { type: 'object', additionalProperties: true },
  key: '<prompt-only>',
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectSchema(
  plain: Record<string, unknown>,
  path: string,
  depth: number,
  counter: { fields: number },
  nullable: boolean,
): JsonSchema {
  if (depth > MAX_DEPTH) throw new ValidationError(`${path}: nested deeper than ${MAX_DEPTH} levels`);
  const keys = Object.keys(plain);
  if (keys.length === 0) throw new ValidationError(`${path}: an object needs at least one field`);
  const properties: Record<string, JsonSchema> = {};
  for (const k of keys) {
    if (k.length === 0 || k.length > MAX_KEY_LENGTH) {
      throw new ValidationError(`${path}: field names must be 1-${MAX_KEY_LENGTH} characters`);
    }
    // Would set the prototype of `properties` (and of the answer objects) instead of a field.
    if (k === '__proto__') throw new ValidationError(`${path}: "__proto__" is not allowed as a field name`);
    counter.fields++;
    if (counter.fields > MAX_FIELDS) throw new ValidationError(`schema: more than ${MAX_FIELDS} fields`);
    properties[k] = fieldSchema(plain[k], `${path}.${k}`, depth + 1, counter, true);
  }
  return {
    type: nullable ? ['object', 'null'] : 'object',
    properties,
    required: keys,
    additionalProperties: false,
  };
}

function fieldSchema(
  shape: unknown,
  path: string,
  depth: number,
  counter: { fields: number },
  nullable: boolean,
): JsonSchema {
  if (typeof shape === 'string') {
    if (!PRIMITIVES.has(shape)) {
      throw new ValidationError(`${path}: unknown type "${shape}"; use "string", "number" or "boolean"`);
    }
    return { type: nullable ? [shape, 'null'] : shape };
  }
  if (Array.isArray(shape)) {
    if (shape.length !== 1) {
      throw new ValidationError(
        `${path}: an array is written as a one-element array holding the element shape`,
      );
    }
    // Elements themselves are not nullable: a missing list is `null`, an empty one `[]`.
    const items = fieldSchema(shape[0], `${path}[0]`, depth + 1, counter, false);
    return { type: nullable ? ['array', 'null'] : 'array', items };
  }
  if (isPlainObject(shape)) return objectSchema(shape, path, depth, counter, nullable);
  throw new ValidationError(
    `${path}: must be "string", "number", "boolean", a one-element array or an object (got ${shape === null ? 'null' : typeof shape})`,
  );
}
