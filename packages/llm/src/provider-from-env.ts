import { existsSync } from 'node:fs';
import type { ExtractEnv } from '@wcs/config';
import { ModelNotConfiguredError } from '@wcs/errors';
import { AnthropicProvider } from './anthropic.provider';
import type { LlmProvider, ProviderName } from './llm-provider';

import { LocalLlamaProvider } from './local-llama.provider';
import { DEFAULT_OLLAMA_CONTEXT, OllamaProvider } from './ollama.provider';
import { OpenAiProvider } from './openai.provider';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-4-5';

export type ProviderChoice =
  | { ok: true; provider: LlmProvider }
  | { ok: false; error: ModelNotConfiguredError };

const EXAMPLE_BASE: Record<string, string> = {
  openai: 'http://lmstudio:1234/v1',
  ollama: 'http://ollama:11434',
  vllm: 'http://vllm:8000/v1',
  llamacpp: 'http://llama:8080/v1',
};

/** Page tokens of one chunk a model with a context of this size can take (answer and prompt aside). */
const PROMPT_RESERVE_TOKENS = 1_000;
const CONTEXT_OF: Partial<Record<ProviderName, number>> = {
  // Claude's 200k window; a chunk this large costs what 17 budget-sized ones do, in one call.
  anthropic: 100_000,
  // A 32k-token context (vLLM --max-model-len, llama-server -c, most served instruction models).
  openai: 24_000,
  vllm: 24_000,
  llamacpp: 24_000,
};

/** The embedded model's context when LLM_CONTEXT_TOKENS is not set. */
export const DEFAULT_LOCAL_CONTEXT = 8_192;

/**
 * The largest chunk a long page may be split into (EXTRACT_MAX_CHUNK_TOKENS, else from the
 * provider's context window; Ollama: the largest `num_ctx` it is asked for — LLM_CONTEXT_TOKENS,
 * else 32,768 — less the answer and the prompt, `num_ctx` being sized per request to fit; the
 * embedded model: its context less the same, and at run time no more than its loaded context
 * holds). Never below the input budget.
 */
export function maxChunkTokensOf(
  env: Pick<
    ExtractEnv,
    | 'LLM_PROVIDER'
    | 'EXTRACT_PROVIDER'
    | 'EXTRACT_MAX_CHUNK_TOKENS'
    | 'EXTRACT_INPUT_TOKEN_BUDGET'
    | 'EXTRACT_MAX_TOKENS'
    | 'LLM_CONTEXT_TOKENS'
  >,
): number {
  const name = providerNameOf(env);
  const context =
    env.LLM_CONTEXT_TOKENS ?? (name === 'ollama' ? DEFAULT_OLLAMA_CONTEXT : DEFAULT_LOCAL_CONTEXT);
  const fromContext = CONTEXT_OF[name] ?? context - env.EXTRACT_MAX_TOKENS - PROMPT_RESERVE_TOKENS;
  return Math.max(env.EXTRACT_INPUT_TOKEN_BUDGET, env.EXTRACT_MAX_CHUNK_TOKENS || fromContext);
}

/** The provider in effect: LLM_PROVIDER (the newer name) wins over EXTRACT_PROVIDER. */
export function providerNameOf(env: Pick<ExtractEnv, 'LLM_PROVIDER' | 'EXTRACT_PROVIDER'>): ProviderName {
  return env.LLM_PROVIDER ?? env.EXTRACT_PROVIDER;
}

const notConfigured = (message: string): ProviderChoice => ({
  ok: false,
  error: new ModelNotConfiguredError(`Extraction is not configured: ${message} on the extract-worker`),
});

/**
 * The configured provider, or the reason there is none. Never throws: a worker without a key must
 * start (so `pnpm start` and CI work); only extraction requests fail, with a message naming the
 * variable to set.
 */
export function providerFromEnv(env: Omit<ExtractEnv, 'EXTRACT_WORKER_CONCURRENCY'>): ProviderChoice {
  const maxRetries = env.EXTRACT_MODEL_MAX_RETRIES;
  const name = providerNameOf(env);
  const model = env.LLM_MODEL ?? env.EXTRACT_MODEL;
  const connectTimeoutMs = env.EXTRACT_CONNECT_TIMEOUT_MS;
  const firstTokenTimeoutMs = env.LLM_FIRST_TOKEN_TIMEOUT_MS;
  if (name === 'anthropic') {
    if (!env.ANTHROPIC_API_KEY) {
      return notConfigured(
        'set ANTHROPIC_API_KEY (or LLM_PROVIDER=openai|ollama|vllm|llamacpp with LLM_BASE_URL, or local with LLM_MODEL_PATH)',
      );
    }
    return {
      ok: true,
      provider: new AnthropicProvider({
        apiKey: env.ANTHROPIC_API_KEY,
        ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
        model: model ?? DEFAULT_ANTHROPIC_MODEL,
        maxRetries,
        firstTokenTimeoutMs,
      }),
    };
  }
  if (name === 'local') {
    if (!env.LLM_MODEL_PATH) return notConfigured('set LLM_MODEL_PATH (a GGUF file) for LLM_PROVIDER=local');
    if (!existsSync(env.LLM_MODEL_PATH)) {
      return notConfigured(`LLM_MODEL_PATH does not name a readable file (${env.LLM_MODEL_PATH})`);
    }
    return {
      ok: true,
      provider: new LocalLlamaProvider({
        modelPath: env.LLM_MODEL_PATH,
        contextTokens: env.LLM_CONTEXT_TOKENS ?? DEFAULT_LOCAL_CONTEXT,
        threads: env.LLM_THREADS,
      }),
    };
  }
  // Ollama's own OLLAMA_HOST stands in for LLM_BASE_URL (before the OpenAI-era OPENAI_BASE_URL).
  const ollamaHost = name === 'ollama' ? env.OLLAMA_HOST : undefined;
  const baseURL = env.LLM_BASE_URL ?? ollamaHost ?? env.OPENAI_BASE_URL;
  const urlVar = env.LLM_BASE_URL ? 'LLM_BASE_URL' : ollamaHost ? 'OLLAMA_HOST' : 'OPENAI_BASE_URL';
  if (!baseURL) {
    const or = name === 'ollama' ? ' or OLLAMA_HOST' : '';
    return notConfigured(`set LLM_BASE_URL (e.g. ${EXAMPLE_BASE[name]})${or} for LLM_PROVIDER=${name}`);
  }
  if (!model) return notConfigured(`set LLM_MODEL (e.g. llama3.1:8b) for LLM_PROVIDER=${name}`);
  const apiKey = env.LLM_API_KEY ?? env.OPENAI_API_KEY;
  const common = {
    baseURL,
    model,
    maxRetries,
    connectTimeoutMs,
    firstTokenTimeoutMs,
    ...(apiKey ? { apiKey } : {}),
  };
  if (name === 'ollama') {
    return {
      ok: true,
      provider: new OllamaProvider({
        ...common,
        contextTokens: env.LLM_CONTEXT_TOKENS ?? DEFAULT_OLLAMA_CONTEXT,
      }),
    };
  }
  return {
    ok: true,
    provider: new OpenAiProvider({
      ...common,
      flavor: name,
      settings: {
        url: urlVar,
        model: env.LLM_MODEL ? 'LLM_MODEL' : 'EXTRACT_MODEL',
        key: env.LLM_API_KEY ? 'LLM_API_KEY' : 'OPENAI_API_KEY',
      },
    }),
  };
}
