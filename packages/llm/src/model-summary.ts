import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { ExtractEnv } from '@wcs/config';
import type { ProviderName } from './llm-provider';
import { DEFAULT_ANTHROPIC_MODEL, providerNameOf } from './provider-from-env';

/** What a deployment's extract model is, for GET /v1/capabilities: never a key or a URL. */
export interface ModelSummary {
  /** false when extraction answers 503 MODEL_NOT_CONFIGURED (the same settings providerFromEnv needs). */
  configured: boolean;
  provider: ProviderName;
  /** The model name requests use (the GGUF file's name for `local`); null when none is configured. */
  model: string | null;
}

type SummaryEnv = Pick<
  ExtractEnv,
  | 'EXTRACT_PROVIDER'
  | 'LLM_PROVIDER'
  | 'EXTRACT_MODEL'
  | 'LLM_MODEL'
  | 'LLM_MODEL_PATH'
  | 'LLM_BASE_URL'
  | 'OLLAMA_HOST'
  | 'ANTHROPIC_API_KEY'
  | 'OPENAI_BASE_URL'
>;

export function modelSummary(env: SummaryEnv): ModelSummary {
  const provider = providerNameOf(env);
  const model = env.LLM_MODEL ?? env.EXTRACT_MODEL;
  if (provider === 'anthropic') {
    const configured = Boolean(env.ANTHROPIC_API_KEY);
    return { configured, provider, model: configured ? (model ?? DEFAULT_ANTHROPIC_MODEL) : null };
  }
  if (provider === 'local') {
    // As providerFromEnv: a path naming no file is no model.
    const configured = Boolean(env.LLM_MODEL_PATH && existsSync(env.LLM_MODEL_PATH));
    return { configured, provider, model: env.LLM_MODEL_PATH ? basename(env.LLM_MODEL_PATH) : null };
  }
  const ollamaHost = provider === 'ollama' ? env.OLLAMA_HOST : undefined;
  const configured = Boolean((env.LLM_BASE_URL ?? ollamaHost ?? env.OPENAI_BASE_URL) && model);
  return { configured, provider, model: configured ? (model ?? null) : null };
}

/**
 * What to set for a model (the variables providerFromEnv's refusal names), or null when one is
 * configured. No key or URL in it: it goes into answers to callers.
 */
export function modelSetupHint(env: SummaryEnv): string | null {
  if (modelSummary(env).configured) return null;
  const provider = providerNameOf(env);
  if (provider === 'anthropic') {
    return 'set ANTHROPIC_API_KEY (or LLM_PROVIDER=openai|ollama|vllm|llamacpp with LLM_BASE_URL and LLM_MODEL, or LLM_PROVIDER=local with LLM_MODEL_PATH)';
  }
  if (provider === 'local') {
    return env.LLM_MODEL_PATH
      ? 'LLM_MODEL_PATH does not name a readable file: set it to the GGUF file, on the gateway and the workers'
      : 'set LLM_MODEL_PATH (a GGUF file) for LLM_PROVIDER=local';
  }
  return env.LLM_BASE_URL || env.OPENAI_BASE_URL
    ? `set LLM_MODEL (e.g. llama3.1:8b) for LLM_PROVIDER=${provider}`
    : `set LLM_BASE_URL and LLM_MODEL for LLM_PROVIDER=${provider}`;
}
