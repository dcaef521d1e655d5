/**
 * Streamed answers and the first-token clock, for every HTTP provider against its fake server on
 * loopback (Anthropic SSE through the SDK, OpenAI-compatible SSE, vLLM, llama.cpp, Ollama NDJSON):
 * a model that accepts the request and sends no token fails at LLM_FIRST_TOKEN_TIMEOUT_MS with a
 * retryable 504 naming it; a model streaming slowly but within the budget succeeds although the
 * whole answer takes longer than the first-token timeout; a model that stalls mid-stream fails at
 * the call's total budget; a server that ignores `stream` is read as one JSON answer; an error
 * event mid-stream is a retryable EXTRACTION_FAILED with the server's message.
 */
import { createServer } from 'node:http';
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import {
  type FakeLlmServer,
  type ListeningServer,
  listenLocal,
  startFakeAnthropic,
  startFakeLlamaCpp,
  startFakeOllama,
  startFakeOpenAi,
  startFakeVllm,
} from '@wcs/testing';
import { AnthropicProvider } from './anthropic.provider';
import { runExtraction } from './extractor';
import type { LlmProvider } from './llm-provider';
import { OllamaProvider } from './ollama.provider';
import { OpenAiProvider } from './openai.provider';

const page = {
  url: 'https://shop.test/p/1',
  title: 'Blue Kettle',
  markdown: '# Blue Kettle\n\nPrice: 39.90 EUR',
};
const schema = { name: 'string', price: 'number', tags: ['string'] };
const good = { name: 'Blue Kettle', price: 39.9, tags: ['kitchen', 'kettle', 'blue', 'steel'] };
const FIRST_TOKEN_MS = 3_000;
const base = { page, schema, inputTokenBudget: 2_000, maxTokens: 512, timeoutMs: 30_000 };

describe.each([
  [
    'anthropic',
    startFakeAnthropic,
    (url: string) =>
      new AnthropicProvider({
        apiKey: 'k',
        baseURL: url,
        model: 'claude-test',
        maxRetries: 0,
        firstTokenTimeoutMs: FIRST_TOKEN_MS,
      }),
  ],
  [
    'openai',
    startFakeOpenAi,
    (url: string) =>
      new OpenAiProvider({
        baseURL: `${url}/v1`,
        model: 'm',
        maxRetries: 0,
        firstTokenTimeoutMs: FIRST_TOKEN_MS,
      }),
  ],
  [
    'ollama',
    startFakeOllama,
    (url: string) =>
      new OllamaProvider({
        baseURL: url,
        model: 'llama3.1:8b',
        maxRetries: 0,
        firstTokenTimeoutMs: FIRST_TOKEN_MS,
      }),
  ],
  [
    'vllm',
    startFakeVllm,
    (url: string) =>
      new OpenAiProvider({
        baseURL: `${url}/v1`,
        model: 'qwen',
        maxRetries: 0,
        flavor: 'vllm',
        firstTokenTimeoutMs: FIRST_TOKEN_MS,
      }),
  ],
  [
    'llamacpp',
    startFakeLlamaCpp,
    (url: string) =>
      new OpenAiProvider({
        baseURL: `${url}/v1`,
        model: 'any',
        maxRetries: 0,
        flavor: 'llamacpp',
        firstTokenTimeoutMs: FIRST_TOKEN_MS,
      }),
  ],
] as const)('%s: streamed answer', (_name, start, make) => {
  let fake: FakeLlmServer;
  let provider: LlmProvider;
  beforeAll(async () => {
    fake = await start();
    provider = make(fake.url);
  });
  afterAll(async () => {
    await provider.close?.();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('(a) the model accepts the request but sends no token: a retryable 504 at the first-token timeout', async () => {
    // Headers (and any preamble event) at once, the first token never within the call's 30 s.
    fake.script(() => ({ data: good, firstTokenDelayMs: 120_000 }));
    const err = await runExtraction(provider, base).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({
      status: 504,
      retryable: true,
      details: { timeout: 'first-token', timeoutMs: FIRST_TOKEN_MS },
    });
    expect((err as Error).message).toContain('LLM_FIRST_TOKEN_TIMEOUT_MS');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.stream).toBe(true);
  });

  it('(b) a slow stream within the budget succeeds, though it lasts longer than the first-token timeout', async () => {
    fake.script(() => ({ data: good, pieceDelayMs: 600, usage: { input: 50, output: 9 } }));
    const t0 = Date.now();
    const r = await runExtraction(provider, base);
    expect(Date.now() - t0).toBeGreaterThan(FIRST_TOKEN_MS);
    expect(r.data).toEqual(good);
    expect(r).toMatchObject({ inputTokens: 50, outputTokens: 9, attempts: 1 });
  });

  it('(c) a stream that stalls mid-answer fails at the total budget, not the first-token timeout', async () => {
    fake.script(() => ({ data: good, stallAfterPieces: 2 }));
    const err = await runExtraction(provider, { ...base, timeoutMs: FIRST_TOKEN_MS * 2 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).details?.timeout).toBeUndefined();
    expect((err as Error).message).toMatch(/timed out waiting for the model/);
  });

  it('a server that ignores `stream` answers one JSON document: read as such', async () => {
    fake.script(() => ({ data: good, noStream: true }));
    const r = await runExtraction(provider, base);
    expect(r.data).toEqual(good);
  });
});

describe('an error event in the stream', () => {
  let server: ListeningServer;
  /** Per path: the content type and body a server streams, ending in its error event. */
  const streams: Record<string, [string, string]> = {
    '/v1/chat/completions': [
      'text/event-stream',
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '{"name":' } }] })}\n\ndata: ${JSON.stringify({ error: { message: 'CUDA out of memory' } })}\n\n`,
    ],
    '/api/chat': [
      'application/x-ndjson',
      `${JSON.stringify({ message: { content: '{"na' }, done: false })}\n${JSON.stringify({ error: 'model runner has unexpectedly stopped' })}\n`,
    ],
  };
  beforeAll(async () => {
    server = await listenLocal(
      createServer((req, res) => {
        // Answer once the whole request is in, as a server does.
        req.resume();
        req.on('end', () => {
          const [type, body] = streams[req.url ?? ''] ?? ['text/plain', ''];
          res.writeHead(200, { 'content-type': type, connection: 'close' });
          res.end(body);
        });
      }),
    );
  });
  afterAll(() => server.close());

  it.each([
    [
      'openai',
      () => new OpenAiProvider({ baseURL: `${server.url}/v1`, model: 'm', maxRetries: 0 }),
      /CUDA out of memory/,
    ],
    [
      'ollama',
      () => new OllamaProvider({ baseURL: server.url, model: 'm', maxRetries: 0 }),
      /unexpectedly stopped/,
    ],
  ] as const)(
    "%s: a retryable EXTRACTION_FAILED carrying the server's message",
    async (_n, make, message) => {
      const provider = make();
      const err = await runExtraction(provider, base).catch((e: unknown) => e);
      await provider.close();
      expect(err).toBeInstanceOf(ExtractionFailedError);
      expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(message) });
    },
  );
});
