/**
 * What the HTTP providers send, against a loopback server scripted per test: a base
 * URL without a path gets `/v1`; a 400 naming a field the server does not take (`stream_options`,
 * `response_format`, `guided_json`, `structured_outputs`, `json_schema`) is asked again without
 * it, and the field is not sent again; llama.cpp gets its schema in `response_format` and
 * `json_schema`, vLLM in `structured_outputs`, `guided_json` and `response_format`; an Ollama that
 * refuses a schema as `format` gets `format: "json"`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OllamaProvider } from './ollama.provider';
import { chatCompletionsUrl, OpenAiProvider } from './openai.provider';
import {
  completeWith,
  good,
  ollamaNdjson,
  openAiSse,
  reply,
  request,
  useScriptedModelServer,
} from './test-support/scripted-model-server';

const server = useScriptedModelServer();

const openAi = (o: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseURL: `${server.url}/v1`, model: 'm', maxRetries: 1, ...o });

describe('base URLs', () => {
  it.each(['openai', 'vllm', 'llamacpp'] as const)('%s: a base without a path gets /v1', async (flavor) => {
    server.handler = (_q, res) => reply('text/event-stream', openAiSse)(res);
    await completeWith(() => openAi({ baseURL: server.url, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/`, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/v1/`, flavor }));
    await completeWith(() => openAi({ baseURL: `${server.url}/proxy/openai/v1`, flavor }));
    expect(server.seen.map((s) => s.path)).toEqual([
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
    server.handler = refuse(field);
    const provider = openAi({ flavor });
    try {
      const a = await provider.complete(request());
      expect(JSON.parse(a.text ?? '')).toEqual(good);
      await provider.complete(request());
    } finally {
      await provider.close();
    }
    expect(server.seen.map((s) => field in s.body)).toEqual([true, false, false]);
    // Only the refused field went.
    expect(server.seen[1]?.body.stream).toBe(true);
    expect(server.seen[1]?.body.messages).toBeDefined();
  });

  it('a 400 speaking only of structured outputs drops the server-specific fields first, keeping response_format', async () => {
    server.handler = (_q, res, _n, body) =>
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
    expect(server.seen).toHaveLength(2);
    expect(Object.keys(server.seen[1]?.body ?? {})).toContain('response_format');
    expect(server.seen[1]?.body.guided_json).toBeUndefined();
    expect(server.seen[1]?.body.structured_outputs).toBeUndefined();
  });

  it('a 400 naming no field we sent is not retried', async () => {
    server.handler = (_q, res) =>
      reply('application/json', JSON.stringify({ error: { message: 'prompt is too long' } }), 400)(res);
    const err = await completeWith(openAi).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EXTRACTION_FAILED',
      retryable: false,
      message: expect.stringMatching(/too long/),
    });
    expect(server.seen).toHaveLength(1);
  });

  it('llama.cpp gets the schema as response_format json_object and as json_schema; vLLM as structured_outputs too', async () => {
    server.handler = (_q, res) => reply('text/event-stream', openAiSse)(res);
    await completeWith(() => openAi({ flavor: 'llamacpp' }));
    await completeWith(() => openAi({ flavor: 'vllm' }));
    const schema = request().jsonSchema;
    expect(server.seen[0]?.body).toMatchObject({
      response_format: { type: 'json_object', schema },
      json_schema: schema,
    });
    expect(server.seen[1]?.body).toMatchObject({
      response_format: { type: 'json_schema' },
      structured_outputs: { json: schema },
      guided_json: schema,
    });
  });
});

describe('an Ollama that takes no schema as `format`', () => {
  it('is asked again with format "json", and from then on', async () => {
    server.handler = (_q, res, _n, body) =>
      typeof body.format === 'object'
        ? reply('application/json', JSON.stringify({ error: 'invalid format: expected "json"' }), 400)(res)
        : reply('application/x-ndjson', ollamaNdjson)(res);
    const provider = new OllamaProvider({ baseURL: server.url, model: 'm', maxRetries: 0 });
    try {
      const a = await provider.complete(request());
      expect(JSON.parse(a.text ?? '')).toEqual(good);
      await provider.complete(request());
    } finally {
      await provider.close();
    }
    expect(server.seen.map((s) => s.body.format === 'json')).toEqual([false, true, true]);
    expect(server.seen.map((s) => s.path)).toEqual(['/api/chat', '/api/chat', '/api/chat']);
  });
});
