/**
 * Anthropic Messages API through the official SDK. The compiled schema is the input_schema of one
 * tool and `tool_choice` forces that tool, so the answer arrives as a `tool_use` block whose
 * `input` is the structured data. The answer is streamed (SSE) and put back together
 * (stream-decoders.ts), so a model that sends no token within the first-token timeout fails then.
 * A repair turn is sent the way the API expects it: the previous
 * tool_use, then a `tool_result` with `is_error: true` carrying the validation errors.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import { type LlmAnswer, type LlmProvider, type LlmRequest, TOOL_NAME } from './llm-provider';
import { FirstTokenWatch, firstTokenTimeout, isStreamed, readStream } from './model-stream';
import { anthropicStreamDecoder } from './stream-decoders';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** SDK retries on connection errors, 408/409/429/5xx. */
  maxRetries: number;
  /** LLM_FIRST_TOKEN_TIMEOUT_MS: the first streamed event with content, from the call's start; 0 = off. */
  firstTokenTimeoutMs?: number;
}

type MessageParam = Anthropic.MessageParam;
type AnthropicSdk = typeof import('@anthropic-ai/sdk').default;

/**
 * The SDK (~1.5 MB of JavaScript, ~8 MB of heap) is loaded when a provider is made — in the extract
 * worker — not by every process importing @wcs/llm for its schema checks (the gateway).
 */
function anthropicSdk(): AnthropicSdk {
  return (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).default;
}

export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly firstTokenTimeoutMs: number;

  constructor(o: AnthropicProviderOptions) {
    this.model = o.model;
    this.firstTokenTimeoutMs = o.firstTokenTimeoutMs ?? 0;
    const Sdk = anthropicSdk();
    this.client = new Sdk({
      apiKey: o.apiKey,
      // Explicit, so the SDK never falls back to reading process.env (config is ours to parse).
      baseURL: o.baseURL ?? 'https://api.anthropic.com',
      authToken: null,
      maxRetries: o.maxRetries,
    });
  }

  async complete(req: LlmRequest): Promise<LlmAnswer> {
    const messages: MessageParam[] = [{ role: 'user', content: req.user }];
    if (req.repair) {
      const id = 'toolu_repair_0';
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: TOOL_NAME, input: asObject(req.repair.previous) }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: id,
              is_error: true,
              content: `The input does not match the schema:\n${req.repair.errors.join('\n')}\nCall ${TOOL_NAME} again with a corrected input.`,
            },
          ],
        },
      );
    }
    const watch = new FirstTokenWatch(this.firstTokenTimeoutMs);
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = AbortSignal.any([deadline, watch.signal, ...(req.signal ? [req.signal] : [])]);
    let message: StreamedMessage;
    try {
      // Streamed: the SDK sends the request (retries, key, base URL), we read the events, so the
      // first token is seen when it comes. A proxy that ignores `stream` answers one JSON message.
      const res = await this.client.messages
        .create(
          {
            model: this.model,
            max_tokens: req.maxTokens,
            system: req.system,
            messages,
            tools: [
              {
                name: TOOL_NAME,
                description: 'Record the data extracted from the web page.',
                input_schema: req.jsonSchema as Anthropic.Tool.InputSchema,
              },
            ],
            tool_choice: { type: 'tool', name: TOOL_NAME },
            stream: true,
          },
          { timeout: req.timeoutMs, signal },
        )
        .asResponse();
      // Read by what the body is (a proxy may mislabel the stream or answer in one piece).
      const type = res.headers.get('content-type');
      if (!isStreamed(type)) watch.seen();
      const raw: unknown = res.body
        ? await readStream(res.body, anthropicStreamDecoder(LABEL), watch, type)
        : await res.json();
      message = raw as StreamedMessage;
      if (!Array.isArray(message?.content)) {
        throw new ExtractionFailedError(`${LABEL} answered an unexpected shape; check ANTHROPIC_BASE_URL`);
      }
    } catch (err) {
      if (watch.fired) throw firstTokenTimeout(LABEL, watch.timeoutMs);
      if (signal.aborted) throw new TimeoutError('Extraction timed out waiting for the model; retry');
      if (err instanceof ExtractionFailedError) throw err;
      throw mapAnthropicError(err, req);
    } finally {
      watch.dispose();
    }
    const block = message.content.find((b) => b.type === 'tool_use' && b.name === TOOL_NAME);
    const usage = {
      inputTokens: message.usage?.input_tokens ?? 0,
      outputTokens: message.usage?.output_tokens ?? 0,
    };
    if (block?.type !== 'tool_use') {
      // Cut off by max_tokens or answered in prose: the text goes to the parser (it may hold the
      // JSON); otherwise an invalid answer the repair turn may fix.
      const text = message.content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
      return { text, ...usage };
    }
    return { data: block.input, ...usage };
  }
}

/** The message as streamed events rebuild it, or as a proxy that ignored `stream` sent it. */
interface StreamedMessage {
  content: Array<{ type: string; name?: string; input?: unknown; text?: string }>;
  usage?: { input_tokens?: number; output_tokens?: number };
}

const LABEL = 'The model provider';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function mapAnthropicError(err: unknown, req: LlmRequest): Error {
  const Anthropic = anthropicSdk();
  if (
    err instanceof Anthropic.APIConnectionTimeoutError ||
    (err instanceof Anthropic.APIUserAbortError && req.signal?.aborted)
  ) {
    return new TimeoutError('Extraction timed out waiting for the model; retry');
  }
  if (err instanceof Anthropic.AuthenticationError || err instanceof Anthropic.PermissionDeniedError) {
    return new ExtractionFailedError('The model provider rejected the API key; check ANTHROPIC_API_KEY');
  }
  if (err instanceof Anthropic.NotFoundError) {
    return new ExtractionFailedError('The model provider does not know the model; check EXTRACT_MODEL');
  }
  if (err instanceof Anthropic.APIError) {
    const status = err.status ?? 'no status';
    return new ExtractionFailedError(`The model provider failed (${status}); retry`, {
      retryable: true,
      cause: err,
    });
  }
  return new ExtractionFailedError('The model call failed', { cause: err });
}
