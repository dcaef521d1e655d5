/**
 * fast-check arbitraries for the request fuzzer, derived from the request-body JSON Schemas the
 * gateway publishes at /v1/openapi.json (rendered from the routes' zod schemas): each field gets
 * valid values, boundary values just past its limits, and hostile values (wrong types, nulls,
 * huge strings and numbers, deep nesting, odd unicode, prototype keys, unknown fields).
 *
 * URL fields only ever get the local fixture's pages or strings that cannot resolve (never a host
 * name that could reach the internet).
 */
import fc from 'fast-check';

export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchemaNode;
}

/** JSON text spliced in as is by `toJsonText` (deep nesting JSON.stringify would overflow on). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** `levels` arrays/objects inside each other, as JSON text. */
export function nestedValue(levels: number, kind: 'array' | 'object'): RawJson {
  const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
  return new RawJson(`${open.repeat(levels)}"leaf"${close.repeat(levels)}`);
}

/** JSON.stringify that writes RawJson values verbatim. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text =
    JSON.stringify(value, (_k, v: unknown) => {
      if (!(v instanceof RawJson)) return v;
      raws.push(v.text);
      return `__RAW_JSON_${raws.length - 1}__`;
    }) ?? 'null';
  return text.replace(/"__RAW_JSON_(\d+)__"/g, (_m, i: string) => raws[Number(i)] ?? 'null');
}

const weird = [
  '',
  ' ',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '\u202Eevil',
  '𝕏'.repeat(300),
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '{{7*7}}',
  '$' + '{jndi:ldap://x}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'é'.normalize('NFD'),
  '\r\nX-Injected: 1',
];

/** Anything a client could put where a value goes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5, -1, 4_294_967_296),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...weird),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc
    .integer({ min: 10, max: 5_000 })
    .chain((n) => fc.constantFrom(nestedValue(n, 'array'), nestedValue(n, 'object'))),
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
  fc.array(fc.constant('x'), { minLength: 501, maxLength: 2_000 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.constantFrom<unknown>(
    JSON.parse('{"__proto__":{"polluted":true}}'),
    { constructor: { prototype: { polluted: true } } },
    { toString: 'x', valueOf: 1 },
  ),
);

/** Strings for URL fields: the fixture's pages (valid) or strings no resolver can reach. */
export function urlValue(siteUrl: string): fc.Arbitrary<string> {
  const good = fc.constantFrom(
    `${siteUrl}/`,
    `${siteUrl}/article/1`,
    `${siteUrl}/article/2`,
    `${siteUrl}/json`,
  );
  const bad = fc.constantFrom(
    '',
    'not a url',
    'http://',
    'https://',
    'http://[::1',
    'ftp://127.0.0.1/',
    'javascript:alert(1)',
    'data:text/html,<h1>x</h1>',
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/',
    `http://user:pass@${siteUrl.replace(/^http:\/\//, '')}/`,
    '☃',
    'http://%zz/',
    'http://a b/',
    `${siteUrl}/${'a'.repeat(9_000)}`,
    '//',
    '\u0000http://x',
    'http://singlelabel/',
  );
  return fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: bad, weight: 2 });
}

/** Valid plain extract schemas ("string" | [shape] | { key: shape }), a few levels deep. */
const plainSchema: fc.Arbitrary<unknown> = fc.letrec<{ shape: unknown; object: Record<string, unknown> }>(
  (tie) => ({
    shape: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('string', 'number', 'boolean'),
      tie('shape').map((s) => [s]),
      tie('object'),
    ),
    object: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('shape'), {
      minKeys: 1,
      maxKeys: 4,
    }),
  }),
).object;

function isUrlField(name: string): boolean {
  return /^(url|webhookUrl|urls)$/.test(name);
}

function typesOf(s: JsonSchemaNode): string[] {
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
}

/** A value the schema accepts (numbers kept small so valid jobs stay quick). */
function validValue(s: JsonSchemaNode, name: string, ctx: FieldContext): fc.Arbitrary<unknown> {
  if (isUrlField(name) && typesOf(s).includes('string')) return urlValue(ctx.siteUrl);
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = typesOf(s)[0];
  switch (type) {
    case 'string':
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern), { maxLength: 12 });
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) });
    case 'integer': {
      // A caller's own short budget can end in a real 504 on a loaded machine: fuzz limits, not that.
      if (name === 'timeout') return fc.integer({ min: Math.max(s.minimum ?? 0, 30_000), max: 60_000 });
      const min = s.minimum ?? -1_000;
      return fc.integer({ min, max: Math.min(s.maximum ?? min + 1_000, min + 2_000) });
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (name === 'urls') return fc.array(urlValue(ctx.siteUrl), { maxLength: 4 });
      return fc.array(fieldValue(s.items ?? {}, name, ctx), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object':
      if (s.properties) return objectValue(s, ctx);
      return plainSchema; // extract's free-form `schema`
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Just past the schema's limits: the 4xx boundary. */
function boundaryValue(s: JsonSchemaNode, name: string): fc.Arbitrary<unknown> {
  const out: unknown[] = [];
  if (s.minimum !== undefined) out.push(s.minimum - 1, ...(name === 'timeout' ? [] : [s.minimum]));
  if (s.maximum !== undefined) out.push(s.maximum + 1, s.maximum + 0.5);
  if (s.maxLength !== undefined) out.push('y'.repeat(s.maxLength + 1), 'y'.repeat(s.maxLength));
  if (s.minLength !== undefined) out.push('');
  if (s.maxItems !== undefined) out.push(Array.from({ length: s.maxItems + 1 }, () => 'a'));
  if (s.enum) out.push(`${String(s.enum[0])}X`, String(s.enum[0]).toUpperCase());
  return out.length > 0 ? fc.constantFrom(...out) : hostileValue;
}

export interface FieldContext {
  siteUrl: string;
  /** false: only values the schema accepts (the request reaches the route's own checks and jobs). */
  mutate?: boolean;
}

function fieldValue(s: JsonSchemaNode, name: string, ctx: FieldContext): fc.Arbitrary<unknown> {
  if (ctx.mutate === false) return validValue(s, name, ctx);
  return fc.oneof(
    { arbitrary: validValue(s, name, ctx), weight: 6 },
    { arbitrary: boundaryValue(s, name), weight: 2 },
    { arbitrary: hostileValue, weight: 2 },
  );
}

/** An object for a schema: any subset of its fields (required ones usually), sometimes extras. */
export function objectValue(s: JsonSchemaNode, ctx: FieldContext): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const entries = Object.entries(props).map(
    ([name, child]) =>
      [
        name,
        required.has(name) && ctx.mutate === false
          ? fieldValue(child, name, ctx)
          : fc.option(fieldValue(child, name, ctx), { freq: required.has(name) ? 12 : 2, nil: undefined }),
      ] as const,
  );
  const known = fc.record(Object.fromEntries(entries));
  const near = Object.keys(props).map((k) => k.toUpperCase());
  const extraKey =
    near.length > 0 ? fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...near)) : fc.string();
  // One body in five carries unknown fields (always a 400): the others reach deeper checks.
  const extras = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: fc.dictionary(extraKey, hostileValue, { minKeys: 1, maxKeys: 3 }), weight: 1 },
  );
  if (ctx.mutate === false)
    return known.map((k) => Object.fromEntries(Object.entries(k).filter(([, v]) => v !== undefined)));
  return fc.tuple(known, extras).map(([k, x]) => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(x ?? {})) out[key] = v;
    for (const [key, v] of Object.entries(k)) if (v !== undefined) out[key] = v;
    return out;
  });
}

/** Raw bodies that are not a JSON object: other JSON, broken JSON, binary. */
export const rawBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    '',
    '[]',
    'null',
    '"str"',
    '1',
    '{',
    '{"a":1}{"b":2}',
    '\uFEFF{}',
    '{"url":"x",}',
    "{'url':'x'}",
    '{"url":"\\ud800"}',
    '[[[[[[[[[[',
    '{"a":1e999999}',
    `{"a":${'1'.repeat(5_000)}}`,
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.uint8Array({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
