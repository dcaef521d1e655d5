/**
 * Any OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp server, LM Studio):
 * `POST {OPENAI_BASE_URL}/chat/completions` with `response_format: json_schema` (strict) so
 * servers with constrained decoding return schema-shaped JSON. The response is validated with
 * zod; content wrapped in a ```json fence (small local models do that) is unwrapped.
 */
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import { fetch } from 'undici';
import { z } from 'zod';
import type { LlmAnswer, LlmProvider, LlmRequest } from './llm-provider';

export interface OpenAiProviderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  maxRetries: number;
}

const completionResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
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
    .optional(),
});

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai' as const;
  readonly model: string;
  private readonly url: string;

  constructor(private readonly o: OpenAiProviderOptions) {
    this.model = o.model;
    this.url = `${o.baseURL.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(req: LlmRequest): Promise<LlmAnswer> {
    const messages: ChatMessage[] = [
      { role: 'system', content: req.system },
      { role: 'user', content: req.user },
    ];
    if (req.repair) {
      messages.push(
        { role: 'assistant', content: JSON.stringify(req.repair.previous ?? null) },
        {
          role: 'user',
          content: `That JSON does not match the schema:\n${req.repair.errors.join('\n')}\nAnswer again with corrected JSON only.`,
        },
      );
    }
    const body = {
      model: this.model,
      messages,
      max_tokens: req.maxTokens,
      temperature: 0,
      stream: false,
      response_format: req.freeForm
        ? { type: 'json_object' }
        : { type: 'json_schema', json_schema: { name: 'extraction', schema: req.jsonSchema, strict: true } },
    };
    const raw = await this.post(body, req);
    const parsed = completionResponse.safeParse(raw);
    if (!parsed.success) {
      throw new ExtractionFailedError(
        'The OpenAI-compatible endpoint answered an unexpected shape; check OPENAI_BASE_URL',
      );
    }
    const choice = parsed.data.choices[0];
    const usage = {
      inputTokens: parsed.data.usage?.prompt_tokens ?? 0,
      outputTokens: parsed.data.usage?.completion_tokens ?? 0,
    };
    return { data: parseJsonContent(choice?.message.content ?? ''), ...usage };
  }

  /** One POST with the SDK-like retry policy: connection errors, 429 and 5xx are retried. */
  private async post(body: unknown, req: LlmRequest): Promise<unknown> {
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    for (let attempt = 0; ; attempt++) {
      let status: number;
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
        });
        status = res.status;
        if (res.ok) {
          try {
            return await res.json();
          } catch {
            throw new ExtractionFailedError(
              'The OpenAI-compatible endpoint answered non-JSON; check OPENAI_BASE_URL',
            );
          }
        }
        await res.body?.cancel();
        if (status === 401 || status === 403) {
          throw new ExtractionFailedError(
            'The OpenAI-compatible endpoint rejected the key; check OPENAI_API_KEY',
          );
        }
        if (status === 404) {
          throw new ExtractionFailedError(
            'The OpenAI-compatible endpoint has no such model or path; check EXTRACT_MODEL and OPENAI_BASE_URL (it must end in /v1)',
          );
        }
        if (status !== 429 && status < 500) {
          throw new ExtractionFailedError(
            `The OpenAI-compatible endpoint refused the request (HTTP ${status})`,
          );
        }
      } catch (err) {
        if (err instanceof ExtractionFailedError) throw err;
        if (signal.aborted) throw new TimeoutError('Extraction timed out waiting for the model; retry');
        if (attempt >= this.o.maxRetries) {
          throw new ExtractionFailedError(
            'The OpenAI-compatible endpoint is unreachable; check OPENAI_BASE_URL',
            {
              retryable: true,
              cause: err,
            },
          );
        }
        await backoff(attempt, signal);
        continue;
      }
      if (attempt >= this.o.maxRetries) {
        throw new ExtractionFailedError(`The OpenAI-compatible endpoint failed (HTTP ${status}); retry`, {
          retryable: true,
        });
      }
      await backoff(attempt, signal);
    }
  }
}

function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = Math.min(4_000, 250 * 2 ** attempt);
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}

/** The message content as JSON; unparseable content is `undefined` (an invalid answer). */
export function parseJsonContent(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  try {
    return JSON.parse(fenced?.[1] ?? trimmed);
  } catch {
    return undefined;
  }
}
