/**
 * Validation of the model's answer against the compiled JSON Schema (ajv; one compiled validator
 * per schema, cached by the schema's key). Before validating, keys the model left out are filled
 * with `null` — the documented meaning of "not on the page" — and keys it invented are removed
 * (`removeAdditional`), so only wrong types or shapes count as an invalid answer.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { type Coercion, coerceAnswer } from './answer-coercer';
import type { CompiledSchema, JsonSchema } from './schema-compiler';

const newAjv = () =>
  new Ajv({ allErrors: true, strict: false, removeAdditional: true, code: { optimize: false } });
// ajv keeps every compiled schema internally: a fresh instance when our cache is cleared bounds memory.
let ajv = newAjv();
const validators = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 500;

export type Validation =
  | { ok: true; data: Record<string, unknown>; coercions: Coercion[] }
  | { ok: false; errors: string[]; coercions: Coercion[] };

function validatorFor(schema: CompiledSchema): ValidateFunction {
  const known = validators.get(schema.key);
  if (known) return known;
  if (validators.size >= CACHE_LIMIT) {
    validators.clear();
    ajv = newAjv();
  }
  const fn = ajv.compile(schema.jsonSchema);
  validators.set(schema.key, fn);
  return fn;
}

/**
 * Safe coercions first (answer-coercer.ts: `"12"` → 12 where a number is wanted…), then missing
 * keys → null, invented keys dropped, then ajv.
 */
export function validateAnswer(schema: CompiledSchema, answer: unknown): Validation {
  const used = new Set<Coercion>();
  const coerced = coerceAnswer(answer, schema.jsonSchema, used);
  const coercions = [...used];
  if (typeof coerced !== 'object' || coerced === null || Array.isArray(coerced)) {
    return { ok: false, errors: ['(root): must be a JSON object'], coercions };
  }
  const data = structuredClone(coerced) as Record<string, unknown>;
  fillMissingWithNull(data, schema.jsonSchema);
  const validate = validatorFor(schema);
  if (validate(data)) return { ok: true, data, coercions };
  const errors = (validate.errors ?? [])
    .slice(0, 20)
    .map((e) => `${e.instancePath || '(root)'}: ${e.message ?? 'invalid'}`);
  return { ok: false, errors, coercions };
}

function fillMissingWithNull(value: unknown, schema: JsonSchema): void {
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    if (items) for (const v of value) fillMissingWithNull(v, items);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return;
  const obj = value as Record<string, unknown>;
  for (const [k, sub] of Object.entries(props)) {
    if (!(k in obj) || obj[k] === undefined) obj[k] = null;
    else fillMissingWithNull(obj[k], sub);
  }
}
