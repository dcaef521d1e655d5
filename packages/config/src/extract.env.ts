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
  EXTRACT_PROVIDER: z.enum(['anthropic', 'openai']).default('anthropic'),
  /** Model name; default `claude-haiku-4-5` for anthropic; required for openai (e.g. `llama3.1:8b`). */
  EXTRACT_MODEL: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  /** Anthropic API base (default https://api.anthropic.com); a proxy or a local fake in tests. */
  ANTHROPIC_BASE_URL: optionalUrl('ANTHROPIC_BASE_URL', 'https://api.anthropic.com'),
  /** OpenAI-compatible base including `/v1`, e.g. http://ollama:11434/v1. */
  OPENAI_BASE_URL: optionalUrl('OPENAI_BASE_URL', 'http://ollama:11434/v1'),
  /** Optional bearer token for the OpenAI-compatible endpoint (Ollama needs none). */
  OPENAI_API_KEY: optionalString,
  /** Upper bound of the model's answer (output tokens). */
  EXTRACT_MAX_TOKENS: int(2_048, 64),
  /** Tokens of page content sent to the model (estimated as characters / 4). */
  EXTRACT_INPUT_TOKEN_BUDGET: int(6_000, 200),
  /** Budget of one model call (the job's own deadline may cut it shorter). */
  EXTRACT_MODEL_TIMEOUT_MS: int(60_000, 500),
  /** SDK-level retries of a failed model call (connection errors, 429, 5xx). */
  EXTRACT_MODEL_MAX_RETRIES: int(1, 0),
  /** Jobs run at once by one extract worker (mostly waiting on the model). */
  EXTRACT_WORKER_CONCURRENCY: int(8, 1),
});

export type ExtractEnv = z.infer<typeof extractEnv>;
