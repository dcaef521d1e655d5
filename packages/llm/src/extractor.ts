/**
 * One extraction: schema compiled (cached), page cut to the token budget, one model call, ajv
 * validation, and exactly one repair turn carrying the validation errors; a second invalid answer
 * is a 500 (EXTRACTION_FAILED). Token counts of every call are summed for the log line.
 */
import { ExtractionFailedError } from '@wcs/errors';
import { validateAnswer } from './answer-validator';
import type { LlmProvider } from './llm-provider';
import { type CompiledSchema, compilePlainSchema, FREE_OBJECT_SCHEMA } from './schema-compiler';
import { buildModelInput, type PageForModel } from './token-budget';

export const SYSTEM_PROMPT = [
  'You extract structured data from one web page.',
  'Use only information that is on the page. Never guess or invent values.',
  'When the page does not contain a value for a field, set that field to null.',
  'Numbers are plain JSON numbers (no units, no thousands separators); booleans are true or false.',
].join(' ');

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
}

export interface ExtractionResult {
  data: Record<string, unknown>;
  inputTokens: number;
  outputTokens: number;
  /** Estimated tokens of the page text sent (after the budget cut). */
  pageTokens: number;
  truncated: boolean;
  attempts: number;
  model: string;
}

export function compileRequestSchema(schema: unknown): CompiledSchema {
  return schema === undefined ? FREE_OBJECT_SCHEMA : compilePlainSchema(schema);
}

export function userMessage(prompt: string | undefined, freeForm: boolean, pageText: string): string {
  const task = freeForm
    ? `Instruction: ${prompt ?? ''}\nAnswer with one JSON object holding what the instruction asks for.`
    : prompt
      ? `Instruction: ${prompt}\nFill in the schema from the page.`
      : 'Fill in the schema from the page.';
  return `${task}\n\n<page>\n${pageText}\n</page>`;
}

export async function runExtraction(provider: LlmProvider, r: ExtractionRequest): Promise<ExtractionResult> {
  const schema = compileRequestSchema(r.schema);
  const freeForm = r.schema === undefined;
  const input = buildModelInput(r.page, r.inputTokenBudget);
  const base = {
    system: SYSTEM_PROMPT,
    user: userMessage(r.prompt, freeForm, input.text),
    jsonSchema: schema.jsonSchema,
    freeForm,
    maxTokens: r.maxTokens,
    timeoutMs: r.timeoutMs,
    ...(r.signal ? { signal: r.signal } : {}),
  };
  let inputTokens = 0;
  let outputTokens = 0;
  let repair: { previous: unknown; errors: string[] } | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await provider.complete(repair ? { ...base, repair } : base);
    inputTokens += answer.inputTokens;
    outputTokens += answer.outputTokens;
    const v =
      answer.data === undefined
        ? { ok: false as const, errors: ['(root): no JSON answer was given'] }
        : validateAnswer(schema, answer.data);
    if (v.ok) {
      return {
        data: v.data,
        inputTokens,
        outputTokens,
        pageTokens: input.tokens,
        truncated: input.truncated,
        attempts: attempt,
        model: provider.model,
      };
    }
    repair = { previous: answer.data ?? null, errors: v.errors };
  }
  throw new ExtractionFailedError(
    `The model's answer did not match the schema after a retry: ${(repair?.errors ?? []).slice(0, 5).join('; ')}`,
    { details: { inputTokens, outputTokens } },
  );
}
