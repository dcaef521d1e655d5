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
  readonly format: StreamFormat;
  push(data: string, event: string | undefined): boolean;
  finish(): unknown;
}

/** A response body (undici's or the global fetch's ReadableStream). */
export interface ByteStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(): Promise<void>;
  };
}

/** Whether a response's content type is a stream rather than one JSON answer. */
export function isStreamed(contentType: string | null): boolean {
  return /text\/event-stream|ndjson/i.test(contentType ?? '');
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

/**
 * Reads a streamed body to its end (or SSE's `[DONE]`), feeding each event to the decoder and
 * stopping the first-token clock at the first token. Returns the decoder's answer. A body that
 * breaks off is thrown as is (the caller tells a timeout from a dropped connection).
 */
export async function readStream(
  body: ByteStream,
  decoder: StreamDecoder,
  watch: FirstTokenWatch,
): Promise<unknown> {
  const reader = body.getReader();
  const text = new TextDecoder();
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
  const line = (l: string) => {
    if (decoder.format === 'ndjson') {
      if (l.trim()) dispatch(l, undefined);
      return;
    }
    if (l === '') {
      if (data.length > 0) dispatch(data.join('\n'), event);
      data = [];
      event = undefined;
      return;
    }
    if (l.startsWith(':')) return; // a comment: keep-alive
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    const value = colon < 0 ? '' : l.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  try {
    while (!done) {
      const r = await reader.read();
      if (r.done || !r.value) break;
      buffer += text.decode(r.value, { stream: true });
      let nl = buffer.indexOf('\n');
      while (nl >= 0 && !done) {
        line(buffer.slice(0, nl).replace(/\r$/, ''));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
    }
    if (!done) {
      buffer += text.decode();
      if (buffer) line(buffer.replace(/\r$/, ''));
      line('');
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return decoder.finish();
}

/** A stream that ended in the server's own error event (overloaded, out of memory…). */
export function streamedError(label: string, message: string): ExtractionFailedError {
  return new ExtractionFailedError(`${label} failed while answering: ${message.slice(0, 200)}; retry`, {
    retryable: true,
  });
}
