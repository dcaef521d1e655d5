/**
 * POST /v1/extract with the self-hosted model servers end to end (gateway + extract worker in this
 * process, real PostgreSQL and Redis): Ollama's native API on a page far longer than the input
 * budget, its wanted values near the end (chunked, merged, the count in the response, 5 credits
 * once), vLLM answering weak-model text (fences, trailing commas, strings for numbers), and
 * llama.cpp's server named as operators write it (`LLM_PROVIDER=llama.cpp`) at a base URL without
 * a path (`/v1` added).
 */
import { createServer } from 'node:http';
import {
  type FakeLlmServer,
  type ListeningServer,
  LONG_DOC_SCHEMA,
  listenLocal,
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

describe('POST /v1/extract with self-hosted model servers', () => {
  let page: ListeningServer;
  let ollama: FakeLlmServer;
  let vllm: FakeLlmServer;
  let llamacpp: FakeLlmServer;
  let ollamaStack: Stack;
  let vllmStack: Stack;
  let llamacppStack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    const html = longHtml();
    page = await listenLocal(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      }),
    );
    [ollama, vllm, llamacpp] = await Promise.all([
      startFakeOllama(readPlanted),
      startFakeVllm(),
      startFakeLlamaCpp(),
    ]);
    const common = { BROWSER_ENABLED: 'false', EXTRACT_MODEL_MAX_RETRIES: '0' };
    [ollamaStack, vllmStack, llamacppStack] = await Promise.all([
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
        },
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
    await Promise.all([ollamaStack?.close(), vllmStack?.close(), llamacppStack?.close()]);
    await Promise.all([page?.close(), ollama?.close(), vllm?.close(), llamacpp?.close()]);
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
