import { z } from 'zod';
import { envInt as int } from './schemas';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalUrl = (name: string, example: string) =>
  optionalString.refine((v) => v === undefined || /^https?:\/\/[^\s/]+/i.test(v), {
    message: `${name} must be an http(s) URL, e.g. ${example}`,
  });

/**
 * `POST /v1/extract` model settings (extract-worker). Nothing here is required at start: a worker
 * without a key starts and answers extraction requests with a 503 naming the variable to set.
 */
export const extractEnv = z.object({
  /** `anthropic` (Messages API, tool use) or `openai` (any OpenAI-compatible chat completions: Ollama, vLLM). */
  EXTRACT_PROVIDER: z
    .enum(['anthropic', 'openai'])
    .default('anthropic')
    .describe('extract model API: `anthropic` | `openai` (OpenAI-compatible: Ollama, vLLM)'),
  /** Model name; default `claude-haiku-4-5` for anthropic; required for openai (e.g. `llama3.1:8b`). */
  EXTRACT_MODEL: optionalString.describe('model name (required for `openai`)'),
  ANTHROPIC_API_KEY: optionalString.describe('Anthropic API key (extraction answers 503 without it)'),
  /** Anthropic API base (default https://api.anthropic.com); a proxy or a local fake in tests. */
  ANTHROPIC_BASE_URL: optionalUrl('ANTHROPIC_BASE_URL', 'https://api.anthropic.com').describe(
    'Anthropic API endpoint',
  ),
  /** OpenAI-compatible base including `/v1`, e.g. http://ollama:11434/v1. */
  OPENAI_BASE_URL: optionalUrl('OPENAI_BASE_URL', 'http://ollama:11434/v1').describe(
    'OpenAI-compatible base incl. `/v1` (required for `openai`)',
  ),
  /** Optional bearer token for the OpenAI-compatible endpoint (Ollama needs none). */
  OPENAI_API_KEY: optionalString.describe('key of the OpenAI-compatible endpoint (optional)'),
  /** Upper bound of the model's answer (output tokens). */
  EXTRACT_MAX_TOKENS: int(2_048, 64).describe('longest answer of the model (tokens)'),
  /** Tokens of page content sent to the model (estimated as characters / 4). */
  EXTRACT_INPUT_TOKEN_BUDGET: int(6_000, 200).describe('page tokens sent to the model (chars/4)'),
  /** Budget of one model call (the job's own deadline may cut it shorter). */
  EXTRACT_MODEL_TIMEOUT_MS: int(60_000, 500).describe('budget of one model call'),
  /** SDK-level retries of a failed model call (connection errors, 429, 5xx). */
  EXTRACT_MODEL_MAX_RETRIES: int(1, 0).describe('retries of a model call on connection errors, 429, 5xx'),
  /** Jobs run at once by one extract worker (mostly waiting on the model). */
  EXTRACT_WORKER_CONCURRENCY: int(8, 1).describe('extract jobs at once per extract-worker'),
});

export type ExtractEnv = z.infer<typeof extractEnv>;
