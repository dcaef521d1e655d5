/**
 * One JSON POST to a model server (OpenAI-compatible, vLLM, llama.cpp, Ollama) with the retry
 * policy of the vendor SDKs — connection errors, 429 and 5xx retried `maxRetries` times with
 * backoff — and three clocks: the connection must be made within `connectTimeoutMs` (a server that
 * is down or unroutable fails fast and is retried), the first streamed token within
 * `firstTokenTimeoutMs` (a server that accepted the request and then says nothing), the whole call
 * within the request's `timeoutMs`. Errors name the setting to check.
 */
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import { Agent, fetch, type Response } from 'undici';
import type { LlmRequest } from './llm-provider';
import {
  FirstTokenWatch,
  firstTokenTimeout,
  isStreamed,
  readStream,
  type StreamDecoder,
} from './model-stream';

export interface ModelHttpOptions {
  /** Shown in error messages: "The Ollama server", "The OpenAI-compatible endpoint". */
  label: string;
  /** The setting naming the server's address, for error messages (LLM_BASE_URL…). */
  urlSetting: string;
  modelSetting: string;
  keySetting: string;
  apiKey?: string;
  maxRetries: number;
  connectTimeoutMs: number;
  /** LLM_FIRST_TOKEN_TIMEOUT_MS: a streamed answer's first token, from the call's start; 0 = off. */
  firstTokenTimeoutMs?: number;
}

export class ModelHttp {
  private readonly agent: Agent;

  constructor(private readonly o: ModelHttpOptions) {
    // headersTimeout/bodyTimeout off: the call's own deadline bounds a slow model, not undici's 300 s.
    this.agent = new Agent({ connect: { timeout: o.connectTimeoutMs }, headersTimeout: 0, bodyTimeout: 0 });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * POSTs `body`; with a `decoder` the answer is read as a stream (the body asked for one), and
   * the first token must arrive within `firstTokenTimeoutMs` of the call's start. A server that
   * ignores `stream` and answers one JSON document is read as such (its answer arriving stops the
   * first-token clock).
   */
  async post(url: string, body: unknown, req: LlmRequest, decoder?: StreamDecoder): Promise<unknown> {
    const { label, urlSetting } = this.o;
    const watch = new FirstTokenWatch(decoder ? (this.o.firstTokenTimeoutMs ?? 0) : 0);
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = AbortSignal.any([deadline, watch.signal, ...(req.signal ? [req.signal] : [])]);
    const timedOut = () =>
      watch.fired
        ? firstTokenTimeout(label, watch.timeoutMs)
        : new TimeoutError('Extraction timed out waiting for the model; retry');
    try {
      const res = await this.send(url, body, signal, timedOut);
      try {
        if (decoder && res.body && isStreamed(res.headers.get('content-type'))) {
          return await readStream(res.body, decoder, watch);
        }
        watch.seen();
        return await res.json();
      } catch (err) {
        if (signal.aborted) throw timedOut();
        if (err instanceof ExtractionFailedError) throw err;
        if (err instanceof SyntaxError) {
          throw new ExtractionFailedError(`${label} answered non-JSON; check ${urlSetting}`);
        }
        throw new ExtractionFailedError(`${label} broke off its answer; retry`, {
          retryable: true,
          cause: err,
        });
      }
    } finally {
      watch.dispose();
    }
  }

  /** The request, retried on connection errors, 429 and 5xx; resolves with a 2xx response. */
  private async send(
    url: string,
    body: unknown,
    signal: AbortSignal,
    timedOut: () => Error,
  ): Promise<Response> {
    const { label, urlSetting } = this.o;
    for (let attempt = 0; ; attempt++) {
      let status: number;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
          dispatcher: this.agent,
        });
        status = res.status;
        if (res.ok) return res;
        const detail = await errorText(res);
        if (status === 401 || status === 403) {
          throw new ExtractionFailedError(`${label} rejected the key; check ${this.o.keySetting}`, {
            details: { httpStatus: status },
          });
        }
        if (status === 404) {
          throw new ExtractionFailedError(
            `${label} has no such model or path (HTTP 404${detail}); check ${this.o.modelSetting} and ${urlSetting}`,
            { details: { httpStatus: status } },
          );
        }
        if (status !== 429 && status < 500) {
          throw new ExtractionFailedError(`${label} refused the request (HTTP ${status}${detail})`, {
            details: { httpStatus: status, serverMessage: detail },
          });
        }
      } catch (err) {
        if (err instanceof ExtractionFailedError) throw err;
        if (signal.aborted) throw timedOut();
        if (attempt >= this.o.maxRetries) {
          throw new ExtractionFailedError(`${label} is unreachable; check ${urlSetting}`, {
            retryable: true,
            cause: err,
          });
        }
        await backoff(attempt, signal);
        continue;
      }
      if (attempt >= this.o.maxRetries) {
        throw new ExtractionFailedError(`${label} failed (HTTP ${status}); retry`, { retryable: true });
      }
      await backoff(attempt, signal);
      if (signal.aborted) throw timedOut();
    }
  }
}

/** A short piece of the server's error body (Ollama says "model 'x' not found" there). */
async function errorText(res: { text(): Promise<string> }): Promise<string> {
  try {
    const t = (await res.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
    return t ? `: ${t}` : '';
  } catch {
    return '';
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

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
