/**
 * Streamed model answers: the two wire formats the model servers stream in — server-sent events
 * (Anthropic, OpenAI-compatible servers: vLLM, llama.cpp, LM Studio) and newline-delimited JSON
 * (Ollama's native API) — read event by event, and the first-token clock: a model server that
 * accepts the request but sends no token within `LLM_FIRST_TOKEN_TIMEOUT_MS` is cut off then,
 * not when the whole call's budget runs out.
 */
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';

export type StreamFormat = 'sse' | 'ndjson';

/**
 * Turns a stream's events into the answer. `push` gets one event's data (SSE: its `data:` lines
 * joined; NDJSON: one line) and says whether it carried a token (text, reasoning, a tool call's
 * arguments): only that stops the first-token clock, not keep-alives or an empty role chunk.
 * `finish` gives the answer in the shape of the server's non-streamed response, so one parser
 * reads both (a server that ignores `stream: true` answers in one piece).
 */
export interface StreamDecoder {
  /** The format this server kind streams in; readStream goes by the body, whichever it is. */
  readonly format: StreamFormat;
  push(data: string, event: string | undefined): boolean;
  /** Whether the server said its answer is complete (a finish reason, `done: true`, a stop). */
  complete(): boolean;
  finish(): unknown;
}

/** A response body (undici's or the global fetch's ReadableStream). */
export interface ByteStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(): Promise<void>;
  };
}

/** Whether a response's content type says it is a stream rather than one JSON answer. */
export function isStreamed(contentType: string | null): boolean {
  return /text\/event-stream|ndjson|jsonl/i.test(contentType ?? '');
}

/**
 * The first-token clock of one model call, started with the call (connecting, waiting in the
 * server's queue and reading the prompt all count). `signal` aborts when it runs out; `seen()`
 * (the first token, or a whole non-streamed answer arriving) stops it. 0 = no clock.
 */
export class FirstTokenWatch {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(readonly timeoutMs: number) {
    this.signal = this.controller.signal;
    if (timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.fired = true;
        this.controller.abort(new Error('first-token timeout'));
      }, timeoutMs);
    }
  }

  seen(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.seen();
  }
}

/** The error of a model server that sent no token in time: a retryable 504 naming the setting. */
export function firstTokenTimeout(label: string, timeoutMs: number): TimeoutError {
  return new TimeoutError(
    `${label} sent no token within ${timeoutMs} ms (LLM_FIRST_TOKEN_TIMEOUT_MS): the model may be loading or overloaded; retry`,
    { details: { timeout: 'first-token', timeoutMs } },
  );
}

/** A line that only server-sent events start with (`data:`, `event:`, `id:`, `retry:`, a comment). */
const SSE_LINE = /^(?:data|event|id|retry)\s*:|^:/;

function jsonObject(line: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(line) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A JSON line that can only be one piece of a stream (an OpenAI chunk, Ollama's `done: false`). */
function isStreamPiece(v: Record<string, unknown>): boolean {
  if (v.done === false || /\.chunk$/.test(String(v.object ?? ''))) return true;
  const choice = Array.isArray(v.choices) ? (v.choices[0] as Record<string, unknown> | undefined) : undefined;
  return typeof choice === 'object' && choice !== null && 'delta' in choice;
}

/**
 * Reads a model's answer body to its end (or SSE's `[DONE]`) and returns it in the shape of the
 * server's non-streamed response. The body decides how it is read, not the content type, which
 * servers and proxies get wrong: `data:` lines are SSE; several JSON lines (or one that is plainly
 * a stream piece) are NDJSON; anything else is one JSON document. Streamed events go to the
 * decoder as they come, so the first token stops the first-token clock when it arrives;
 * `contentType` only breaks a tie (one JSON line under an NDJSON type is a stream). A body that
 * breaks off (or is empty) is thrown as is (the caller tells a timeout from a dropped connection);
 * one that is not JSON throws a SyntaxError.
 */
export async function readStream(
  body: ByteStream,
  decoder: StreamDecoder,
  watch: FirstTokenWatch,
  contentType: string | null = null,
): Promise<unknown> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const ndjsonHint = /ndjson|jsonl/i.test(contentType ?? '');
  let format: StreamFormat | 'json' | undefined;
  let held: string | undefined;
  let raw = '';
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let done = false;
  const dispatch = (payload: string, name: string | undefined) => {
    if (payload === '[DONE]') {
      done = true;
      return;
    }
    if (decoder.push(payload, name)) watch.seen();
  };
  const sse = (l: string) => {
    if (l === '') {
      if (data.length > 0) dispatch(data.join('\n'), event);
      data = [];
      event = undefined;
      return;
    }
    if (l.startsWith(':')) return; // a comment: keep-alive
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon).trim();
    const value = colon < 0 ? '' : l.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  const line = (l: string) => {
    if (format === 'sse') return sse(l);
    if (format === 'json') return;
    const t = l.trim();
    if (!t) return;
    if (format === 'ndjson') return dispatch(t, undefined);
    if (held === undefined && SSE_LINE.test(t)) {
      format = 'sse';
      return sse(l);
    }
    const value = jsonObject(t);
    if (!value) {
      // Not a line of JSON (a pretty-printed document, or text): read the body as one document.
      format = 'json';
      watch.seen();
      return;
    }
    if (held === undefined && !ndjsonHint && !isStreamPiece(value)) {
      // One JSON line: a whole answer unless another line follows.
      held = t;
      watch.seen();
      return;
    }
    format = 'ndjson';
    if (held !== undefined) dispatch(held, undefined);
    held = undefined;
    dispatch(t, undefined);
  };
  try {
    while (!done) {
      const r = await reader.read();
      if (r.done || !r.value) break;
      const piece = text.decode(r.value, { stream: true });
      if (format === undefined || format === 'json') raw += piece;
      buffer += piece;
      let nl = buffer.indexOf('\n');
      while (nl >= 0 && !done) {
        line(buffer.slice(0, nl).replace(/\r$/, ''));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
    }
    if (!done) {
      const rest = text.decode();
      raw += rest;
      buffer += rest;
      if (buffer) line(buffer.replace(/\r$/, ''));
      if (format === 'sse') sse('');
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (format === 'sse' || format === 'ndjson') return decoder.finish();
  // Nothing at all: a proxy or server that gave up; the caller asks again as for a dropped one.
  if (held === undefined && raw.trim() === '') throw new Error('the answer was empty');
  watch.seen();
  if (held !== undefined) return JSON.parse(held) as unknown;
  return JSON.parse(raw) as unknown;
}

/** A stream that ended in the server's own error event (overloaded, out of memory…). */
export function streamedError(label: string, message: string): ExtractionFailedError {
  return new ExtractionFailedError(`${label} failed while answering: ${message.slice(0, 200)}; retry`, {
    retryable: true,
  });
}
