/**
 * Fields a long page's chunks gave different values for (chunk-merger.ts `disputes`: more than one
 * value left after the verbatim rule) are settled by one more model call: the model sees each
 * field's candidates with the text around them and picks one per field, its answer constrained to
 * the candidates (an `enum` per field). One call per request whatever the number of fields; an
 * answer outside the candidates, an invalid one or a failed call keeps the vote's value — the
 * settling never fails an extraction that has data.
 */
import type { Dispute } from './chunk-merger';
import type { LlmAnswer, LlmRequest } from './llm-provider';
import type { JsonSchema } from './schema-compiler';

/** Fields and candidates one settling call carries at most (the prompt stays small). */
const MAX_FIELDS = 20;
const MAX_CANDIDATES = 8;

export interface ArbiterCall {
  system: string;
  /** The caller's instruction, when there is one: what "the right value" means. */
  prompt?: string;
  maxTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function arbiterRequest(disputes: Dispute[], call: ArbiterCall): LlmRequest {
  const fields = disputes.slice(0, MAX_FIELDS);
  const properties: Record<string, JsonSchema> = {};
  const lines: string[] = [];
  fields.forEach((d, i) => {
    const key = `f${i + 1}`;
    const values = d.candidates.slice(0, MAX_CANDIDATES).map((c) => c.value);
    properties[key] = { enum: [...values, null] };
    lines.push(`${key} (the field "${d.path.join('.') || '(value)'}"):`);
    for (const c of d.candidates.slice(0, MAX_CANDIDATES)) {
      lines.push(`- ${JSON.stringify(c.value)}${c.excerpt ? ` — written in: "…${c.excerpt}…"` : ''}`);
    }
  });
  const user = [
    call.prompt ? `Instruction: ${call.prompt}` : null,
    'Different parts of one long page gave different values for these fields. For each field, pick the candidate the page means for it (the value of the page’s own subject, not of a quote, an ad or a default); null when none fits. Answer with one JSON object holding every field.',
    '',
    ...lines,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
  return {
    system: call.system,
    user,
    jsonSchema: {
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    },
    freeForm: false,
    maxTokens: Math.min(call.maxTokens, 64 + fields.length * 48),
    timeoutMs: call.timeoutMs,
    ...(call.signal ? { signal: call.signal } : {}),
  };
}

/**
 * The model's picks written into `merged` (only values among a field's candidates); the number of
 * fields it changed or confirmed.
 */
export function applyPicks(merged: Record<string, unknown>, disputes: Dispute[], picks: unknown): number {
  if (typeof picks !== 'object' || picks === null || Array.isArray(picks)) return 0;
  let settled = 0;
  disputes.slice(0, MAX_FIELDS).forEach((d, i) => {
    const pick = (picks as Record<string, unknown>)[`f${i + 1}`];
    const match = d.candidates.slice(0, MAX_CANDIDATES).find((c) => same(c.value, pick));
    if (!match) return;
    setAt(merged, d.path, match.value);
    settled++;
  });
  return settled;
}

/** The answer's value: structured data as is, else the text parsed as JSON (undefined if not). */
export function picksOf(answer: LlmAnswer, parse: (text: string) => unknown): unknown {
  return answer.data !== undefined ? answer.data : parse(answer.text ?? '');
}

function same(a: string | number, b: unknown): boolean {
  if (typeof a === 'number')
    return typeof b === 'number' ? a === b : typeof b === 'string' && Number(b) === a;
  return (
    typeof b === 'string' &&
    a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase()
  );
}

function setAt(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return;
    node = next as Record<string, unknown>;
  }
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
}
