/**
 * The streamed answer of each server kind, put back together in the shape of its non-streamed
 * response (so each provider keeps one parser):
 * - OpenAI-compatible SSE (`chat.completion.chunk`): `delta.content`, `reasoning_content` /
 *   `reasoning`, `tool_calls[].function.arguments`, completions-style `text`, `usage` last;
 * - Ollama NDJSON: `message.content` per line, counts on the `done` line;
 * - Anthropic SSE: `message_start`, `content_block_start` / `_delta` (text, `input_json_delta`),
 *   `message_delta` (output tokens).
 * An error event in the stream fails the call (retryable).
 */
import { type StreamDecoder, streamedError } from './model-stream';

function parse(data: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(data) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Message content as text: a string, or the `text` of each part when a server sends parts. */
export function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((p) => (typeof p === 'string' ? p : str(obj(p).text))).join('');
}

function errorMessage(e: unknown): string {
  return typeof e === 'string' ? e : str(obj(e).message) || JSON.stringify(e);
}

/** OpenAI-compatible `stream: true` (vLLM, llama.cpp's server, LM Studio, OpenAI). */
export function openAiStreamDecoder(label: string): StreamDecoder {
  let content = '';
  let reasoning = '';
  let text = '';
  const toolArgs: string[] = [];
  let finish: string | null = null;
  let usage: unknown = null;
  return {
    format: 'sse',
    push(data) {
      const chunk = parse(data);
      if (!chunk) return false;
      if (chunk.error !== undefined || chunk.object === 'error') {
        throw streamedError(label, errorMessage(chunk.error ?? chunk.message));
      }
      if (chunk.usage) usage = chunk.usage;
      const choice = obj(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
      // A proxy that wraps the whole non-streamed answer in one event: its message is the delta.
      const delta = obj(choice.delta ?? choice.message);
      const before = content.length + reasoning.length + text.length + toolArgs.join('').length;
      content += contentText(delta.content);
      reasoning += str(delta.reasoning_content) || str(delta.reasoning);
      text += str(choice.text);
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) {
          const c = obj(call);
          const i = typeof c.index === 'number' ? c.index : 0;
          toolArgs[i] = (toolArgs[i] ?? '') + str(obj(c.function).arguments);
        }
      }
      if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
      return content.length + reasoning.length + text.length + toolArgs.join('').length > before;
    },
    complete: () => finish !== null,
    finish() {
      const message = {
        content,
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(toolArgs.length
          ? { tool_calls: toolArgs.map((a) => ({ function: { arguments: a ?? '' } })) }
          : {}),
      };
      return { choices: [{ message, ...(text ? { text } : {}), finish_reason: finish }], usage };
    },
  };
}

/** Ollama's native `/api/chat` with `stream: true`: one JSON object per line. */
export function ollamaStreamDecoder(label: string): StreamDecoder {
  let content = '';
  let last: Record<string, unknown> = {};
  return {
    format: 'ndjson',
    push(data) {
      const line = parse(data);
      if (!line) return false;
      if (line.error !== undefined) throw streamedError(label, errorMessage(line.error));
      last = line;
      const message = obj(line.message);
      const piece = str(message.content);
      content += piece;
      return piece.length > 0 || str(message.thinking).length > 0 || line.done === true;
    },
    complete: () => last.done === true,
    finish() {
      const { message: _m, ...rest } = last;
      return { ...rest, message: { role: 'assistant', content } };
    },
  };
}

interface Block {
  type: string;
  text: string;
  json: string;
  id?: string;
  name?: string;
}

/**
 * Anthropic's Messages API with `stream: true`. A tool call's input arrives as pieces of JSON
 * (`input_json_delta`); put together it is the tool input, or — cut off by `max_tokens` — text
 * for the parser to repair.
 */
export function anthropicStreamDecoder(label: string): StreamDecoder {
  const blocks: Block[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let stopReason: string | null = null;
  return {
    format: 'sse',
    push(data, event) {
      const e = parse(data);
      if (!e) return false;
      const type = str(e.type) || event;
      if (type === 'error') throw streamedError(label, errorMessage(e.error));
      if (type === 'message_start') {
        const usage = obj(obj(e.message).usage);
        inputTokens = Number(usage.input_tokens ?? 0);
        outputTokens = Number(usage.output_tokens ?? 0);
        return false;
      }
      if (type === 'message_delta') {
        stopReason = str(obj(e.delta).stop_reason) || stopReason;
        const out = obj(e.usage).output_tokens;
        if (typeof out === 'number') outputTokens = out;
        return false;
      }
      const i = typeof e.index === 'number' ? e.index : blocks.length;
      if (type === 'content_block_start') {
        const b = obj(e.content_block);
        blocks[i] = {
          type: str(b.type),
          text: str(b.text),
          json: '',
          ...(b.id ? { id: str(b.id) } : {}),
          ...(b.name ? { name: str(b.name) } : {}),
        };
        return true;
      }
      if (type === 'content_block_delta') {
        const d = obj(e.delta);
        const block = blocks[i] ?? { type: 'text', text: '', json: '' };
        blocks[i] = block;
        const piece = str(d.text) + str(d.partial_json) + str(d.thinking);
        if (d.type === 'input_json_delta') block.json += str(d.partial_json);
        else if (d.type === 'text_delta') block.text += str(d.text);
        return piece.length > 0;
      }
      return false;
    },
    complete: () => stopReason !== null,
    finish() {
      const content = blocks
        .filter((b): b is Block => b !== undefined)
        .map((b) => {
          if (b.type !== 'tool_use') return { type: b.type, text: b.text };
          const input = b.json.trim() === '' ? {} : parse(b.json);
          // Cut off mid-JSON: handed on as text, which the parser repairs (closing brackets).
          return input ? { type: 'tool_use', id: b.id, name: b.name, input } : { type: 'text', text: b.json };
        });
      return {
        content,
        stop_reason: stopReason,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      };
    },
  };
}
