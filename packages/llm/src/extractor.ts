/**
 * One extraction: schema compiled (cached), the page cut to the token budget — or, when it is
 * longer, split into chunks (at most `maxChunks`) extracted a few at once and merged — and for each
 * model call: parse and repair the text (answer-parser.ts), safe coercions and ajv validation
 * (answer-validator.ts), and exactly one repair turn carrying the errors. A second invalid answer,
 * or an answer with nothing in it (every field null or empty), is a 500 EXTRACTION_FAILED, never a
 * success. A long page's chunk whose call fails is retried once and then left out (chunk-runner.ts);
 * fields the chunks still disagree on get one settling call (scalar-arbiter.ts). Token counts of
 * every call (estimated where the provider gives none) are summed for the answer's `usage`, with
 * a `warning` when the page was cut or chunks failed (extraction-warning.ts).
 */
import { ExtractionFailedError } from '@wcs/errors';
import { isEmptyAnswer } from './answer-coercer';
import { parseModelText } from './answer-parser';
import { validateAnswer } from './answer-validator';
import { type Dispute, mergeChunkAnswers } from './chunk-merger';
import { runChunks } from './chunk-runner';
import { extractionWarning } from './extraction-warning';
import type { LlmAnswer, LlmProvider, LlmRequest, RepairTurn } from './llm-provider';
import { applyPicks, arbiterRequest, picksOf } from './scalar-arbiter';
import { type CompiledSchema, compilePlainSchema, FREE_OBJECT_SCHEMA } from './schema-compiler';
import { buildModelInput, estimateTokens, type PageForModel, splitIntoChunks } from './token-budget';

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
  /** Tokens of every call; estimated (characters / 4) for calls whose provider reported none. */
  inputTokens: number;
  outputTokens: number;
  /** Whether some of the token counts are our estimates, not the provider's. */
  estimatedTokens: boolean;
  /** Estimated tokens of the page text sent (after the budget cut; every chunk together). */
  pageTokens: number;
  /** Whether part of the page was never sent (cut to the budget, or past EXTRACT_MAX_CHUNKS). */
  truncated: boolean;
  /** Model calls, repair turns and retried calls included. */
  attempts: number;
  /** Chunks the page was extracted in (1 for a page within the budget). */
  chunks: number;
  /** Chunks whose call failed twice or whose answer stayed invalid: left out of the merge. */
  failedChunks: number;
  /** Fields the chunks disagreed on that the settling call (one, counted in `attempts`) decided. */
  settledFields: number;
  /** What the caller should know: the page was cut, or chunks failed (absent when neither). */
  warning?: string;
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
  estimated: boolean;
  attempts: number;
  fixes: Set<string>;
}

type OneResult =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; errors: string[]; empty: boolean };

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
    // Counted before the answer: a call that failed was still made (and may be billed).
    t.attempts++;
    const answer = await provider.complete(repair ? { ...base, repair } : base);
    countTokens(t, repair ? { ...base, repair } : base, answer);
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

/** The provider's counts, or ours (characters / 4) when it reported none. */
function countTokens(t: Tally, req: LlmRequest, answer: LlmAnswer): void {
  if (answer.inputTokens > 0 || answer.outputTokens > 0) {
    t.inputTokens += answer.inputTokens;
    t.outputTokens += answer.outputTokens;
    return;
  }
  t.estimated = true;
  const repairText = req.repair
    ? (req.repair.previousText ?? JSON.stringify(req.repair.previous ?? null))
    : '';
  t.inputTokens += estimateTokens(`${req.system}${req.user}${repairText}`);
  t.outputTokens += estimateTokens(
    answer.text ?? (answer.data === undefined ? '' : JSON.stringify(answer.data)),
  );
}

/**
 * Context (tokens) the calls of one page need: its largest prompt, the answer and a reserve for
 * the repair turn and the estimate's error. Every chunk asks the same, so a server that reloads a
 * model when the context changes (Ollama) does it once per size, not per chunk.
 */
export function contextNeed(system: string, users: string[], maxTokens: number): number {
  const longest = users.reduce((n, u) => Math.max(n, u.length), 0);
  return estimateTokens(system) + Math.ceil(longest / 4) + maxTokens + CONTEXT_RESERVE_TOKENS;
}

/** Prompt wrapping, repair turn and the characters / 4 estimate's error, in tokens. */
export const CONTEXT_RESERVE_TOKENS = 1_000;

/**
 * Page tokens (our characters / 4 estimate) one call can carry on a provider that knows its
 * context (the embedded model, once loaded): the context less the answer (a quarter of it at
 * most) and the prompt around the page, divided by how many of the model's tokens one estimated
 * token of this page is (a small or byte-level vocabulary, code, non-Latin text: several) when
 * the provider can count them. Undefined when the provider does not say.
 */
async function pageTokenLimit(
  provider: LlmProvider,
  maxTokens: number,
  wrapping: string,
  page: string,
): Promise<number | undefined> {
  const context = await provider.contextTokens?.();
  if (!context) return undefined;
  const answer = Math.min(maxTokens, Math.floor(context / 4));
  if (!provider.countTokens) {
    return Math.max(100, context - answer - Math.min(CONTEXT_RESERVE_TOKENS, Math.floor(context / 8)));
  }
  const sample = page.slice(0, 16_000);
  const ratio = sample ? Math.max(1, (await provider.countTokens(sample)) / estimateTokens(sample)) : 1;
  // The chat template's own tokens and the tokenizer's drift between the sample and the rest.
  const room = (context - answer - (await provider.countTokens(wrapping)) - 64) * 0.95;
  return Math.max(100, Math.floor(room / ratio));
}

export async function runExtraction(provider: LlmProvider, r: ExtractionRequest): Promise<ExtractionResult> {
  const schema = compileRequestSchema(r.schema);
  const freeForm = r.schema === undefined;
  const limit = await pageTokenLimit(
    provider,
    r.maxTokens,
    `${SYSTEM_PROMPT}\n${userMessage(r.prompt, freeForm, '', true)}`,
    r.page.markdown,
  );
  const budget = limit === undefined ? r.inputTokenBudget : Math.min(r.inputTokenBudget, limit);
  const maxChunkTokens = limit === undefined ? r.maxChunkTokens : Math.min(r.maxChunkTokens ?? budget, limit);
  const input = buildModelInput(r.page, budget);
  const maxChunks = r.maxChunks ?? 1;
  const t: Tally = { inputTokens: 0, outputTokens: 0, estimated: false, attempts: 0, fixes: new Set() };
  const request = (text: string, chunked: boolean, contextTokens: number): LlmRequest => ({
    system: SYSTEM_PROMPT,
    user: userMessage(r.prompt, freeForm, text, chunked),
    jsonSchema: schema.jsonSchema,
    freeForm,
    maxTokens: r.maxTokens,
    timeoutMs: r.timeoutMs,
    contextTokens,
    ...(r.signal ? { signal: r.signal } : {}),
  });
  const result = (
    data: Record<string, unknown>,
    extra: Pick<ExtractionResult, 'pageTokens' | 'truncated' | 'chunks' | 'failedChunks'> & {
      needed: number;
      settledFields?: number;
    },
  ): ExtractionResult => {
    const { needed, ...rest } = extra;
    const warning = extractionWarning({ ...rest, needed, budgetTokens: budget });
    return {
      data,
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      estimatedTokens: t.estimated,
      attempts: t.attempts,
      fixes: [...t.fixes],
      model: provider.model,
      settledFields: 0,
      ...rest,
      ...(warning ? { warning } : {}),
    };
  };
  const fail = (why: string, extra: Record<string, unknown> = {}) =>
    new ExtractionFailedError(why, {
      details: { inputTokens: t.inputTokens, outputTokens: t.outputTokens, attempts: t.attempts, ...extra },
    });

  if (!input.truncated || maxChunks <= 1) {
    const user = userMessage(r.prompt, freeForm, input.text, false);
    const context = contextNeed(SYSTEM_PROMPT, [user], r.maxTokens);
    const one = await extractOne(provider, schema, request(input.text, false, context), false, t);
    if (one.ok)
      return result(one.data, {
        pageTokens: input.tokens,
        truncated: input.truncated,
        chunks: 1,
        failedChunks: 0,
        needed: 1,
      });
    throw fail(
      one.empty
        ? 'The model found nothing: every field of its answer was null or empty, also after a retry'
        : `The model's answer did not match the schema after a retry: ${one.errors.slice(0, 5).join('; ')}`,
    );
  }

  const split = splitIntoChunks(r.page, budget, r.overlapTokens ?? 0, maxChunks, maxChunkTokens);
  const context = contextNeed(
    SYSTEM_PROMPT,
    split.chunks.map((c) => userMessage(r.prompt, freeForm, c, true)),
    r.maxTokens,
  );
  const concurrency = Math.min(r.concurrency ?? 1, provider.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const got = await runChunks(split.chunks, concurrency, r.signal, (text, signal) =>
    extractOne(provider, schema, { ...request(text, true, context), signal }, true, t),
  );
  const answers: Record<string, unknown>[] = [];
  const texts: string[] = [];
  got.forEach((g, i) => {
    if (g.ok && g.value.ok) {
      answers.push(g.value.data);
      texts.push(split.chunks[i] as string);
    }
  });
  const failedChunks = split.chunks.length - answers.length;
  if (answers.length === 0) {
    // Every call failed (twice): the model's own error says most (a timeout stays a 504).
    const thrown = got.findLast((g) => !g.ok);
    const invalid = got.findLast((g) => g.ok && !g.value.ok);
    if (thrown && !invalid && !thrown.ok) throw thrown.error;
    const errors = invalid?.ok && !invalid.value.ok ? invalid.value.errors : [];
    throw fail(`No chunk's answer matched the schema after a retry: ${errors.slice(0, 5).join('; ')}`, {
      chunks: split.chunks.length,
    });
  }
  const disputes: Dispute[] = [];
  const merged = mergeChunkAnswers(
    answers,
    freeForm ? undefined : schema.jsonSchema,
    texts,
    disputes,
  ) as Record<string, unknown> | null;
  if (merged === null || isEmptyAnswer(merged)) {
    throw fail(`The model found nothing in any of the ${split.chunks.length} chunks of the page`, {
      chunks: split.chunks.length,
    });
  }
  const settledFields = disputes.length > 0 ? await settle(provider, disputes, merged, r, context, t) : 0;
  return result(merged, {
    pageTokens: split.tokens,
    truncated: split.needed > split.chunks.length,
    chunks: split.chunks.length,
    failedChunks,
    needed: split.needed,
    settledFields,
  });
}

/**
 * One more call for the fields the chunks disagree on (scalar-arbiter.ts), with the chunks'
 * context size (Ollama keeps the model loaded). A failed or unusable answer keeps the vote.
 */
async function settle(
  provider: LlmProvider,
  disputes: Dispute[],
  merged: Record<string, unknown>,
  r: ExtractionRequest,
  contextTokens: number,
  t: Tally,
): Promise<number> {
  const req: LlmRequest = {
    ...arbiterRequest(disputes, {
      system: SYSTEM_PROMPT,
      ...(r.prompt ? { prompt: r.prompt } : {}),
      maxTokens: r.maxTokens,
      timeoutMs: r.timeoutMs,
      ...(r.signal ? { signal: r.signal } : {}),
    }),
    contextTokens,
  };
  t.attempts++;
  try {
    const answer = await provider.complete(req);
    countTokens(t, req, answer);
    const picks = picksOf(answer, (text) => {
      const parsed = parseModelText(text);
      return parsed.ok ? parsed.value : undefined;
    });
    return applyPicks(merged, disputes, picks);
  } catch {
    // A cancel or the job's deadline ends the request; anything else keeps the vote.
    r.signal?.throwIfAborted();
    return 0;
  }
}
