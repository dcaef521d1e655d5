/**
 * OpenAI-compatible chat completions, `POST {base}/chat/completions`, in three flavours that differ
 * only in how the schema constrains the answer:
 * - `openai` (OpenAI, LM Studio, Ollama's /v1): `response_format: json_schema` (strict);
 * - `vllm`: the same `response_format` plus `guided_json` (vLLM < 0.12 reads either; newer ones
 *   read `response_format` and ignore the old field);
 * - `llamacpp` (llama.cpp's `llama-server`): its own `json_schema` field, turned into a grammar.
 * Answers are streamed (SSE) so a server that never starts answering is cut off at the first-token
 * timeout; a server that ignores `stream` answers one JSON document, read the same way.
 * Prompt-only requests ask for any JSON object. The answer's text is parsed and repaired by the
 * extractor (answer-parser.ts), so prose and fences around the JSON are not fatal here.
 */
import { ExtractionFailedError } from '@wcs/errors';
import { z } from 'zod';
import type { LlmAnswer, LlmProvider, LlmRequest } from './llm-provider';
import { ModelHttp, trimBase } from './model-http';
import { openAiStreamDecoder } from './stream-decoders';

export type OpenAiFlavor = 'openai' | 'vllm' | 'llamacpp';

export interface OpenAiProviderOptions {
  /** Base including `/v1`, e.g. http://vllm:8000/v1. */
  baseURL: string;
  apiKey?: string;
  model: string;
  maxRetries: number;
  flavor?: OpenAiFlavor;
  connectTimeoutMs?: number;
  /** LLM_FIRST_TOKEN_TIMEOUT_MS (0 = off). */
  firstTokenTimeoutMs?: number;
  /** Setting names for error messages. */
  settings?: { url: string; model: string; key: string };
}

const completionResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z
          .object({
            content: z.string().nullable().optional(),
            // Reasoning servers (vLLM's reasoning parser, llama.cpp) put the thoughts here.
            reasoning_content: z.string().nullable().optional(),
            reasoning: z.string().nullable().optional(),
            tool_calls: z
              .array(
                z.object({ function: z.object({ arguments: z.string().optional() }).partial() }).partial(),
              )
              .nullable()
              .optional(),
          })
          .optional(),
        // Completions-style servers answer `text` instead of a message.
        text: z.string().nullable().optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
    })
    .partial()
    .nullable()
    .optional(),
});

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

const LABELS: Record<OpenAiFlavor, string> = {
  openai: 'The OpenAI-compatible endpoint',
  vllm: 'The vLLM server',
  llamacpp: 'The llama.cpp server',
};

export function chatMessages(req: LlmRequest): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: req.system },
    { role: 'user', content: req.user },
  ];
  if (req.repair) {
    messages.push(
      { role: 'assistant', content: req.repair.previousText ?? JSON.stringify(req.repair.previous ?? null) },
      {
        role: 'user',
        content: `That answer does not match the schema:\n${req.repair.errors.join('\n')}\nAnswer again with corrected JSON only: one JSON object, no prose, no code fences.`,
      },
    );
  }
  return messages;
}

export class OpenAiProvider implements LlmProvider {
  readonly name: OpenAiFlavor;
  readonly model: string;
  private readonly url: string;
  private readonly http: ModelHttp;
  /** The server refused our schema field once (400 naming it): ask without it from then on. */
  private unconstrained = false;

  constructor(o: OpenAiProviderOptions) {
    this.name = o.flavor ?? 'openai';
    this.model = o.model;
    this.url = `${trimBase(o.baseURL)}/chat/completions`;
    const s = o.settings ?? { url: 'OPENAI_BASE_URL', model: 'EXTRACT_MODEL', key: 'OPENAI_API_KEY' };
    this.http = new ModelHttp({
      label: LABELS[this.name],
      urlSetting: `${s.url} (it must end in /v1)`,
      modelSetting: s.model,
      keySetting: s.key,
      ...(o.apiKey ? { apiKey: o.apiKey } : {}),
      maxRetries: o.maxRetries,
      connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
      firstTokenTimeoutMs: o.firstTokenTimeoutMs ?? 0,
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The request body: the schema travels the way this server kind reads it. */
  body(req: LlmRequest): Record<string, unknown> {
    const base = {
      model: this.model,
      messages: chatMessages(req),
      max_tokens: req.maxTokens,
      temperature: 0,
      // Streamed, so the first token is seen when it comes (LLM_FIRST_TOKEN_TIMEOUT_MS); usage last.
      stream: true,
      stream_options: { include_usage: true },
    };
    const schema = req.jsonSchema;
    if (this.name === 'llamacpp') {
      return { ...base, json_schema: req.freeForm ? { type: 'object' } : schema };
    }
    const responseFormat = req.freeForm
      ? { type: 'json_object' }
      : { type: 'json_schema', json_schema: { name: 'extraction', schema, strict: true } };
    if (this.name === 'vllm') {
      return { ...base, response_format: responseFormat, ...(req.freeForm ? {} : { guided_json: schema }) };
    }
    return { ...base, response_format: responseFormat };
  }

  /** The body without any schema field, for servers that refuse them. */
  plainBody(req: LlmRequest): Record<string, unknown> {
    const { response_format: _r, json_schema: _j, guided_json: _g, ...rest } = this.body(req);
    return rest;
  }

  async complete(req: LlmRequest): Promise<LlmAnswer> {
    let raw: unknown;
    try {
      raw = await this.http.post(
        this.url,
        this.unconstrained ? this.plainBody(req) : this.body(req),
        req,
        openAiStreamDecoder(LABELS[this.name]),
      );
    } catch (err) {
      if (this.unconstrained || !refusedSchemaField(err)) throw err;
      // Older or partial servers reject `response_format` / `json_schema` / `guided_json` with a
      // 400: the prompt and the lenient parser still get JSON out of most models.
      this.unconstrained = true;
      raw = await this.http.post(this.url, this.plainBody(req), req, openAiStreamDecoder(LABELS[this.name]));
    }
    const parsed = completionResponse.safeParse(raw);
    if (!parsed.success) {
      throw new ExtractionFailedError(
        `${LABELS[this.name]} answered an unexpected shape; check its base URL`,
      );
    }
    const choice = parsed.data.choices[0];
    return {
      text: answerText(choice?.message, choice?.text),
      inputTokens: parsed.data.usage?.prompt_tokens ?? 0,
      outputTokens: parsed.data.usage?.completion_tokens ?? 0,
    };
  }
}

type Message = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: Array<{ function?: { arguments?: string } }> | null;
};

/**
 * Where the answer is: the content; else (servers whose tool or reasoning parser took it) a tool
 * call's arguments, or the reasoning text when it holds a JSON object; else a completions-style
 * `text`.
 */
export function answerText(message: Message | undefined, text?: string | null): string {
  if (message?.content?.trim()) return message.content;
  const args = message?.tool_calls?.find((c) => c.function?.arguments?.trim())?.function?.arguments;
  if (args) return args;
  const reasoning = message?.reasoning_content ?? message?.reasoning;
  if (reasoning && /[{[]/.test(reasoning)) return reasoning;
  return text ?? message?.content ?? '';
}

/** A 400 whose message names the field carrying the schema. */
function refusedSchemaField(err: unknown): boolean {
  if (!(err instanceof ExtractionFailedError) || err.details?.httpStatus !== 400) return false;
  return /response_format|json_schema|guided|grammar|structured/i.test(
    String(err.details.serverMessage ?? ''),
  );
}
