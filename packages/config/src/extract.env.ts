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
const PROVIDERS = ['anthropic', 'openai', 'ollama', 'vllm', 'llamacpp', 'local'] as const;

/** Other names operators use for the same servers (compared lower-case, without `-`, `_`, `.`, spaces). */
const PROVIDER_ALIASES: Record<string, (typeof PROVIDERS)[number]> = {
  claude: 'anthropic',
  openaicompatible: 'openai',
  openaicompat: 'openai',
  oai: 'openai',
  lmstudio: 'openai',
  localai: 'openai',
  sglang: 'openai',
  llamaserver: 'llamacpp',
  gguf: 'local',
  nodellamacpp: 'local',
};

/** A provider name as written (`llama.cpp`, `LM-Studio`, `openai-compatible`) → ours. */
export function providerAlias(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim().toLowerCase();
  if (t === '') return undefined;
  const key = t.replace(/[-_.\s]/g, '');
  return (PROVIDERS as readonly string[]).includes(key) ? key : (PROVIDER_ALIASES[key] ?? t);
}

/**
 * Ollama's own OLLAMA_HOST (`0.0.0.0:11434`, `ollama`, `http://ollama:11434`): a URL, with http
 * and port 11434 when not given, and a bind-all address read as this machine.
 */
export function ollamaHostUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const withScheme = /^https?:\/\//i.test(v) ? v : `http://${v}`;
  try {
    const u = new URL(withScheme);
    if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
    if (u.hostname === '[::]') u.hostname = '[::1]';
    const portGiven = /^https?:\/\/[^/]*:\d+/i.test(withScheme);
    if (!portGiven && u.protocol === 'http:') u.port = '11434';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

export const extractEnv = z.object({
  /**
   * Which model API: `anthropic` (Messages API, tool use), `openai` (any OpenAI-compatible chat
   * completions), `ollama` (native /api/chat with the schema as `format`), `vllm` (guided JSON),
   * `llamacpp` (llama-server's `json_schema`), `local` (a GGUF file run in-process).
   */
  EXTRACT_PROVIDER: z
    .preprocess(providerAlias, z.enum(PROVIDERS).default('anthropic'))
    .describe(
      'extract model API: `anthropic` | `openai` | `ollama` | `vllm` | `llamacpp` | `local` (also `lmstudio`, `openai-compatible`, `llama.cpp`, `llama-cpp`; any case)',
    ),
  /** Same as EXTRACT_PROVIDER (the newer name); wins when both are set. */
  LLM_PROVIDER: z
    .preprocess(providerAlias, z.enum(PROVIDERS).optional())
    .describe('alias of EXTRACT_PROVIDER (wins when both are set)'),
  /** Model name; default `claude-haiku-4-5` for anthropic; required for the servers (e.g. `llama3.1:8b`). */
  EXTRACT_MODEL: optionalString.describe('model name (required for `openai`, `ollama`, `vllm`)'),
  /** Same as EXTRACT_MODEL (wins when both are set). */
  LLM_MODEL: optionalString.describe('alias of EXTRACT_MODEL (wins when both are set)'),
  /** Base URL of the model server for openai/vllm/llamacpp (with `/v1`) or ollama (its root). */
  LLM_BASE_URL: optionalUrl('LLM_BASE_URL', 'http://ollama:11434').describe(
    'model server: `http://ollama:11434` (ollama), `http://vllm:8000/v1`, `http://llama:8080/v1`; else OPENAI_BASE_URL',
  ),
  /** Ollama's own variable: the base URL for `ollama` when LLM_BASE_URL is unset. */
  OLLAMA_HOST: optionalString
    .transform(ollamaHostUrl)
    .describe('Ollama server (`host:port` or a URL) for `ollama` when LLM_BASE_URL is unset'),
  /** Bearer token of the model server (vLLM `--api-key`, llama-server `--api-key`); else OPENAI_API_KEY. */
  LLM_API_KEY: optionalString.describe('key of the model server (optional; else OPENAI_API_KEY)'),
  /** GGUF file of the embedded model (`LLM_PROVIDER=local`), supplied by the operator. */
  LLM_MODEL_PATH: optionalString.describe('GGUF model file for `local` (node-llama-cpp, CPU)'),
  /**
   * Context window of the embedded model (default 8,192, at most the model's trained context), and
   * the largest `num_ctx` asked of Ollama (default 32,768; each request asks what its chunks need).
   */
  LLM_CONTEXT_TOKENS: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      z.coerce.number().int().min(256).optional(),
    )
    .describe('context of `local` (default 8192); largest num_ctx asked of Ollama (default 32768)'),
  /** CPU threads of the embedded model (one beats two on a busy 2-core machine). */
  LLM_THREADS: int(1, 1).describe('CPU threads of the `local` model'),
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
  /**
   * A model server must accept the connection within this; a server that is down fails fast (and
   * is retried) instead of eating the call's budget. Slow first tokens (a model loading) are
   * bounded by LLM_FIRST_TOKEN_TIMEOUT_MS, the answer by EXTRACT_MODEL_TIMEOUT_MS.
   */
  EXTRACT_CONNECT_TIMEOUT_MS: int(5_000, 100).describe(
    'connecting to the model server (fails fast, then retried)',
  ),
  /**
   * The model server (answers are streamed) must send its first token within this, counted from
   * the call's start (connection, queueing in the server, prompt reading): a model that accepts
   * the connection and then says nothing fails with a retryable 504 instead of holding the whole
   * budget. 0 turns it off (only EXTRACT_MODEL_TIMEOUT_MS and the request's `timeout` apply).
   */
  LLM_FIRST_TOKEN_TIMEOUT_MS: int(30_000, 0).describe(
    "model server's first streamed token (0 = off; then only the call's budget)",
  ),
  /** Pages longer than the input budget are extracted in at most this many chunks, then merged. */
  EXTRACT_MAX_CHUNKS: int(32, 1).describe('model calls per long page (chunks of the input budget); 1 = cut'),
  /**
   * Largest chunk (tokens of page text) when a page needs more than EXTRACT_MAX_CHUNKS chunks of
   * EXTRACT_INPUT_TOKEN_BUDGET: chunks then grow, up to this, so the whole page fits the cap.
   * Unset: from the provider's context window (anthropic 100,000; openai, vllm, llamacpp 24,000,
   * i.e. a 32k-token context; ollama and local their context (LLM_CONTEXT_TOKENS, else 32,768 for
   * ollama and 8,192 for local) − EXTRACT_MAX_TOKENS − 1,000).
   */
  EXTRACT_MAX_CHUNK_TOKENS: int(0, 0).describe(
    'largest chunk when a page needs more than EXTRACT_MAX_CHUNKS (0 = from the provider)',
  ),
  /** Chunks of one page sent to the model at once. */
  EXTRACT_CHUNK_CONCURRENCY: int(4, 1).describe('chunks of one long page extracted at once'),
  /** Tokens repeated from the end of one chunk at the start of the next (values on a boundary). */
  EXTRACT_CHUNK_OVERLAP_TOKENS: int(200, 0).describe('tokens shared by neighbouring chunks'),
  /** Budget of one model call (the job's own deadline may cut it shorter). */
  EXTRACT_MODEL_TIMEOUT_MS: int(60_000, 500).describe('budget of one model call'),
  /**
   * Retries of a failed model call (connection errors, 5xx); a busy server (429/503) gets at least
   * 8, as its Retry-After asks, all within the call's budget.
   */
  EXTRACT_MODEL_MAX_RETRIES: int(1, 0).describe(
    'retries of a model call on connection errors and 5xx (429/503: at least 8, within the call budget)',
  ),
  /** Jobs run at once by one extract worker (mostly waiting on the model). */
  EXTRACT_WORKER_CONCURRENCY: int(8, 1).describe('extract jobs at once per extract-worker'),
});

export type ExtractEnv = z.infer<typeof extractEnv>;
