import type { ExtractEnv } from '@wcs/config';
import { ModelNotConfiguredError } from '@wcs/errors';
import { AnthropicProvider } from './anthropic.provider';
import type { LlmProvider } from './llm-provider';
import { OpenAiProvider } from './openai.provider';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-4-5';

export type ProviderChoice =
  | { ok: true; provider: LlmProvider }
  | { ok: false; error: ModelNotConfiguredError };

/**
 * The configured provider, or the reason there is none. Never throws: a worker without a key must
 * start (so `pnpm start` and CI work); only extraction requests fail, with a message naming the
 * variable to set.
 */
export function providerFromEnv(env: ExtractEnv): ProviderChoice {
  const maxRetries = env.EXTRACT_MODEL_MAX_RETRIES;
  if (env.EXTRACT_PROVIDER === 'anthropic') {
    if (!env.ANTHROPIC_API_KEY) {
      return {
        ok: false,
        error: new ModelNotConfiguredError(
          'Extraction is not configured: set ANTHROPIC_API_KEY (or EXTRACT_PROVIDER=openai with OPENAI_BASE_URL) on the extract-worker',
        ),
      };
    }
    return {
      ok: true,
      provider: new AnthropicProvider({
        apiKey: env.ANTHROPIC_API_KEY,
        ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
        model: env.EXTRACT_MODEL ?? DEFAULT_ANTHROPIC_MODEL,
        maxRetries,
      }),
    };
  }
  if (!env.OPENAI_BASE_URL) {
    return {
      ok: false,
      error: new ModelNotConfiguredError(
        'Extraction is not configured: set OPENAI_BASE_URL (e.g. http://ollama:11434/v1) on the extract-worker, or use EXTRACT_PROVIDER=anthropic',
      ),
    };
  }
  if (!env.EXTRACT_MODEL) {
    return {
      ok: false,
      error: new ModelNotConfiguredError(
        'Extraction is not configured: set EXTRACT_MODEL (e.g. llama3.1:8b) for EXTRACT_PROVIDER=openai',
      ),
    };
  }
  return {
    ok: true,
    provider: new OpenAiProvider({
      baseURL: env.OPENAI_BASE_URL,
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      model: env.EXTRACT_MODEL,
      maxRetries,
    }),
  };
}
