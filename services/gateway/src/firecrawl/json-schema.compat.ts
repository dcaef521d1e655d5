/**
 * A JSON Schema (what Firecrawl clients send, often generated from zod) → the native plain extract
 * schema (`"string" | "number" | "boolean" | [shape] | { key: shape }`, @wcs/llm). The native
 * compiler then makes every field required-but-nullable, so the answer has the schema's keys with
 * `null` for what the page does not hold. Constraints the plain shape cannot carry (formats,
 * patterns, min/max) are dropped; shapes it cannot express (unions of different types, maps) are a
 * 400 naming the path.
 */
import { ValidationError } from '@wcs/errors';

type Json = Record<string, unknown>;

/** Bounds a cyclic `$ref` or an absurd nesting; the native compiler has its own, smaller limit. */
const MAX_DEPTH = 32;

export function toPlainSchema(schema: unknown, field: string): Record<string, unknown> {
  if (!isObject(schema)) refuse(field, 'must be a JSON Schema object');
  const plain = convert(schema, schema, field, 0);
  if (!isObject(plain))
    refuse(field, 'the top level must be an object schema ({ type: "object", properties })');
  return plain;
}

function convert(node: Json, root: Json, path: string, depth: number): unknown {
  if (depth > MAX_DEPTH) refuse(path, `nested deeper than ${MAX_DEPTH} levels (or a recursive $ref)`);
  if (node.$ref !== undefined) return convert(resolveRef(node, root, path), root, path, depth + 1);
  const resolved = node;
  const alt = resolved.anyOf ?? resolved.oneOf;
  if (alt !== undefined)
    return convertUnion(alt, root, `${path}.${resolved.anyOf ? 'anyOf' : 'oneOf'}`, depth);
  if (Array.isArray(resolved.allOf) && resolved.allOf.length === 1 && isObject(resolved.allOf[0]))
    return convert(resolved.allOf[0], root, `${path}.allOf.0`, depth + 1);
  const type = typeOf(resolved, path);
  switch (type) {
    case 'string':
    case 'boolean':
      return type;
    case 'number':
    case 'integer':
      return 'number';
    case 'array': {
      const items = resolved.items;
      if (!isObject(items)) refuse(`${path}.items`, 'an array schema needs one items schema');
      return [convert(items, root, `${path}.items`, depth + 1)];
    }
    case 'object': {
      const props = resolved.properties;
      if (!isObject(props) || Object.keys(props).length === 0)
        refuse(path, 'an object schema needs properties (free-form maps are not supported)');
      const out: Json = {};
      for (const [key, sub] of Object.entries(props)) {
        if (!isObject(sub)) refuse(`${path}.properties.${key}`, 'must be a schema object');
        out[key] = convert(sub, root, `${path}.properties.${key}`, depth + 1);
      }
      return out;
    }
    default:
      return refuse(
        `${path}.type`,
        `"${String(type)}" is not supported (use string, number, integer, boolean, array, object)`,
      );
  }
}

/** `anyOf`/`oneOf` of one type plus `null` (zod's `.nullable()`) is that type; more is a 400. */
function convertUnion(alt: unknown, root: Json, path: string, depth: number): unknown {
  if (!Array.isArray(alt)) refuse(path, 'must be an array of schemas');
  const nonNull = alt.filter((s) => !(isObject(s) && s.type === 'null'));
  const only = nonNull[0];
  if (nonNull.length !== 1 || !isObject(only))
    refuse(path, 'unions of several types are not supported (one type, optionally nullable)');
  return convert(only, root, `${path}.${alt.indexOf(only)}`, depth + 1);
}

function typeOf(node: Json, path: string): string {
  let type = node.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    if (nonNull.length !== 1)
      refuse(`${path}.type`, 'several types are not supported (one type, optionally "null")');
    type = nonNull[0];
  }
  if (typeof type === 'string') return type;
  // Untyped but unambiguous: properties, items, enum or const.
  if (isObject(node.properties)) return 'object';
  if (node.items !== undefined) return 'array';
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
  const kinds = new Set(values?.filter((v) => v !== null).map((v) => typeof v));
  if (kinds.size === 1) {
    const kind = [...kinds][0];
    if (kind === 'string' || kind === 'number' || kind === 'boolean') return kind;
  }
  return refuse(path, 'needs a type (string, number, integer, boolean, array or object)');
}

/** Local references only (`#/$defs/X`, `#/definitions/X`), as zod-to-json-schema writes them. */
function resolveRef(node: Json, root: Json, path: string): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#'))
    refuse(`${path}.$ref`, 'only local references (#/...) are supported');
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  if (!isObject(target)) refuse(`${path}.$ref`, `"${ref.slice(0, 100)}" does not point to a schema`);
  return target;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}
