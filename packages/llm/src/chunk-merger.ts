/**
 * Merging the answers of a long page's chunks into one. Lists are concatenated in page order and
 * de-duplicated (case, spacing and the overlap between chunks would otherwise repeat items; an
 * item whose non-null fields all appear, equal, in another is the same item seen partially and is
 * folded into it). Objects merge field by field. Null means no chunk had it.
 *
 * A scalar (string, number) the chunks disagree on: when `texts` (each answer's chunk text) are
 * given, the values that appear verbatim in their own chunk win over values that do not (a weak
 * model repeating a default or a guess in many chunks must not outvote the one chunk that read the
 * value); among those — or among all when none appears — the value most chunks agree on; on a tie,
 * the earliest chunk's. Booleans are never on the page as such and are only voted on. When more
 * than one value is left after that, the field is listed in `disputes` (when given) with its
 * candidates and where each is written, for the model to settle (scalar-arbiter.ts).
 */
import type { JsonSchema } from './schema-compiler';

/** A field the chunks gave different values for, none ruled out by the page's text. */
export interface Dispute {
  /** Keys from the answer's root (fields of objects; never inside a list). */
  path: string[];
  /** Distinct values, in page order, each with the text around it in its chunk when written there. */
  candidates: Array<{ value: string | number; excerpt?: string }>;
  /** What the vote chose. */
  chosen: unknown;
}

interface Seen {
  value: unknown;
  /** The chunk text the value was read from, when known. */
  text?: string | undefined;
}

export function mergeChunkAnswers(
  answers: unknown[],
  schema?: JsonSchema,
  texts?: string[],
  disputes?: Dispute[],
): unknown {
  return mergeSeen(
    answers.map((value, i) => ({ value, text: texts?.[i] })),
    schema,
    [],
    disputes,
  );
}

function mergeSeen(
  seen: Seen[],
  schema: JsonSchema | undefined,
  path: string[],
  disputes: Dispute[] | undefined,
): unknown {
  const kept = seen.filter((s) => s.value !== null && s.value !== undefined);
  const present = kept.map((s) => s.value);
  if (present.length === 0) return null;
  const types = schemaTypes(schema);
  if (types.includes('array') || present.every(Array.isArray)) {
    const lists = present.filter(Array.isArray) as unknown[][];
    if (lists.length === 0) return null;
    return dedupe(lists.flat(), (schema?.items as JsonSchema | undefined) ?? undefined);
  }
  if (types.includes('object') || present.every(isObject)) {
    const objects = kept.filter((s): s is { value: Record<string, unknown>; text?: string } =>
      isObject(s.value),
    );
    if (objects.length === 0) return null;
    const props = (schema?.properties as Record<string, JsonSchema> | undefined) ?? undefined;
    const keys = props ? Object.keys(props) : [...new Set(objects.flatMap((o) => Object.keys(o.value)))];
    const out: Record<string, unknown> = {};
    for (const k of keys)
      out[k] = mergeSeen(
        objects.map((o) => ({ value: o.value[k], text: o.text })),
        props?.[k],
        [...path, k],
        disputes,
      );
    return out;
  }
  const candidates = kept.filter((s) => !(typeof s.value === 'string' && s.value.trim() === ''));
  const onPage = candidates.filter((s) => s.text !== undefined && appearsIn(s.value, s.text));
  const pool = onPage.length > 0 ? onPage : candidates;
  const chosen = vote(pool.map((s) => s.value));
  if (disputes) {
    const distinct = new Map<string, { value: string | number; excerpt?: string }>();
    for (const s of pool) {
      if (typeof s.value !== 'string' && typeof s.value !== 'number') continue;
      const key = normalKey(s.value);
      const known = distinct.get(key);
      const excerpt = known?.excerpt ?? (s.text !== undefined ? excerptOf(s.value, s.text) : undefined);
      distinct.set(key, { value: known?.value ?? s.value, ...(excerpt ? { excerpt } : {}) });
    }
    if (distinct.size > 1) disputes.push({ path, candidates: [...distinct.values()], chosen });
  }
  return chosen;
}

/** About 300 characters of the chunk around where the value is written (spacing collapsed). */
function excerptOf(value: string | number, text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ');
  const at =
    typeof value === 'string'
      ? flat.toLowerCase().indexOf(value.replace(/\s+/g, ' ').trim().toLowerCase())
      : flat.search(new RegExp(`(^|[^\\d.])${String(value).replace(/[.+]/g, (c) => `\\${c}`)}`));
  if (at < 0) return undefined;
  return flat.slice(Math.max(0, at - 150), at + 150).trim();
}

/**
 * Whether the value is written in the chunk: a string with its spacing and case folded; a number
 * with or without thousands separators (1299 in "1,299" or "1 299"), not inside a longer number.
 */
function appearsIn(value: unknown, text: string): boolean {
  if (typeof value === 'string') {
    const needle = value.replace(/\s+/g, ' ').trim().toLowerCase();
    return needle !== '' && text.replace(/\s+/g, ' ').toLowerCase().includes(needle);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    const plain = text.replace(/(\d)[,\u00a0\u202f ](?=\d{3}\b)/g, '$1');
    const n = String(value).replace(/[.+]/g, (c) => `\\${c}`);
    // 12.5 is also written 12.50.
    return new RegExp(`(^|[^\\d.])${n}${Number.isInteger(value) ? '(\\.0+)?' : '0*'}(?!\\d|\\.\\d)`).test(
      plain,
    );
  }
  return false;
}

function vote(values: unknown[]): unknown {
  if (values.length === 0) return null;
  const counts = new Map<string, { value: unknown; n: number; first: number }>();
  values.forEach((v, i) => {
    const key = normalKey(v);
    const known = counts.get(key);
    if (known) known.n++;
    else counts.set(key, { value: v, n: 1, first: i });
  });
  let best: { value: unknown; n: number; first: number } | undefined;
  for (const c of counts.values())
    if (!best || c.n > best.n || (c.n === best.n && c.first < best.first)) best = c;
  return best?.value ?? null;
}

function dedupe(items: unknown[], itemSchema: JsonSchema | undefined): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item === null || item === undefined) continue;
    const key = normalKey(item);
    if (seen.has(key)) continue;
    if (isObject(item)) {
      const same = out.findIndex((o) => isObject(o) && (subsumes(o, item) || subsumes(item, o)));
      if (same >= 0) {
        // Keep the fuller one, filling its gaps from the other.
        out[same] = mergeChunkAnswers([out[same], item], itemSchema);
        seen.add(normalKey(out[same]));
        continue;
      }
    }
    seen.add(key);
    out.push(item);
  }
  return out;
}

/** Every non-null field of `part` is in `whole` with an equal value (and `part` has one at least). */
function subsumes(whole: Record<string, unknown>, part: Record<string, unknown>): boolean {
  const fields = Object.entries(part).filter(([, v]) => v !== null && v !== undefined);
  return fields.length > 0 && fields.every(([k, v]) => normalKey(whole[k]) === normalKey(v));
}

/** Comparison key: strings trimmed, spacing collapsed, case folded; objects by sorted keys. */
function normalKey(v: unknown): string {
  return JSON.stringify(normal(v));
}

function normal(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim().toLowerCase();
  if (Array.isArray(v)) return v.map(normal);
  if (isObject(v)) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => v[k] !== null && v[k] !== undefined)
        .map((k) => [k, normal(v[k])]),
    );
  }
  return v;
}

function schemaTypes(schema: JsonSchema | undefined): string[] {
  const t = schema?.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
