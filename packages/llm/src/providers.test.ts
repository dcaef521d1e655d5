/**
 * Both providers through runExtraction against local fake servers: the real @anthropic-ai/sdk
 * speaking the Messages API, and the OpenAI-compatible client speaking chat completions.
 */
import { extractEnv } from '@wcs/config';
import { ExtractionFailedError, ModelNotConfiguredError, TimeoutError } from '@wcs/errors';
import {
  type FakeLlmServer,
  startFakeAnthropic,
  startFakeLlamaCpp,
  startFakeOllama,
  startFakeOpenAi,
  startFakeVllm,
  textSeenByModel,
} from '@wcs/testing';
import { AnthropicProvider } from './anthropic.provider';
import { runExtraction } from './extractor';
import type { LlmProvider } from './llm-provider';
import { modelSummary } from './model-summary';
import { OllamaProvider, ollamaContext } from './ollama.provider';
import { OpenAiProvider } from './openai.provider';
import { maxChunkTokensOf, providerFromEnv } from './provider-from-env';
import { estimateTokens } from './token-budget';

const page = {
  url: 'https://shop.test/p/1',
  title: 'Blue Kettle',
  description: 'A kettle',
  markdown: '# Blue Kettle\n\nPrice: 39.90 EUR\n\nSold by Kettle World and Tea Land.',
};
const schema = { name: 'string', price: 'number', sellers: [{ name: 'string', rating: 'number' }] };
const good = {
  name: 'Blue Kettle',
  price: 39.9,
  sellers: [{ name: 'Kettle World' }, { name: 'Tea Land', rating: null }],
};
const base = { page, inputTokenBudget: 2_000, maxTokens: 512, timeoutMs: 5_000 };

describe.each([
  [
    'anthropic',
    startFakeAnthropic,
    (url: string) =>
      new AnthropicProvider({ apiKey: 'sk-test-secret', baseURL: url, model: 'claude-test', maxRetries: 0 }),
  ],
  [
    'openai',
    startFakeOpenAi,
    (url: string) => new OpenAiProvider({ baseURL: `${url}/v1`, model: 'llama-test', maxRetries: 0 }),
  ],
  [
    'ollama',
    startFakeOllama,
    (url: string) => new OllamaProvider({ baseURL: url, model: 'llama3.1:8b', maxRetries: 0 }),
  ],
  [
    'vllm',
    startFakeVllm,
    (url: string) =>
      new OpenAiProvider({ baseURL: `${url}/v1`, model: 'qwen', maxRetries: 0, flavor: 'vllm' }),
  ],
  [
    'llamacpp',
    startFakeLlamaCpp,
    (url: string) =>
      new OpenAiProvider({ baseURL: `${url}/v1`, model: 'any', maxRetries: 0, flavor: 'llamacpp' }),
  ],
] as const)('%s provider', (name, start, make) => {
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

  it('returns schema-shaped data (nested arrays of objects, missing -> null) and token usage', async () => {
    fake.script(() => ({ data: good, usage: { input: 321, output: 45 } }));
    const r = await runExtraction(provider, { ...base, schema });
    expect(r.data).toEqual({
      name: 'Blue Kettle',
      price: 39.9,
      sellers: [
        { name: 'Kettle World', rating: null },
        { name: 'Tea Land', rating: null },
      ],
    });
    expect(r).toMatchObject({ inputTokens: 321, outputTokens: 45, attempts: 1 });
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body;
    if (name === 'anthropic') {
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'record_extraction' });
      const tools = body.tools as Array<{ input_schema: { required: string[] } }>;
      expect(tools[0]?.input_schema.required).toEqual(['name', 'price', 'sellers']);
      const h = fake.requests[0]!.headers;
      expect(`${h['x-api-key'] ?? ''} ${h.authorization ?? ''}`).toContain('sk-test-secret');
    } else if (name === 'ollama') {
      expect(fake.requests[0]!.path).toBe('/api/chat');
      expect((body.format as { required: string[] }).required).toEqual(['name', 'price', 'sellers']);
      expect(body.options).toMatchObject({ temperature: 0, num_predict: 512 });
    } else if (name === 'llamacpp') {
      expect((body.json_schema as { required: string[] }).required).toEqual(['name', 'price', 'sellers']);
      // Current llama-server reads the schema from response_format; older ones from json_schema.
      expect(body.response_format).toEqual({ type: 'json_object', schema: body.json_schema });
    } else {
      if (name === 'vllm') {
        expect((body.guided_json as { required: string[] }).required).toEqual(['name', 'price', 'sellers']);
        expect(body.structured_outputs).toEqual({ json: body.guided_json });
      } else expect(body.guided_json).toBeUndefined();
      const rf = body.response_format as {
        type: string;
        json_schema: { strict: boolean; schema: { required: string[] } };
      };
      expect(rf.type).toBe('json_schema');
      expect(rf.json_schema.strict).toBe(true);
      expect(rf.json_schema.schema.required).toEqual(['name', 'price', 'sellers']);
    }
    expect(textSeenByModel(fake.requests[0]!)).toContain('Price: 39.90 EUR');
    // Every provider asks for a stream (the answer above came back in pieces).
    expect(body.stream).toBe(true);
  });

  it('repairs an invalid answer on the one retry, sending the validation errors back', async () => {
    fake.script((_req, n) => (n === 0 ? { data: { ...good, price: '39.90 EUR' } } : { data: good }));
    const r = await runExtraction(provider, { ...base, schema });
    expect(r.attempts).toBe(2);
    expect(r.data.price).toBe(39.9);
    expect(fake.requests).toHaveLength(2);
    const second = textSeenByModel(fake.requests[1]!);
    expect(second).toContain('/price: must be number,null');
    if (name === 'anthropic') {
      const msgs = fake.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
      expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(msgs[2]?.content)).toContain('"is_error":true');
    }
  });

  it('fails with EXTRACTION_FAILED (500) when the answer stays invalid', async () => {
    fake.script(() => ({ data: { name: 42, price: 'cheap', sellers: 'many' } }));
    await expect(runExtraction(provider, { ...base, schema })).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      status: 500,
    });
    expect(fake.requests).toHaveLength(2);
  });

  it('treats prose instead of structured output as invalid and retries', async () => {
    fake.script((_req, n) => (n === 0 ? { text: 'Sure! The kettle costs 39.90.' } : { data: good }));
    const r = await runExtraction(provider, { ...base, schema });
    expect(r.attempts).toBe(2);
  });

  it('prompt-only: any JSON object the model chose', async () => {
    fake.script(() => ({ data: { summary: 'a blue kettle for 39.90' } }));
    const r = await runExtraction(provider, { ...base, prompt: 'Summarise the product' });
    expect(r.data).toEqual({ summary: 'a blue kettle for 39.90' });
    expect(textSeenByModel(fake.requests[0]!)).toContain('Instruction: Summarise the product');
  });

  it('a slow model is a TimeoutError (504)', async () => {
    fake.script(() => ({ data: good, delayMs: 3_000 }));
    const err = await runExtraction(provider, { ...base, schema, timeoutMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('a provider error is EXTRACTION_FAILED (500)', async () => {
    fake.script(() => ({ status: 500 }));
    const err = await runExtraction(provider, { ...base, schema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
  });
});

describe('providerFromEnv', () => {
  const env = (vars: Record<string, string>) => extractEnv.parse(vars);
  it('without a key: no provider, and the error names the variable to set', () => {
    const a = providerFromEnv(env({}));
    expect(a.ok).toBe(false);
    if (!a.ok) {
      expect(a.error).toBeInstanceOf(ModelNotConfiguredError);
      expect(a.error.message).toContain('ANTHROPIC_API_KEY');
    }
    const o = providerFromEnv(env({ EXTRACT_PROVIDER: 'openai' }));
    expect(!o.ok && o.error.message).toContain('LLM_BASE_URL');
    const l = providerFromEnv(env({ LLM_PROVIDER: 'local' }));
    expect(!l.ok && l.error.message).toContain('LLM_MODEL_PATH');
    const m = providerFromEnv(env({ LLM_PROVIDER: 'local', LLM_MODEL_PATH: '/nonexistent/model.gguf' }));
    expect(!m.ok && m.error.message).toContain('/nonexistent/model.gguf');
  });
  it("the largest chunk: EXTRACT_MAX_CHUNK_TOKENS, else from the provider's context, never below the budget", () => {
    expect(maxChunkTokensOf(env({}))).toBe(100_000);
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'vllm' }))).toBe(24_000);
    // Ollama's largest num_ctx (32,768 unless LLM_CONTEXT_TOKENS) less the answer and the prompt.
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'ollama' }))).toBe(29_720);
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'ollama', LLM_CONTEXT_TOKENS: '16384' }))).toBe(13_336);
    // The embedded model's default context (8,192) less the same is below the budget (the
    // extractor then cuts chunks to the loaded context).
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'local' }))).toBe(6_000);
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'local', LLM_CONTEXT_TOKENS: '32768' }))).toBe(29_720);
    expect(maxChunkTokensOf(env({ LLM_PROVIDER: 'openai', EXTRACT_MAX_CHUNK_TOKENS: '12000' }))).toBe(12_000);
    expect(maxChunkTokensOf(env({ EXTRACT_MAX_CHUNK_TOKENS: '10', EXTRACT_INPUT_TOKEN_BUDGET: '800' }))).toBe(
      800,
    );
  });
  it('builds the configured provider', () => {
    const a = providerFromEnv(env({ ANTHROPIC_API_KEY: 'k' }));
    expect(a.ok && a.provider.name).toBe('anthropic');
    const o = providerFromEnv(
      env({ EXTRACT_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://x:1/v1', EXTRACT_MODEL: 'm' }),
    );
    expect(o.ok && o.provider.model).toBe('m');
  });
  it('LLM_PROVIDER (the alias) wins over EXTRACT_PROVIDER; LLM_BASE_URL and LLM_MODEL over the old names', () => {
    for (const p of ['ollama', 'vllm', 'llamacpp', 'openai'] as const) {
      const c = providerFromEnv(
        env({
          EXTRACT_PROVIDER: 'anthropic',
          LLM_PROVIDER: p,
          LLM_BASE_URL: 'http://m:1',
          LLM_MODEL: 'x',
          EXTRACT_MODEL: 'old',
        }),
      );
      expect(c.ok && [c.provider.name, c.provider.model]).toEqual([p, 'x']);
    }
    const old = providerFromEnv(
      env({ EXTRACT_PROVIDER: 'vllm', OPENAI_BASE_URL: 'http://m:1/v1', EXTRACT_MODEL: 'q' }),
    );
    expect(old.ok && old.provider.name).toBe('vllm');
  });

  it('provider names as operators write them map to ours, in any case; unknown names still fail', () => {
    const cases: Array<[string, string]> = [
      ['lmstudio', 'openai'],
      ['LM-Studio', 'openai'],
      ['openai-compatible', 'openai'],
      ['OpenAI_Compatible', 'openai'],
      ['llama.cpp', 'llamacpp'],
      ['llama-cpp', 'llamacpp'],
      ['Llama.CPP', 'llamacpp'],
      ['llama-server', 'llamacpp'],
      ['vLLM', 'vllm'],
      [' OLLAMA ', 'ollama'],
      ['Anthropic', 'anthropic'],
    ];
    for (const [written, ours] of cases) {
      expect([written, env({ LLM_PROVIDER: written }).LLM_PROVIDER]).toEqual([written, ours]);
      expect([written, env({ EXTRACT_PROVIDER: written }).EXTRACT_PROVIDER]).toEqual([written, ours]);
    }
    expect(env({ EXTRACT_PROVIDER: '' }).EXTRACT_PROVIDER).toBe('anthropic');
    expect(env({ LLM_PROVIDER: '' }).LLM_PROVIDER).toBeUndefined();
    expect(() => env({ LLM_PROVIDER: 'gpt-engine' })).toThrow();
    const c = providerFromEnv(env({ LLM_PROVIDER: 'llama.cpp', LLM_BASE_URL: 'http://m:1', LLM_MODEL: 'x' }));
    expect(c.ok && c.provider.name).toBe('llamacpp');
  });

  it("OLLAMA_HOST (Ollama's own form: host:port, a bind-all address, a URL) is the base for ollama without LLM_BASE_URL", async () => {
    expect(env({ OLLAMA_HOST: '0.0.0.0:11434' }).OLLAMA_HOST).toBe('http://127.0.0.1:11434');
    expect(env({ OLLAMA_HOST: 'ollama' }).OLLAMA_HOST).toBe('http://ollama:11434');
    expect(env({ OLLAMA_HOST: 'https://ollama.example' }).OLLAMA_HOST).toBe('https://ollama.example');
    expect(env({ OLLAMA_HOST: 'http://gpu:8080/' }).OLLAMA_HOST).toBe('http://gpu:8080');
    const fake = await startFakeOllama(() => ({ data: good }));
    const port = new URL(fake.url).port;
    const chosen = providerFromEnv(
      env({ LLM_PROVIDER: 'Ollama', OLLAMA_HOST: `127.0.0.1:${port}`, LLM_MODEL: 'llama3.1:8b' }),
    );
    try {
      expect(chosen.ok).toBe(true);
      if (!chosen.ok) return;
      const r = await runExtraction(chosen.provider, { ...base, schema });
      expect(r.data.name).toBe('Blue Kettle');
      expect(fake.requests.map((q) => q.path)).toEqual(['/api/chat']);
    } finally {
      if (chosen.ok) await chosen.provider.close?.();
      await fake.close();
    }
    // LLM_BASE_URL wins; other providers never read OLLAMA_HOST.
    const both = providerFromEnv(
      env({ LLM_PROVIDER: 'ollama', OLLAMA_HOST: 'a:1', LLM_BASE_URL: 'http://b:2', LLM_MODEL: 'm' }),
    );
    expect(both.ok).toBe(true);
    const vllm = providerFromEnv(env({ LLM_PROVIDER: 'vllm', OLLAMA_HOST: 'a:1', LLM_MODEL: 'm' }));
    expect(!vllm.ok && vllm.error.message).toContain('LLM_BASE_URL');
    // GET /v1/capabilities says the same.
    expect(modelSummary(env({ LLM_PROVIDER: 'ollama', OLLAMA_HOST: 'a:1', LLM_MODEL: 'm' }))).toEqual({
      configured: true,
      provider: 'ollama',
      model: 'm',
    });
    expect(modelSummary(env({ LLM_PROVIDER: 'vllm', OLLAMA_HOST: 'a:1', LLM_MODEL: 'm' })).configured).toBe(
      false,
    );
  });
});

describe("Ollama's num_ctx, sized per request", () => {
  it('a step of 4,096 above what the calls need, from 8,192 up to the largest allowed', () => {
    expect(ollamaContext(undefined, 32_768)).toBe(8_192);
    expect(ollamaContext(3_000, 32_768)).toBe(8_192);
    expect(ollamaContext(9_400, 32_768)).toBe(12_288);
    expect(ollamaContext(50_000, 32_768)).toBe(32_768);
    expect(ollamaContext(9_400, 4_096)).toBe(4_096);
  });

  it('every chunk of a long page asks the same num_ctx, and its prompt and answer fit in it', async () => {
    const fake = await startFakeOllama(() => ({ data: { name: 'Blue Kettle', price: 39.9, sellers: [] } }));
    const provider = new OllamaProvider({ baseURL: fake.url, model: 'llama3.1:8b', maxRetries: 0 });
    try {
      const short = await runExtraction(provider, { ...base, schema });
      expect(short.chunks).toBe(1);
      expect((fake.requests[0]!.body.options as { num_ctx: number }).num_ctx).toBe(8_192);
      fake.requests.length = 0;
      const markdown = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: ${'kettle '.repeat(40)}`).join(
        '\n\n',
      );
      const long = await runExtraction(provider, {
        ...base,
        schema,
        page: { ...page, markdown },
        inputTokenBudget: 6_000,
        maxTokens: 2_048,
        maxChunks: 32,
      });
      expect(long.chunks).toBeGreaterThan(2);
      const asked = fake.requests.map((r) => (r.body.options as { num_ctx: number }).num_ctx);
      expect(new Set(asked).size).toBe(1);
      // 6,000 page tokens + prompt + 2,048 answer: more than the 8,192 once asked of every request.
      expect(asked[0]).toBeGreaterThan(8_192);
      for (const r of fake.requests) {
        const prompt = estimateTokens(JSON.stringify(r.body.messages));
        expect(prompt + (r.body.options as { num_predict: number }).num_predict).toBeLessThanOrEqual(
          asked[0]!,
        );
      }
    } finally {
      await provider.close();
      await fake.close();
    }
  });
});
