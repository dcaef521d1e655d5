/**
 * OpenAI-compatible chat completions, `POST {base}/chat/completions`, in three flavours that differ
 * only in how the schema constrains the answer:
 * - `openai` (OpenAI, LM Studio, Ollama's /v1): `response_format: json_schema` (strict);
 * - `vllm`: the same `response_format` plus `structured_outputs: {json}` (vLLM ≥ 0.10; 0.12
 *   removed the older `guided_json`) and `guided_json` (older vLLM);
 * - `llamacpp` (llama.cpp's `llama-server`): `response_format: {type: "json_object", schema}` and
 *   its own top-level `json_schema` (older servers), both turned into a grammar.
 * The base URL is the API's root with `/v1`; a bare `http://host:port` gets `/v1` added.
 * A server that refuses a field it does not know (a 400 naming `stream_options`, `guided_json`,
 * `response_format`…) is asked again without it, and never sent it again.
 * Answers are streamed (SSE) so a server that never starts answering is cut off at the first-token
 * timeout; a server that ignores `stream` answers one JSON document, read the same way.
 * Prompt-only requests ask for any JSON object. The answer's text is parsed and repaired by the
 * extractor (answer-parser.ts), so prose and fences around the JSON are not fatal here.
 */
import { ExtractionFailedError } from '@wcs/errors';
import { z } from 'zod';
import type { LlmAnswer, LlmProvider, LlmRequest } from './llm-provider';
import { ModelHttp, trimBase } from './model-http';
import { streamedError } from './model-stream';
import { contentText, openAiStreamDecoder } from './stream-decoders';

export type OpenAiFlavor = 'openai' | 'vllm' | 'llamacpp';

export interface OpenAiProviderOptions {
  /** Base including `/v1`, e.g. http://vllm:8000/v1 (a base without a path gets `/v1`). */
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
            // Some servers send content as parts (`[{type: "text", text}]`): read as their text.
            content: z
              .preprocess((v) => (Array.isArray(v) ? contentText(v) : v), z.string().nullable().optional())
              .optional(),
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
  /** Fields the server refused (a 400 naming them): never sent again. */
  private readonly dropped = new Set<string>();

  constructor(o: OpenAiProviderOptions) {
    this.name = o.flavor ?? 'openai';
    this.model = o.model;
    this.url = chatCompletionsUrl(o.baseURL);
    const s = o.settings ?? { url: 'OPENAI_BASE_URL', model: 'EXTRACT_MODEL', key: 'OPENAI_API_KEY' };
    this.http = new ModelHttp({
      label: LABELS[this.name],
      urlSetting: `${s.url} (the API root, e.g. http://vllm:8000/v1)`,
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
      const s = req.freeForm ? { type: 'object' } : schema;
      return { ...base, response_format: { type: 'json_object', schema: s }, json_schema: s };
    }
    const responseFormat = req.freeForm
      ? { type: 'json_object' }
      : { type: 'json_schema', json_schema: { name: 'extraction', schema, strict: true } };
    if (this.name === 'vllm') {
      return {
        ...base,
        response_format: responseFormat,
        ...(req.freeForm ? {} : { structured_outputs: { json: schema }, guided_json: schema }),
      };
    }
    return { ...base, response_format: responseFormat };
  }

  /** The body without the fields this server refused. */
  sentBody(req: LlmRequest): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.body(req)).filter(([k]) => !this.dropped.has(k)));
  }

  async complete(req: LlmRequest): Promise<LlmAnswer> {
    let raw: unknown;
    for (;;) {
      const body = this.sentBody(req);
      try {
        raw = await this.http.post(this.url, body, req, () => openAiStreamDecoder(LABELS[this.name]));
        break;
      } catch (err) {
        // Older or partial servers reject fields they do not know with a 400 naming them: ask
        // again without those (the prompt and the lenient parser still get JSON out of most
        // models). Each round drops at least one field, so this ends.
        const refused = refusedFields(err, body);
        if (refused.length === 0) throw err;
        for (const f of refused) this.dropped.add(f);
      }
    }
    const failure = errorOf(raw);
    if (failure !== undefined) throw streamedError(LABELS[this.name], failure);
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

/** The message of an error object a server answered with status 200 (a proxy, a failing worker). */
function errorOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('error' in raw)) return undefined;
  const e = (raw as { error: unknown }).error;
  if (e === null || e === undefined) return undefined;
  if (typeof e === 'string') return e;
  const m = (e as { message?: unknown }).message;
  return typeof m === 'string' ? m : JSON.stringify(e);
}

/** Fields that carry the schema (a 400 about grammars or structured output refuses them). */
const SCHEMA_FIELDS = ['response_format', 'json_schema', 'guided_json', 'structured_outputs'];

/**
 * The fields of `body` a 400 (or 422) says the server does not take: those its message names
 * (`response_format.json_schema` names `response_format` when no top-level `json_schema` was
 * sent); when it only speaks of grammars or guided/structured decoding, the server-specific schema
 * fields, or `response_format` when it is the only one left.
 */
export function refusedFields(err: unknown, body: Record<string, unknown>): string[] {
  if (!(err instanceof ExtractionFailedError)) return [];
  const status = err.details?.httpStatus;
  if (status !== 400 && status !== 422) return [];
  const message = String(err.details?.serverMessage ?? '');
  const sent = (f: string) => f in body && f !== 'model' && f !== 'messages';
  const named = Object.keys(body).filter((f) => sent(f) && new RegExp(`\\b${f}\\b`).test(message));
  if (named.length === 0 && /json_schema/.test(message) && sent('response_format'))
    named.push('response_format');
  if (named.length === 0 && /grammar|guided|structured|schema/i.test(message)) {
    // The server's own extras go first: `response_format` alone still constrains most servers.
    const extras = SCHEMA_FIELDS.filter((f) => f !== 'response_format' && sent(f));
    named.push(...(extras.length > 0 && sent('response_format') ? extras : SCHEMA_FIELDS.filter(sent)));
  }
  return named;
}

/**
 * `…/chat/completions` under the base: a base without a path (`http://host:8000`) is the server's
 * root and gets `/v1`; one with a path (`/v1`, `/openai/v1`) is kept; a base that already names
 * `/chat/completions` is used as is.
 */
export function chatCompletionsUrl(baseURL: string): string {
  const base = trimBase(baseURL);
  if (/\/chat\/completions$/.test(base)) return base;
  let path = '';
  try {
    path = new URL(base).pathname;
  } catch {
    path = '/';
  }
  return path === '' || path === '/' ? `${base}/v1/chat/completions` : `${base}/chat/completions`;
}
