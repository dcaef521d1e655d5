/**
 * POST /v1/extract with the self-hosted model servers end to end (gateway + extract worker in this
 * process, real PostgreSQL and Redis): Ollama's native API on a page far longer than the input
 * budget, its wanted values near the end (chunked, merged, the count in the response, 5 credits
 * once), a 2 MB forum thread read whole on Ollama's default settings (num_ctx sized to the chunks),
 * a page past EXTRACT_MAX_CHUNKS and a chunk that keeps failing (200 with `truncated` / `warning`),
 * vLLM answering weak-model text (fences, trailing commas, strings for numbers), and llama.cpp's
 * server named as operators write it (`LLM_PROVIDER=llama.cpp`) at a base URL without a path
 * (`/v1` added).
 */
import { createServer } from 'node:http';
import {
  type FakeLlmServer,
  type ListeningServer,
  LONG_DOC_SCHEMA,
  listenLocal,
  longDocument,
  readPlanted,
  startFakeLlamaCpp,
  startFakeOllama,
  startFakeVllm,
} from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  lastTwoLedgerRows,
  type Stack,
  startStack,
  type TestAccount,
} from './harness';

function longHtml(): string {
  const paras: string[] = [];
  for (let i = 0; i < 300; i++) {
    if (i % 20 === 0) paras.push(`<h2>Chapter ${i / 20 + 1}</h2>`);
    paras.push(
      `<p>Paragraph ${i}: the shop keeps its records in order, every line checked twice by the staff of the archive.</p>`,
    );
    if (i === 40) paras.push('<p>Product: Kettle</p>');
    if (i === 290) paras.push('<p>Order number: ORD-4242</p><p>Total: 99.5</p><p>Product: Teapot</p>');
  }
  return `<!doctype html><html><head><title>Long report</title></head><body><main><article><h1>Long report</h1>${paras.join('')}</article></main></body></html>`;
}

/** The report three times over: past 20 chunks of 1,000 tokens, order number and total at the very end. */
function longerHtml(): string {
  const body = /<article>([\s\S]*)<\/article>/.exec(longHtml())?.[1] ?? '';
  const plain = body.replace(/<p>(Order number|Total):[^<]*<\/p>/g, '');
  return `<!doctype html><html><head><title>Longer report</title></head><body><main><article>${plain}${plain}${body}</article></main></body></html>`;
}

/** A forum thread of ~2 MB of text, the order number and total in a reply near its end. */
function forumHtml(): string {
  const md = longDocument(2_000_000, [
    { at: 0.96, line: 'Order number: ORD-7777' },
    { at: 0.97, line: 'Total: 42.5' },
  ]);
  const blocks = md
    .split('\n\n')
    .map((b) => (b.startsWith('#') ? `<h3>${b.replace(/^#+ /, '')}</h3>` : `<p>${b}</p>`));
  return `<!doctype html><html><head><title>Forum thread</title></head><body><main><article><h1>Forum thread</h1>${blocks.join('')}</article></main></body></html>`;
}

describe('POST /v1/extract with self-hosted model servers', () => {
  let page: ListeningServer;
  let ollama: FakeLlmServer;
  let ollamaDefault: FakeLlmServer;
  let vllm: FakeLlmServer;
  let llamacpp: FakeLlmServer;
  let ollamaStack: Stack;
  let ollamaDefaultStack: Stack;
  let vllmStack: Stack;
  let llamacppStack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    const pages: Record<string, string> = {
      '/report': longHtml(),
      '/longer': longerHtml(),
      '/forum': forumHtml(),
    };
    page = await listenLocal(
      createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(pages[req.url ?? ''] ?? pages['/report']);
      }),
    );
    [ollama, ollamaDefault, vllm, llamacpp] = await Promise.all([
      startFakeOllama(readPlanted),
      startFakeOllama(readPlanted),
      startFakeVllm(),
      startFakeLlamaCpp(),
    ]);
    const common = { BROWSER_ENABLED: 'false', EXTRACT_MODEL_MAX_RETRIES: '0' };
    [ollamaStack, ollamaDefaultStack, vllmStack, llamacppStack] = await Promise.all([
      startStack({
        worker: false,
        extractWorker: true,
        env: {
          ...common,
          LLM_PROVIDER: 'ollama',
          LLM_BASE_URL: ollama.url,
          LLM_MODEL: 'llama3.1:8b',
          EXTRACT_INPUT_TOKEN_BUDGET: '1000',
          EXTRACT_MAX_CHUNKS: '20',
          // Chunks stay at the budget: a page past 20 of them is cut (and says so).
          EXTRACT_MAX_CHUNK_TOKENS: '1000',
        },
      }),
      startStack({
        worker: false,
        extractWorker: true,
        // Ollama's defaults: nothing about chunks or context set.
        env: { ...common, LLM_PROVIDER: 'ollama', LLM_BASE_URL: ollamaDefault.url, LLM_MODEL: 'llama3.1:8b' },
      }),
      startStack({
        worker: false,
        extractWorker: true,
        env: { ...common, EXTRACT_PROVIDER: 'vllm', LLM_BASE_URL: `${vllm.url}/v1`, LLM_MODEL: 'qwen' },
      }),
      startStack({
        worker: false,
        extractWorker: true,
        env: { ...common, LLM_PROVIDER: 'llama.cpp', LLM_BASE_URL: llamacpp.url, LLM_MODEL: 'any' },
      }),
    ]);
    account = await createTestAccount({ plan: 'hobby', credits: 100 });
  });
  afterAll(async () => {
    await Promise.all([
      ollamaStack?.close(),
      ollamaDefaultStack?.close(),
      vllmStack?.close(),
      llamacppStack?.close(),
    ]);
    await Promise.all([
      page?.close(),
      ollama?.close(),
      ollamaDefault?.close(),
      vllm?.close(),
      llamacpp?.close(),
    ]);
  });
  beforeEach(() => {
    ollama.requests.length = 0;
    ollama.script(readPlanted);
  });

  it('ollama: values past the budget are found in chunks; chunks reported; 5 credits once', async () => {
    const before = await balanceOf(account.accountId);
    const res = await request(ollamaStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/report`, schema: LONG_DOC_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ orderNumber: 'ORD-4242', total: 99.5, products: ['Kettle', 'Teapot'] });
    expect(res.body.chunks).toBe(ollama.requests.length);
    expect(res.body.chunks).toBeGreaterThan(2);
    expect(res.body).toMatchObject({
      truncated: false,
      usage: {
        chunks: res.body.chunks,
        modelCalls: ollama.requests.length,
        failedChunks: 0,
        estimated: false,
        // readPlanted reports 30 output tokens per call.
        outputTokens: 30 * ollama.requests.length,
      },
    });
    expect(res.body.usage.inputTokens).toBeGreaterThan(0);
    expect(res.body.warning).toBeUndefined();
    expect(await balanceOf(account.accountId)).toBe(before - 5);
    for (const r of ollama.requests) {
      expect(r.path).toBe('/api/chat');
      expect((r.body.format as { required: string[] }).required).toEqual([
        'orderNumber',
        'total',
        'products',
      ]);
    }
  });

  it('ollama defaults: a 2 MB thread is read to its end, num_ctx sized to hold each chunk', async () => {
    const res = await request(ollamaDefaultStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/forum`, schema: LONG_DOC_SCHEMA, timeout: 300_000 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ orderNumber: 'ORD-7777', total: 42.5 });
    expect(res.body).toMatchObject({ truncated: false, usage: { failedChunks: 0 } });
    expect(res.body.warning).toBeUndefined();
    const calls = ollamaDefault.requests;
    expect(res.body.chunks).toBe(calls.length);
    expect(calls.length).toBeLessThanOrEqual(32);
    const asked = calls.map((r) => (r.body.options as { num_ctx: number; num_predict: number }).num_ctx);
    // One size for the page (Ollama reloads the model when it changes), above the old fixed 8,192,
    // within the default largest (32,768), and every chunk's prompt and answer fit in it.
    expect(new Set(asked).size).toBe(1);
    expect(asked[0]).toBeGreaterThan(8_192);
    expect(asked[0]).toBeLessThanOrEqual(32_768);
    for (const r of calls) {
      const promptTokens = Math.ceil(JSON.stringify(r.body.messages).length / 4);
      expect(promptTokens + (r.body.options as { num_predict: number }).num_predict).toBeLessThanOrEqual(
        asked[0] as number,
      );
    }
  });

  it('ollama: a page past EXTRACT_MAX_CHUNKS is a 200 that says it was cut', async () => {
    const res = await request(ollamaStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/longer`, schema: LONG_DOC_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ chunks: 20, truncated: true, usage: { chunks: 20 } });
    expect(res.body.warning).toMatch(/only the first 20 \(EXTRACT_MAX_CHUNKS\) were read/);
    // The values at the end were never read; the products near the start were.
    expect(res.body.data).toMatchObject({ orderNumber: null, total: null, products: ['Kettle', 'Teapot'] });
  });

  it('ollama: a chunk that keeps failing is left out and reported; the rest is merged', async () => {
    const part3 = (r: (typeof ollama.requests)[number]) =>
      JSON.stringify(r.body.messages).includes('Part 3 of');
    ollama.script((req) => (part3(req) ? { status: 500 } : readPlanted(req)));
    const before = await balanceOf(account.accountId);
    const res = await request(ollamaStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/report`, schema: LONG_DOC_SCHEMA });
    expect(res.status).toBe(200);
    expect(ollama.requests.filter(part3)).toHaveLength(2);
    expect(res.body.data).toMatchObject({ orderNumber: 'ORD-4242', total: 99.5 });
    expect(res.body).toMatchObject({ truncated: false, usage: { failedChunks: 1 } });
    expect(res.body.usage.modelCalls).toBe(ollama.requests.length);
    expect(res.body.warning).toMatch(/^1 of \d+ chunks failed/);
    expect(await balanceOf(account.accountId)).toBe(before - 5);
  });

  it('vllm: weak-model text is repaired and coerced; the schema travels as guided_json', async () => {
    vllm.script(() => ({
      text: 'Sure, here it is:\n```json\n{"orderNumber": "ORD-1", "total": "12.50", "products": "Kettle",}\n```',
    }));
    const res = await request(vllmStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/report`, schema: LONG_DOC_SCHEMA });
    expect(res.status).toBe(200);
    // The page is longer than the default budget too: every chunk got the same answer, merged.
    expect(res.body.data).toEqual({ orderNumber: 'ORD-1', total: 12.5, products: ['Kettle'] });
    expect(res.body.chunks).toBe(vllm.requests.length);
    expect(vllm.requests.at(-1)?.body.guided_json).toBeDefined();
  });

  it('vllm: an all-null answer is 500 EXTRACTION_FAILED and refunded', async () => {
    vllm.script(() => ({ text: '{"orderNumber": null, "total": null, "products": []}' }));
    const before = await balanceOf(account.accountId);
    const res = await request(vllmStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/report`, schema: LONG_DOC_SCHEMA });
    expect([res.status, res.body.code]).toEqual([500, 'EXTRACTION_FAILED']);
    expect(await balanceOf(account.accountId)).toBe(before);
    const [refund] = await lastTwoLedgerRows(account.accountId);
    expect(refund).toMatchObject({ amount: 5, reason: 'extract_refund' });
  });

  it('llamacpp (LLM_PROVIDER=llama.cpp, base without /v1): the schema travels as json_schema and response_format', async () => {
    llamacpp.script(() => ({ data: { orderNumber: 'ORD-7', total: 7, products: ['Kettle'] } }));
    const before = await balanceOf(account.accountId);
    const res = await request(llamacppStack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${page.url}/report`, schema: LONG_DOC_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ orderNumber: 'ORD-7', total: 7, products: ['Kettle'] });
    expect(res.body.chunks).toBe(llamacpp.requests.length);
    expect(await balanceOf(account.accountId)).toBe(before - 5);
    for (const r of llamacpp.requests) {
      expect(r.path).toBe('/v1/chat/completions');
      expect((r.body.json_schema as { required: string[] }).required).toEqual([
        'orderNumber',
        'total',
        'products',
      ]);
      expect(r.body.response_format).toEqual({ type: 'json_object', schema: r.body.json_schema });
      expect(r.body.stream).toBe(true);
    }
  });
});
