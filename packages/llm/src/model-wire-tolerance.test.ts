/**
 * What the HTTP providers tolerate from model servers that get the wire wrong, each against a
 * loopback server scripted per test: an answer whose content type disagrees with its body (SSE or
 * NDJSON sent as application/json, one JSON document sent as text/event-stream, SSE and NDJSON
 * swapped) is read by what the body is; 429/503 are retried as `Retry-After` asks (seconds or an
 * HTTP date) within the call's budget, which ends them with a clear error; a connection dropped
 * mid-answer is asked again once; a base URL without a path gets `/v1`; a 400 naming a field the
 * server does not take is asked again without it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import type { LlmProvider, LlmRequest } from './llm-provider';
import { OllamaProvider } from './ollama.provider';
import { chatCompletionsUrl, OpenAiProvider } from './openai.provider';
import { BUSY_RETRIES, retryAfterMs } from './retry-policy';

const good = { name: 'Blue Kettle', price: 39.9 };
const answer = JSON.stringify(good);
const pieces = answer.match(/.{1,8}/g) ?? [answer];

/** One request as the server saw it. */
interface Seen {
  path: string;
  body: Record<string, unknown>;
}
type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: Record<string, unknown>) => void;

let server: ListeningServer;
let handler: Handler = (_q, res) => res.end();
const seen: Seen[] = [];

beforeAll(async () => {
  server = await listenLocal(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
        seen.push({ path: req.url ?? '', body });
        handler(req, res, seen.length - 1, body);
      });
    }),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
});

const request = (timeoutMs = 10_000): LlmRequest => ({
  system: 'Extract.',
  user: 'Blue Kettle, 39.90',
  jsonSchema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
  freeForm: false,
  maxTokens: 256,
  timeoutMs,
});

/** Answers `status` with `headers` and `body` written in one piece. */
const reply =
  (contentType: string, body: string, status = 200, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };

// The wire forms of one answer.
const openAiChunks = [
  ...pieces.map((p) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p } }] })),
  {
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 7 },
  },
];
const openAiSse = `${openAiChunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const openAiNdjson = `${openAiChunks.map((c) => JSON.stringify(c)).join('\n')}\n`;
const openAiPlainDoc = {
  choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 7 },
};
const ollamaLines = [
  ...pieces.map((p) => ({ message: { role: 'assistant', content: p }, done: false })),
  { message: { role: 'assistant', content: '' }, done: true, prompt_eval_count: 5, eval_count: 7 },
];
const ollamaNdjson = `${ollamaLines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const ollamaSse = ollamaLines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join('');
const ollamaPlainDoc = {
  message: { role: 'assistant', content: answer },
  done: true,
  prompt_eval_count: 5,
  eval_count: 7,
};

const openAi = (o: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseURL: `${server.url}/v1`, model: 'm', maxRetries: 1, ...o });
const ollama = () => new OllamaProvider({ baseURL: server.url, model: 'm', maxRetries: 1 });

async function completeWith(make: () => LlmProvider, req = request()) {
  const provider = make();
  try {
    return await provider.complete(req);
  } finally {
    await provider.close?.();
  }
}

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
    handler = (_q, res) => reply(type, body)(res);
    const a = await completeWith(make);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(a).toMatchObject({ inputTokens: 5, outputTokens: 7 });
    expect(seen).toHaveLength(1);
  });

  it('a body that is no JSON at all is a non-retryable EXTRACTION_FAILED naming the URL setting', async () => {
    handler = (_q, res) => reply('application/json', '<html>gateway error</html>')(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: false, message: expect.stringMatching(/non-JSON.*BASE_URL/) });
  });

  it('a 200 whose body is an error object is a retryable EXTRACTION_FAILED carrying its message', async () => {
    handler = (_q, res) =>
      reply('application/json', JSON.stringify({ error: { message: 'model is overloaded' } }))(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/model is overloaded/) });
  });

  it('an empty 200 is asked again once, like a dropped answer', async () => {
    handler = (_q, res, n) =>
      n === 0 ? reply('text/event-stream', '')(res) : reply('text/event-stream', openAiSse)(res);
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(2);
  });

  it('a mislabelled stream keeps the first-token clock: NDJSON as text/event-stream with no token times out', async () => {
    handler = (_q, res) => {
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
    handler = (_q, res, n) =>
      n === 0
        ? reply('application/json', '{"error":"busy"}', 503, { 'retry-after': '1' })(res)
        : reply('text/event-stream', openAiSse)(res);
    const t0 = Date.now();
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('Retry-After as an HTTP date: waited, then the answer', async () => {
    handler = (_q, res, n) =>
      n === 0
        ? reply('application/json', '{"error":"rate limited"}', 429, {
            'retry-after': new Date(Date.now() + 2_000).toUTCString(),
          })(res)
        : reply('text/event-stream', openAiSse)(res);
    const t0 = Date.now();
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(2);
    // The date has whole seconds: at least one of the two asked for.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('429/503 are retried past EXTRACT_MODEL_MAX_RETRIES, up to the bounded count', async () => {
    handler = (_q, res, n) =>
      reply('application/json', '{"error":"busy"}', n % 2 === 0 ? 429 : 503, { 'retry-after': '0' })(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ retryable: true, details: { attempts: BUSY_RETRIES + 1 } });
    expect(seen).toHaveLength(BUSY_RETRIES + 1);
  });

  it('a Retry-After longer than the budget left ends the call at once, saying so', async () => {
    handler = (_q, res) => reply('application/json', '{"error":"busy"}', 503, { 'retry-after': '120' })(res);
    const err = await completeWith(openAi, request(5_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({
      code: 'EXTRACTION_FAILED',
      retryable: true,
      details: { httpStatus: 503, attempts: 1, retryAfterMs: 120_000 },
    });
    expect((err as Error).message).toMatch(/Retry-After.*budget/);
    expect(seen).toHaveLength(1);
  });

  it('a server that stays busy without Retry-After is retried with backoff until the budget says no', async () => {
    handler = (_q, res) => reply('application/json', '{"error":"overloaded"}', 503)(res);
    const err = await completeWith(openAi, request(1_500)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true, details: { httpStatus: 503 } });
    expect((err as Error).message).toMatch(/budget/);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThan(BUSY_RETRIES + 1);
  });

  it('500 is retried EXTRACT_MODEL_MAX_RETRIES times only', async () => {
    handler = (_q, res) => reply('application/json', '{"error":"boom"}', 500)(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true, details: { httpStatus: 500 } });
    expect(seen).toHaveLength(2);
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
    handler = (_q, res, n) => (n === 0 ? cutOff(res, part) : reply('text/event-stream', whole)(res));
    const a = await completeWith(make);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(2);
  });

  it('dropped twice: a retryable EXTRACTION_FAILED after two requests', async () => {
    handler = (_q, res) => cutOff(res, firstTwo);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', retryable: true });
    expect((err as Error).message).toMatch(/broke off/);
    expect(seen).toHaveLength(2);
  });

  it('dropped after the answer completed (finish reason in, no [DONE]): the answer is kept', async () => {
    handler = (_q, res) => cutOff(res, openAiSse.replace('data: [DONE]\n\n', ''));
    const a = await completeWith(openAi);
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(1);
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

describe('base URLs', () => {
  it.each(['openai', 'vllm', 'llamacpp'] as const)('%s: a base without a path gets /v1', async (flavor) => {
    handler = (_q, res) => reply('text/event-stream', openAiSse)(res);
    await completeWith(() => openAi({ baseURL: server.url, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/`, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/v1/`, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/proxy/openai/v1`, flavor }));
    expect(seen.map((s) => s.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
      '/v1/chat/completions',
      '/proxy/openai/v1/chat/completions',
    ]);
  });

  it('a base that already names /chat/completions is used as is', () => {
    expect(chatCompletionsUrl('http://h:1/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
  });
});

describe('a 400 naming a field the server does not take', () => {
  const refuse =
    (field: string) =>
    (_q: IncomingMessage, res: ServerResponse, _n: number, body: Record<string, unknown>) =>
      field in body
        ? reply(
            'application/json',
            JSON.stringify({ error: { message: `Unrecognized request argument supplied: ${field}` } }),
            400,
          )(res)
        : reply('text/event-stream', openAiSse)(res);

  it.each([
    ['openai', 'stream_options'],
    ['openai', 'response_format'],
    ['vllm', 'guided_json'],
    ['vllm', 'structured_outputs'],
    ['llamacpp', 'json_schema'],
    ['llamacpp', 'response_format'],
  ] as const)('%s without %s: asked again without it, and never sent it again', async (flavor, field) => {
    handler = refuse(field);
    const provider = openAi({ flavor });
    try {
      const a = await provider.complete(request());
      expect(JSON.parse(a.text ?? '')).toEqual(good);
      await provider.complete(request());
    } finally {
      await provider.close();
    }
    expect(seen.map((s) => field in s.body)).toEqual([true, false, false]);
    // Only the refused field went.
    expect(seen[1]?.body.stream).toBe(true);
    expect(seen[1]?.body.messages).toBeDefined();
  });

  it('a 400 speaking only of structured outputs drops the server-specific fields first, keeping response_format', async () => {
    handler = (_q, res, _n, body) =>
      'guided_json' in body || 'structured_outputs' in body
        ? reply(
            'application/json',
            JSON.stringify({
              object: 'error',
              message: 'You can only use one kind of structured outputs constraint',
            }),
            400,
          )(res)
        : reply('text/event-stream', openAiSse)(res);
    const a = await completeWith(() => openAi({ flavor: 'vllm' }));
    expect(JSON.parse(a.text ?? '')).toEqual(good);
    expect(seen).toHaveLength(2);
    expect(Object.keys(seen[1]?.body ?? {})).toContain('response_format');
    expect(seen[1]?.body.guided_json).toBeUndefined();
    expect(seen[1]?.body.structured_outputs).toBeUndefined();
  });

  it('a 400 naming no field we sent is not retried', async () => {
    handler = (_q, res) =>
      reply('application/json', JSON.stringify({ error: { message: 'prompt is too long' } }), 400)(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EXTRACTION_FAILED',
      retryable: false,
      message: expect.stringMatching(/too long/),
    });
    expect(seen).toHaveLength(1);
  });

  it('llama.cpp gets the schema as response_format json_object and as json_schema; vLLM as structured_outputs too', async () => {
    handler = (_q, res) => reply('text/event-stream', openAiSse)(res);
    await completeWith(() => openAi({ flavor: 'llamacpp' }));
    await completeWith(() => openAi({ flavor: 'vllm' }));
    const schema = request().jsonSchema;
    expect(seen[0]?.body).toMatchObject({
      response_format: { type: 'json_object', schema },
      json_schema: schema,
    });
    expect(seen[1]?.body).toMatchObject({
      response_format: { type: 'json_schema' },
      structured_outputs: { json: schema },
      guided_json: schema,
    });
  });
});
