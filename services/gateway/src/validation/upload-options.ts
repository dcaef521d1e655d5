/**
 * The options of an upload, from where a file upload can carry them: the `options` JSON part of a
 * form, the form's other fields, or the query string of a raw body. Text values are read as the
 * JSON types the schema wants (`true`, `30000`, `markdown,links` or `["markdown","links"]`).
 */
import { ValidationError } from '@wcs/errors';

const LISTS = new Set(['formats', 'includeTags', 'excludeTags']);
const BOOLEANS = new Set(['onlyMainContent']);
const NUMBERS = new Set(['timeout']);

/** Fields of a page that a file does not have: refused naming why, before the schema's "unknown key". */
const FETCH_ONLY = new Set([
  'url',
  'engine',
  'waitFor',
  'mobile',
  'location',
  'proxy',
  'maxAge',
  'storeInCache',
  'headers',
  'headersScope',
  'actions',
]);

function fromText(key: string, value: string): unknown {
  const v = value.trim();
  if (LISTS.has(key)) {
    if (v.startsWith('[')) return parseJson(key, v);
    return v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }
  if (BOOLEANS.has(key)) return v === 'true' ? true : v === 'false' ? false : value;
  if (NUMBERS.has(key)) return /^\d+$/.test(v) ? Number(v) : value;
  return value;
}

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(`${field}: is not valid JSON`, { details: { field } });
  }
}

/** Text fields (form fields or query parameters; a repeated one is a list) -> one options object. */
export function uploadOptions(
  texts: Record<string, string | string[] | undefined>,
  jsonField = 'options',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const json = texts[jsonField];
  if (json !== undefined) {
    if (Array.isArray(json))
      throw new ValidationError(`${jsonField}: give it once`, { details: { field: jsonField } });
    const parsed = parseJson(jsonField, json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ValidationError(`${jsonField}: must be a JSON object`, { details: { field: jsonField } });
    Object.assign(out, parsed);
  }
  for (const [key, value] of Object.entries(texts)) {
    if (key === jsonField || value === undefined) continue;
    if (key in out)
      throw new ValidationError(`${key}: given in ${jsonField} and on its own; give it once`, {
        details: { field: key },
      });
    out[key] = Array.isArray(value)
      ? LISTS.has(key)
        ? value.flatMap((v) => fromText(key, v) as unknown[])
        : value
      : fromText(key, value);
  }
  refuseFetchOnly(out);
  return out;
}

/** A 400 naming the first option that only makes sense for a page fetched from the web. */
export function refuseFetchOnly(options: Record<string, unknown>, prefix = ''): void {
  for (const key of Object.keys(options)) {
    if (FETCH_ONLY.has(key)) {
      throw new ValidationError(
        `${prefix}${key}: does not apply to an uploaded file (it says how a page is fetched); parse takes format, formats, onlyMainContent, includeTags, excludeTags, timeout and filename`,
        { details: { field: `${prefix}${key}` } },
      );
    }
  }
}
