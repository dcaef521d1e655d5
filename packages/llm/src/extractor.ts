/**
 * One extraction: schema compiled (cached), the page cut to the token budget — or, when it is
 * longer, split into chunks (at most `maxChunks`) extracted a few at once and merged — and for each
 * model call: parse and repair the text (answer-parser.ts), safe coercions and ajv validation
 * (answer-validator.ts), and exactly one repair turn carrying the errors. A second invalid answer,
 * or an answer with nothing in it (every field null or empty), is a 500 EXTRACTION_FAILED, never a
 * success. Token counts of every call are summed for the log line.
 */
import { ExtractionFailedError } from '@wcs/errors';
import { isEmptyAnswer } from './answer-coercer';
import { parseModelText } from './answer-parser';
import { validateAnswer } from './answer-validator';
import { mergeChunkAnswers } from './chunk-merger';
import type { LlmAnswer, LlmProvider, LlmRequest, RepairTurn } from './llm-provider';
import { type CompiledSchema, compilePlainSchema, FREE_OBJECT_SCHEMA } from './schema-compiler';
import { buildModelInput, type PageForModel, splitIntoChunks } from './token-budget';

export const SYSTEM_PROMPT = [
  'You extract structured data from one web page.',
  'Use only information that is on the page. Never guess or invent values.',
  'When the page does not contain a value for a field, set that field to null.',
  'Numbers are plain JSON numbers (no units, no thousands separators); booleans are true or false.',
  'Answer with one JSON object only: no prose, no code fences.',
].join(' ');

const CHUNK_NOTE =
  'This is one part of a longer page: fill in what this part contains and use null for the rest.';

export interface ExtractionRequest {
  /** The plain schema (spec section 2); absent for prompt-only requests. */
  schema?: unknown;
  prompt?: string;
  page: PageForModel;
  inputTokenBudget: number;
  maxTokens: number;
  /** Budget of each model call. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Model calls a long page may be split into (1 = cut to the budget, the old behaviour). */
  maxChunks?: number;
  overlapTokens?: number;
  /**
   * Largest chunk (tokens) when the page needs more than `maxChunks` chunks of the budget: chunks
   * grow up to it so the whole page fits the cap (EXTRACT_MAX_CHUNK_TOKENS). Absent: the budget.
   */
  maxChunkTokens?: number;
  /** Chunks extracted at once (EXTRACT_CHUNK_CONCURRENCY); 1 when absent. */
  concurrency?: number;
}

export interface ExtractionResult {
  data: Record<string, unknown>;
  inputTokens: number;
  outputTokens: number;
  /** Estimated tokens of the page text sent (after the budget cut; every chunk together). */
  pageTokens: number;
  /** Whether part of the page was never sent (cut to the budget, or past EXTRACT_MAX_CHUNKS). */
  truncated: boolean;
  /** Model calls, repair turns included. */
  attempts: number;
  /** Chunks the page was extracted in (1 for a page within the budget). */
  chunks: number;
  /** Chunks whose answer stayed invalid and was left out of the merge. */
  failedChunks: number;
  /** What had to be repaired or coerced, e.g. `fence`, `repaired`, `number-from-string`. */
  fixes: string[];
  model: string;
}

export function compileRequestSchema(schema: unknown): CompiledSchema {
  return schema === undefined ? FREE_OBJECT_SCHEMA : compilePlainSchema(schema);
}

export function userMessage(
  prompt: string | undefined,
  freeForm: boolean,
  pageText: string,
  chunked = false,
): string {
  const task = freeForm
    ? `Instruction: ${prompt ?? ''}\nAnswer with one JSON object holding what the instruction asks for.`
    : prompt
      ? `Instruction: ${prompt}\nFill in the schema from the page.`
      : 'Fill in the schema from the page.';
  return `${task}${chunked ? `\n${CHUNK_NOTE}` : ''}\n\n<page>\n${pageText}\n</page>`;
}

interface Tally {
  inputTokens: number;
  outputTokens: number;
  attempts: number;
  fixes: Set<string>;
}

type OneResult =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; errors: string[]; empty: boolean };

/**
 * The chunks through `one`, at most `concurrency` at once, results in page order. A cancel (the
 * job's signal) starts no further chunk and aborts the calls in flight; so does a chunk whose call
 * fails (a model error, a timeout): its error is the result, the siblings are stopped.
 */
async function extractChunks(
  chunks: string[],
  concurrency: number,
  outer: AbortSignal | undefined,
  one: (text: string, signal: AbortSignal) => Promise<OneResult>,
): Promise<OneResult[]> {
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const results: OneResult[] = [];
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && !signal.aborted && next < chunks.length) {
      const i = next++;
      try {
        results[i] = await one(chunks[i] as string, signal);
      } catch (err) {
        failure ??= { err };
        stop.abort(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, chunks.length)) }, worker));
  // A cancel is the reason, not the aborted calls' errors it caused.
  outer?.throwIfAborted();
  if (failure) throw failure.err;
  return results;
}

/** The answer's value: structured data as is, text parsed and repaired. */
function answerValue(
  answer: LlmAnswer,
  fixes: Set<string>,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (answer.data !== undefined) return { ok: true, value: answer.data };
  const parsed = parseModelText(answer.text ?? '');
  if (!parsed.ok) return { ok: false, error: `(root): ${parsed.reason}` };
  for (const f of parsed.fixes) fixes.add(f);
  return { ok: true, value: parsed.value };
}

/**
 * One piece of text through the model: a call, and one repair turn when the answer is invalid or
 * (unless `allowEmpty`) empty.
 */
async function extractOne(
  provider: LlmProvider,
  schema: CompiledSchema,
  base: LlmRequest,
  allowEmpty: boolean,
  t: Tally,
): Promise<OneResult> {
  let repair: RepairTurn | undefined;
  let last: OneResult = { ok: false, errors: ['(root): no answer'], empty: false };
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await provider.complete(repair ? { ...base, repair } : base);
    t.attempts++;
    t.inputTokens += answer.inputTokens;
    t.outputTokens += answer.outputTokens;
    const value = answerValue(answer, t.fixes);
    const v = value.ok
      ? validateAnswer(schema, value.value)
      : { ok: false as const, errors: [value.error], coercions: [] };
    for (const c of v.coercions) t.fixes.add(c);
    if (v.ok && (allowEmpty || !isEmptyAnswer(v.data))) return { ok: true, data: v.data };
    last = v.ok
      ? { ok: false, errors: ['(root): every field is null or empty'], empty: true }
      : { ok: false, errors: v.errors, empty: false };
    const errors = v.ok
      ? [
          '(root): every field is null or empty. Read the page again: fill in every value it contains; keep null only for what it really lacks.',
        ]
      : v.errors;
    repair = {
      previous: value.ok ? value.value : null,
      ...(answer.text !== undefined ? { previousText: answer.text.slice(0, 8_000) } : {}),
      errors,
    };
  }
  return last;
}

export async function runExtraction(provider: LlmProvider, r: ExtractionRequest): Promise<ExtractionResult> {
  const schema = compileRequestSchema(r.schema);
  const freeForm = r.schema === undefined;
  const input = buildModelInput(r.page, r.inputTokenBudget);
  const maxChunks = r.maxChunks ?? 1;
  const t: Tally = { inputTokens: 0, outputTokens: 0, attempts: 0, fixes: new Set() };
  const request = (text: string, chunked: boolean): LlmRequest => ({
    system: SYSTEM_PROMPT,
    user: userMessage(r.prompt, freeForm, text, chunked),
    jsonSchema: schema.jsonSchema,
    freeForm,
    maxTokens: r.maxTokens,
    timeoutMs: r.timeoutMs,
    ...(r.signal ? { signal: r.signal } : {}),
  });
  const result = (
    data: Record<string, unknown>,
    extra: Pick<ExtractionResult, 'pageTokens' | 'truncated' | 'chunks' | 'failedChunks'>,
  ): ExtractionResult => ({
    data,
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    attempts: t.attempts,
    fixes: [...t.fixes],
    model: provider.model,
    ...extra,
  });
  const fail = (why: string, extra: Record<string, unknown> = {}) =>
    new ExtractionFailedError(why, {
      details: { inputTokens: t.inputTokens, outputTokens: t.outputTokens, attempts: t.attempts, ...extra },
    });

  if (!input.truncated || maxChunks <= 1) {
    const one = await extractOne(provider, schema, request(input.text, false), false, t);
    if (one.ok)
      return result(one.data, {
        pageTokens: input.tokens,
        truncated: input.truncated,
        chunks: 1,
        failedChunks: 0,
      });
    throw fail(
      one.empty
        ? 'The model found nothing: every field of its answer was null or empty, also after a retry'
        : `The model's answer did not match the schema after a retry: ${one.errors.slice(0, 5).join('; ')}`,
    );
  }

  const split = splitIntoChunks(
    r.page,
    r.inputTokenBudget,
    r.overlapTokens ?? 0,
    maxChunks,
    r.maxChunkTokens,
  );
  const concurrency = Math.min(r.concurrency ?? 1, provider.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const got = await extractChunks(split.chunks, concurrency, r.signal, (text, signal) =>
    extractOne(provider, schema, { ...request(text, true), signal }, true, t),
  );
  const answers = got.flatMap((one) => (one.ok ? [one.data] : []));
  const lastErrors = got.findLast((one) => !one.ok)?.errors ?? [];
  const failedChunks = split.chunks.length - answers.length;
  const merged = (
    answers.length > 0 ? mergeChunkAnswers(answers, freeForm ? undefined : schema.jsonSchema) : null
  ) as Record<string, unknown> | null;
  if (merged === null) {
    throw fail(`No chunk's answer matched the schema after a retry: ${lastErrors.slice(0, 5).join('; ')}`, {
      chunks: split.chunks.length,
    });
  }
  if (isEmptyAnswer(merged)) {
    throw fail(`The model found nothing in any of the ${split.chunks.length} chunks of the page`, {
      chunks: split.chunks.length,
    });
  }
  return result(merged, {
    pageTokens: split.tokens,
    truncated: split.needed > split.chunks.length,
    chunks: split.chunks.length,
    failedChunks,
  });
}
