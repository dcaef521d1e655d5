/**
 * Ollama's native chat API, `POST {base}/api/chat` with `format: <JSON schema>` (Ollama ≥ 0.5
 * constrains decoding to the schema; prompt-only requests send `format: "json"`), `stream: true`
 * (NDJSON, one line per piece: the first-token timeout sees the first one),
 * temperature 0 and `num_predict` as the answer's limit. `num_ctx` is sized per request to what
 * its page's chunks need (prompt + answer + reserve), in steps of 4,096 from 8,192 up to the
 * largest context allowed (LLM_CONTEXT_TOKENS, else 32,768): Ollama's own default (2,048–4,096)
 * silently drops the start of a longer prompt, and one fixed size either cut long chunks or made
 * every short page pay a large context. Ollama reloads the model when `num_ctx` changes; the steps
 * keep the sizes few. Usage comes from `prompt_eval_count` /
 * `eval_count`. The base is the server's root (`http://ollama:11434`); a trailing `/v1` or `/api`
 * is dropped, so the OpenAI-style base works too.
 */
import { ExtractionFailedError } from '@wcs/errors';
import { z } from 'zod';
import type { LlmAnswer, LlmProvider, LlmRequest } from './llm-provider';
import { ModelHttp, trimBase } from './model-http';
import { chatMessages } from './openai.provider';
import { ollamaStreamDecoder } from './stream-decoders';

export interface OllamaProviderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  maxRetries: number;
  connectTimeoutMs?: number;
  /** LLM_FIRST_TOKEN_TIMEOUT_MS (0 = off). */
  firstTokenTimeoutMs?: number;
  /** Largest context asked of Ollama (`options.num_ctx`); DEFAULT_OLLAMA_CONTEXT when absent. */
  contextTokens?: number;
}

/** The largest `num_ctx` asked when LLM_CONTEXT_TOKENS is not set. */
export const DEFAULT_OLLAMA_CONTEXT = 32_768;
/** The smallest `num_ctx` asked (what was asked of every request before sizing). */
const MIN_OLLAMA_CONTEXT = 8_192;
const OLLAMA_CONTEXT_STEP = 4_096;

/** `num_ctx` for a request needing `need` tokens: a step up from it, within [8,192, cap]. */
export function ollamaContext(need: number | undefined, cap: number): number {
  const stepped = Math.ceil((need ?? 0) / OLLAMA_CONTEXT_STEP) * OLLAMA_CONTEXT_STEP;
  return Math.min(cap, Math.max(MIN_OLLAMA_CONTEXT, stepped));
}

const chatResponse = z.object({
  message: z.object({ content: z.string().nullable().optional() }).optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().int().nonnegative().optional(),
  eval_count: z.number().int().nonnegative().optional(),
  error: z.string().optional(),
});

export class OllamaProvider implements LlmProvider {
  readonly name = 'ollama' as const;
  readonly model: string;
  private readonly url: string;
  private readonly http: ModelHttp;
  /** The server refused a schema as `format` (a 400 naming it): plain JSON mode from then on. */
  private schemaRefused = false;

  constructor(private readonly o: OllamaProviderOptions) {
    this.model = o.model;
    this.url = `${trimBase(o.baseURL).replace(/\/(v1|api)$/, '')}/api/chat`;
    this.http = new ModelHttp({
      label: 'The Ollama server',
      urlSetting: 'LLM_BASE_URL (e.g. http://ollama:11434)',
      modelSetting: 'LLM_MODEL (pulled with `ollama pull`)',
      keySetting: 'LLM_API_KEY',
      ...(o.apiKey ? { apiKey: o.apiKey } : {}),
      maxRetries: o.maxRetries,
      connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
      firstTokenTimeoutMs: o.firstTokenTimeoutMs ?? 0,
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  body(req: LlmRequest): Record<string, unknown> {
    return {
      model: this.model,
      messages: chatMessages(req),
      stream: true,
      format: req.freeForm ? 'json' : req.jsonSchema,
      options: {
        temperature: 0,
        num_predict: req.maxTokens,
        num_ctx: ollamaContext(req.contextTokens, this.o.contextTokens ?? DEFAULT_OLLAMA_CONTEXT),
      },
    };
  }

  async complete(req: LlmRequest): Promise<LlmAnswer> {
    const decoder = () => ollamaStreamDecoder('The Ollama server');
    const body = this.body(req);
    let raw: unknown;
    try {
      raw = await this.http.post(
        this.url,
        this.schemaRefused ? { ...body, format: 'json' } : body,
        req,
        decoder,
      );
    } catch (err) {
      if (this.schemaRefused || body.format === 'json' || !refusedFormat(err)) throw err;
      // Ollama before 0.5 takes only `format: "json"`: the prompt and the parser carry the schema.
      this.schemaRefused = true;
      raw = await this.http.post(this.url, { ...body, format: 'json' }, req, decoder);
    }
    const parsed = chatResponse.safeParse(raw);
    if (!parsed.success || (parsed.data.error && !parsed.data.message)) {
      const why = parsed.success ? `: ${parsed.data.error}` : '';
      throw new ExtractionFailedError(
        `The Ollama server answered an unexpected shape${why}; check LLM_BASE_URL`,
      );
    }
    return {
      text: parsed.data.message?.content ?? '',
      inputTokens: parsed.data.prompt_eval_count ?? 0,
      outputTokens: parsed.data.eval_count ?? 0,
    };
  }
}

/** A 400 about `format` (an Ollama that takes no schema there). */
function refusedFormat(err: unknown): boolean {
  if (!(err instanceof ExtractionFailedError) || err.details?.httpStatus !== 400) return false;
  return /\bformat\b/i.test(String(err.details.serverMessage ?? ''));
}
