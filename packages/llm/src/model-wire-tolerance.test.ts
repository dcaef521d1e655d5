/**
 * What the HTTP providers tolerate from model servers that get the wire wrong, each against a
 * loopback server scripted per test: an answer whose content type disagrees with its body (SSE or
 * NDJSON sent as application/json, one JSON document sent as text/event-stream, SSE and NDJSON
 * swapped) is read by what the body is; 429/503 are retried as `Retry-After` asks (seconds or an
 * HTTP date) within the call's budget, which ends them with a clear error; a connection dropped
 * mid-answer (or an empty answer) is asked again once. Request fields: model-request-fields.test.ts.
 */
import type { ServerResponse } from 'node:http';
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import { OllamaProvider } from './ollama.provider';
import { OpenAiProvider } from './openai.provider';
import { BUSY_RETRIES, retryAfterMs } from './retry-policy';
import {
  completeWith,
  good,
  ollamaNdjson,
  ollamaPlainDoc,
  ollamaSse,
  openAiNdjson,
  openAiPlainDoc,
  openAiSse,
  reply,
  request,
  useScriptedModelServer,
} from './test-support/scripted-model-server';

const server = useScriptedModelServer();

const openAi = (o: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseURL: `${server.url}/v1`, model: 'm', maxRetries: 1, ...o });
const ollama = () => new OllamaProvider({ baseURL: server.url, model: 'm', maxRetries: 1 });

describe('an answer whose content type disagrees with its body is read by what the body is', () => {
  it.each([
    ['openai', 'SSE sent as application/json', openAi, 'application/json', openAiSse],
    ['openai', 'SSE sent as application/x-ndjson', openAi, 'application/x-ndjson', openAiSse],
    ['openai', 'NDJSON chunks sent as text/event-stream', openAi, 'text/event-stream', openAiNdjson],
    ['openai', 'NDJSON chunks sent as application/json', openAi, 'application/json', openAiNdjson],
    [
      'openai',
      'one JSON document sent as text/event-stream',
      openAi,
      'text/event-stream',
      JSON.stringify(openAiPlainDoc),
    ],
    [
      'openai',
      'a pretty-printed JSON document sent as text/event-stream',
      openAi,
      'text/event-stream',
      JSON.stringify(openAiPlainDoc, null, 2),
    ],
    ['ollama', 'NDJSON sent as application/json', ollama, 'application/json', ollamaNdjson],
    ['ollama', 'NDJSON sent as text/event-stream', ollama, 'text/event-stream', ollamaNdjson],
    ['ollama', 'SSE sent as application/x-ndjson', ollama, 'application/x-ndjson', ollamaSse],
    [
      'ollama',
      'one JSON document sent as text/event-stream',
      ollama,
      'text/event-stream',
      JSON.stringify(ollamaPlainDoc),
    ],
    [
      'ollama',
      'one JSON document sent as application/x-ndjson',
      ollama,
      'application/x-ndjson',
      `${JSON.stringify(ollamaPlainDoc)}\n`,
    ],
  ] as const)('%s: %s', async (_kind, _what, make, type, body) => {
    server.handler = (_q, res) => reply(type, body)(res);
    const a = await completeWith(make);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(a).toMatchObject({ inputTokens: 5, outputTokens: 7 });
    expect(server.seen).toHaveLength(1);
  });

  it('message content sent as parts ([{type: "text", text}]) is read as their text', async () => {
    const parts = {
      ...openAiPlainDoc,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: [{ type: 'text', text: JSON.stringify(good) }] },
          finish_reason: 'stop',
        },
      ],
    };
    server.handler = (_q, res) => reply('application/json', JSON.stringify(parts))(res);
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
  });

  it('a body that is no JSON at all is a non-retryable EXTRACTION_FAILED naming the URL setting', async () => {
    server.handler = (_q, res) => reply('application/json', '<html>gateway error</html>')(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: false, message: expect.stringMatching(/non-JSON.*BASE_URL/) });
  });

  it('a 200 whose body is an error object is a retryable EXTRACTION_FAILED carrying its message', async () => {
    server.handler = (_q, res) =>
      reply('application/json', JSON.stringify({ error: { message: 'model is overloaded' } }))(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/model is overloaded/) });
  });

  it('an empty 200 is asked again once, like a dropped answer', async () => {
    server.handler = (_q, res, n) =>
      n === 0 ? reply('text/event-stream', '')(res) : reply('text/event-stream', openAiSse)(res);
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(server.seen).toHaveLength(2);
  });

  it('a mislabelled stream keeps the first-token clock: NDJSON as text/event-stream with no token times out', async () => {
    server.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${JSON.stringify({ message: { role: 'assistant', content: '' }, done: false })}\n`);
    };
    const provider = new OllamaProvider({
      baseURL: server.url,
      model: 'm',
      maxRetries: 0,
      firstTokenTimeoutMs: 300,
    });
    const err = await provider.complete(request(20_000)).catch((e: unknown) => e);
    await provider.close();
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ details: { timeout: 'first-token', timeoutMs: 300 } });
  });
});

describe('retries within the call budget', () => {
  it('Retry-After in seconds: waited, then the answer', async () => {
    server.handler = (_q, res, n) =>
      n === 0
        ? reply('application/json', '{"error":"busy"}', 503, { 'retry-after': '1' })(res)
        : reply('text/event-stream', openAiSse)(res);
    const t0 = Date.now();
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(server.seen).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('Retry-After as an HTTP date: waited, then the answer', async () => {
    server.handler = (_q, res, n) =>
      n === 0
        ? reply('application/json', '{"error":"rate limited"}', 429, {
            'retry-after': new Date(Date.now() + 2_000).toUTCString(),
          })(res)
        : reply('text/event-stream', openAiSse)(res);
    const t0 = Date.now();
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(server.seen).toHaveLength(2);
    // The date has whole seconds: at least one of the two asked for.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('429/503 are retried past EXTRACT_MODEL_MAX_RETRIES, up to the bounded count', async () => {
    server.handler = (_q, res, n) =>
      reply('application/json', '{"error":"busy"}', n % 2 === 0 ? 429 : 503, { 'retry-after': '0' })(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: true, details: { attempts: BUSY_RETRIES + 1 } });
    expect(server.seen).toHaveLength(BUSY_RETRIES + 1);
  });

  it('a Retry-After longer than the budget left ends the call at once, saying so', async () => {
    server.handler = (_q, res) =>
      reply('application/json', '{"error":"busy"}', 503, { 'retry-after': '120' })(res);
    const err = await completeWith(openAi, request(5_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({
      code: 'EXTRACTION_FAILED',
      retryable: true,
      details: { httpStatus: 503, attempts: 1, retryAfterMs: 120_000 },
    });
    expect((err as Error).message).toMatch(/Retry-After.*budget/);
    expect(server.seen).toHaveLength(1);
  });

  it('a server that stays busy without Retry-After is retried with backoff until the budget says no', async () => {
    server.handler = (_q, res) => reply('application/json', '{"error":"overloaded"}', 503)(res);
    const err = await completeWith(openAi, request(1_500)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true, details: { httpStatus: 503 } });
    expect((err as Error).message).toMatch(/budget/);
    expect(server.seen.length).toBeGreaterThanOrEqual(2);
    expect(server.seen.length).toBeLessThan(BUSY_RETRIES + 1);
  });

  it('500 is retried EXTRACT_MODEL_MAX_RETRIES times only', async () => {
    server.handler = (_q, res) => reply('application/json', '{"error":"boom"}', 500)(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true, details: { httpStatus: 500 } });
    expect(server.seen).toHaveLength(2);
  });

  /** Headers and the first two events, then the connection cut. */
  const cutOff = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(body, () => res.socket?.destroy());
  };
  const firstTwo = `${openAiSse.split('\n\n').slice(0, 2).join('\n\n')}\n\n`;

  it.each([
    ['openai', openAi, firstTwo, openAiSse],
    ['ollama', ollama, `${ollamaNdjson.split('\n').slice(0, 2).join('\n')}\n`, ollamaNdjson],
  ] as const)('%s: a connection dropped mid-answer is asked again once', async (_k, make, part, whole) => {
    server.handler = (_q, res, n) => (n === 0 ? cutOff(res, part) : reply('text/event-stream', whole)(res));
    const a = await completeWith(make);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(server.seen).toHaveLength(2);
  });

  it('dropped twice: a retryable EXTRACTION_FAILED after two requests', async () => {
    server.handler = (_q, res) => cutOff(res, firstTwo);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true });
    expect((err as Error).message).toMatch(/broke off/);
    expect(server.seen).toHaveLength(2);
  });

  it('dropped after the answer completed (finish reason in, no [DONE]): the answer is kept', async () => {
    server.handler = (_q, res) => cutOff(res, openAiSse.replace('data: [DONE]\n\n', ''));
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(server.seen).toHaveLength(1);
  });

  it('Retry-After: seconds, HTTP dates, garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
