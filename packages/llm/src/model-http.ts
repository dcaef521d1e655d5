/**
 * One JSON POST to a model server (OpenAI-compatible, vLLM, llama.cpp, Ollama) with a retry
 * policy bounded by the call's own budget (`timeoutMs`):
 * - 429 and 503 (busy): retried up to BUSY_RETRIES times (or `maxRetries` if higher), waiting what
 *   `Retry-After` asks or a growing backoff, and never waiting past the budget: a wait that does
 *   not fit ends the call at once with a retryable EXTRACTION_FAILED saying so;
 * - connection errors, 408, 500, 502, 504 and other 5xx: retried `maxRetries` times the same way;
 * - an answer that breaks off mid-stream (the connection dropped before it completed), or an
 *   empty one: asked again once.
 * Three clocks: the connection must be made within `connectTimeoutMs` (a server that is down or
 * unroutable fails fast and is retried), the first streamed token within `firstTokenTimeoutMs` (a
 * server that accepted the request and then says nothing), the whole call within `timeoutMs`. The
 * answer is read by what its body is (SSE, NDJSON or one JSON document), whatever its content
 * type says. Errors name the setting to check.
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
import { BUSY_RETRIES, backoffMs, retryAfterMs, waitFor } from './retry-policy';

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

/** Budget an attempt needs after its wait, at the least (connecting, a short answer). */
const MIN_ATTEMPT_MS = 250;

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
   * POSTs `body`; with a `decoder` (a fresh one per attempt) the answer may be a stream (the body
   * asked for one), and the first token must arrive within `firstTokenTimeoutMs` of the call's
   * start. A server that ignores `stream` and answers one JSON document is read as such.
   */
  async post(url: string, body: unknown, req: LlmRequest, decoder?: () => StreamDecoder): Promise<unknown> {
    const { label, urlSetting } = this.o;
    const deadlineAt = Date.now() + req.timeoutMs;
    const deadline = AbortSignal.timeout(req.timeoutMs);
    for (let broken = 0; ; broken++) {
      const watch = new FirstTokenWatch(decoder ? (this.o.firstTokenTimeoutMs ?? 0) : 0);
      const signal = AbortSignal.any([deadline, watch.signal, ...(req.signal ? [req.signal] : [])]);
      const timedOut = () =>
        watch.fired
          ? firstTokenTimeout(label, watch.timeoutMs)
          : new TimeoutError('Extraction timed out waiting for the model; retry');
      const d = decoder?.();
      try {
        const res = await this.send(url, body, signal, timedOut, deadlineAt);
        try {
          const type = res.headers.get('content-type');
          // A JSON-typed answer is the whole answer arriving; a stream's first token is timed.
          if (!isStreamed(type)) watch.seen();
          if (d && res.body) return await readStream(res.body, d, watch, type);
          return await res.json();
        } catch (err) {
          if (signal.aborted) throw timedOut();
          if (err instanceof ExtractionFailedError) throw err;
          if (err instanceof SyntaxError) {
            throw new ExtractionFailedError(`${label} answered non-JSON; check ${urlSetting}`);
          }
          // The connection dropped: an answer already complete is kept, else asked for once more.
          if (d?.complete()) return d.finish();
          if (broken === 0 && deadlineAt - Date.now() > 0) continue;
          const times = broken === 0 ? '' : ' twice';
          throw new ExtractionFailedError(`${label} broke off its answer (or sent none)${times}; retry`, {
            retryable: true,
            cause: err,
          });
        }
      } finally {
        watch.dispose();
      }
    }
  }

  /**
   * The request, retried on connection errors, 429 and 5xx within the call's budget (ending at
   * `deadlineAt`); resolves with a 2xx response.
   */
  private async send(
    url: string,
    body: unknown,
    signal: AbortSignal,
    timedOut: () => Error,
    deadlineAt: number,
  ): Promise<Response> {
    const { label, urlSetting } = this.o;
    const busyRetries = Math.max(this.o.maxRetries, BUSY_RETRIES);
    let failures = 0;
    let busy = 0;
    for (let attempt = 1; ; attempt++) {
      let status: number;
      let asked: number | undefined;
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
        asked = retryAfterMs(res.headers.get('retry-after'));
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
        if (status !== 429 && status !== 408 && status < 500) {
          throw new ExtractionFailedError(`${label} refused the request (HTTP ${status}${detail})`, {
            details: { httpStatus: status, serverMessage: detail },
          });
        }
      } catch (err) {
        if (err instanceof ExtractionFailedError) throw err;
        if (signal.aborted) throw timedOut();
        if (failures >= this.o.maxRetries) {
          throw new ExtractionFailedError(`${label} is unreachable; check ${urlSetting}`, {
            retryable: true,
            cause: err,
            details: { attempts: attempt },
          });
        }
        failures++;
        await this.pause(backoffMs(failures), deadlineAt, signal, timedOut, `is unreachable`, attempt);
        continue;
      }
      const isBusy = status === 429 || status === 503;
      if (isBusy ? busy >= busyRetries : failures >= this.o.maxRetries) {
        throw new ExtractionFailedError(
          `${label} failed (HTTP ${status}) after ${attempt} attempt${attempt === 1 ? '' : 's'}; retry`,
          { retryable: true, details: { httpStatus: status, attempts: attempt } },
        );
      }
      if (isBusy) busy++;
      else failures++;
      const ms = asked ?? backoffMs(isBusy ? busy : failures);
      await this.pause(ms, deadlineAt, signal, timedOut, `answered HTTP ${status}`, attempt, status, asked);
    }
  }

  /**
   * Waits before the next attempt, if the wait fits what is left of the call's budget; else the
   * call ends now, saying why, rather than sleeping into its timeout.
   */
  private async pause(
    ms: number,
    deadlineAt: number,
    signal: AbortSignal,
    timedOut: () => Error,
    what: string,
    attempts: number,
    httpStatus?: number,
    asked?: number,
  ): Promise<void> {
    const left = deadlineAt - Date.now();
    // The next attempt needs some of the budget too, or it would only time out.
    if (ms > left - MIN_ATTEMPT_MS) {
      const wait =
        asked !== undefined ? `asked to wait ${Math.ceil(ms / 1000)} s (Retry-After)` : 'kept failing';
      throw new ExtractionFailedError(
        `${this.o.label} ${what} and ${wait}; the call's budget (EXTRACT_MODEL_TIMEOUT_MS or the request's timeout) had ${Math.max(0, left)} ms left after ${attempts} attempt${attempts === 1 ? '' : 's'}; retry later`,
        {
          retryable: true,
          details: {
            attempts,
            ...(httpStatus !== undefined ? { httpStatus } : {}),
            ...(asked !== undefined ? { retryAfterMs: asked } : {}),
          },
        },
      );
    }
    await waitFor(ms, signal);
    if (signal.aborted) throw timedOut();
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

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
