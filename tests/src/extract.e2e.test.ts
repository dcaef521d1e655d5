/**
 * POST /v1/extract end to end: gateway + extract worker in this process, real PostgreSQL and
 * Redis, the local fixture site as the target and local fake model servers spoken to by the real
 * @anthropic-ai/sdk (and the OpenAI-compatible client).
 */
import { createServer } from 'node:net';
import {
  type FakeLlmServer,
  type FixtureSite,
  startFakeAnthropic,
  startFakeOpenAi,
  startFixtureSite,
  textSeenByModel,
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

const HOME_SCHEMA = {
  title: 'string',
  author: { name: 'string', published: 'string' },
  approaches: [{ name: 'string', speed: 'string' }],
  price: 'number',
};
const HOME_ANSWER = {
  title: 'Understanding Web Content Extraction',
  author: { name: 'Ada Example', published: '12 March 2024' },
  approaches: [{ name: 'Readability', speed: 'fast' }, { name: 'Heuristics' }],
  // `price` left out: the page has none, so it must come back as null
};

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('POST /v1/extract (anthropic)', () => {
  let stack: Stack;
  let site: FixtureSite;
  let fake: FakeLlmServer;
  let account: TestAccount;

  beforeAll(async () => {
    [site, fake] = await Promise.all([startFixtureSite(), startFakeAnthropic()]);
    stack = await startStack({
      worker: false,
      extractWorker: true,
      env: {
        BROWSER_ENABLED: 'false',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: fake.url,
        EXTRACT_MODEL: 'claude-fake',
        EXTRACT_MODEL_MAX_RETRIES: '0',
        LLM_FIRST_TOKEN_TIMEOUT_MS: '3000',
        RATE_LIMIT_SCALE: '2',
      },
    });
    account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([site?.close(), fake?.close()]);
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const extract = (body: Record<string, unknown>, auth = account.auth) =>
    request(stack.url).post('/v1/extract').set(auth).send(body);

  it('nested schema + array of objects; missing fields are null; 5 credits; the model sees main content only', async () => {
    fake.script(() => ({ data: HOME_ANSWER, usage: { input: 400, output: 60 } }));
    const before = await balanceOf(account.accountId);
    const res = await extract({ url: `${site.url}/`, schema: HOME_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        title: 'Understanding Web Content Extraction',
        author: { name: 'Ada Example', published: '12 March 2024' },
        approaches: [
          { name: 'Readability', speed: 'fast' },
          { name: 'Heuristics', speed: null },
        ],
        price: null,
      },
      // The model's own counts; one call, the whole page read.
      usage: {
        inputTokens: 400,
        outputTokens: 60,
        modelCalls: 1,
        chunks: 1,
        failedChunks: 0,
        estimated: false,
      },
      truncated: false,
    });
    expect(await balanceOf(account.accountId)).toBe(before - 5);

    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.body.model).toBe('claude-fake');
    expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'record_extraction' });
    const seen = textSeenByModel(req);
    expect(seen).toContain('Extracting the main content of a web page');
    expect(seen).toContain(`URL: ${site.url}/`);
    expect(seen).toContain('Title: ');
    // boilerplate never reaches the model: navigation, cookie banner, footer, raw HTML
    for (const boiler of [
      'Fixture Journal',
      'Contact',
      'We use cookies',
      'Accept all',
      'All rights reserved',
      'Privacy',
      '<div',
      '<nav',
    ]) {
      expect(seen).not.toContain(boiler);
    }
  });

  it('an article page: its paragraphs reach the model, its navigation does not', async () => {
    fake.script(() => ({ data: { headline: 'x' } }));
    const res = await extract({ url: `${site.url}/article/3`, schema: { headline: 'string' } });
    expect(res.status).toBe(200);
    const seen = textSeenByModel(fake.requests[0]!);
    expect(seen).toContain('Article 3 is part');
    expect(seen).not.toMatch(/\bHome\b.*\bArticles\b.*\bAbout\b/s);
    expect(seen).not.toContain('We use cookies');
  });

  it('repairs an invalid model answer on the retry', async () => {
    fake.script((_r, n) => (n === 0 ? { data: { ...HOME_ANSWER, price: 'free' } } : { data: HOME_ANSWER }));
    const res = await extract({ url: site.url, schema: HOME_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body.data.price).toBeNull();
    expect(fake.requests).toHaveLength(2);
    expect(textSeenByModel(fake.requests[1]!)).toContain('/price: must be number,null');
  });

  it('prompt only: the JSON object the model chose', async () => {
    fake.script(() => ({ data: { summary: 'About extracting content', keyPoints: ['boilerplate'] } }));
    const res = await extract({ url: site.url, prompt: 'Summarise this page in one sentence' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ summary: 'About extracting content', keyPoints: ['boilerplate'] });
    expect(textSeenByModel(fake.requests[0]!)).toContain('Summarise this page in one sentence');
  });

  it.each([
    ['missing url', { schema: { a: 'string' } }, 'url'],
    ['invalid url', { url: 'http://', schema: { a: 'string' } }, 'url'],
    ['neither schema nor prompt', { url: 'https://example.com' }, 'schema'],
    [
      'a bad schema (path named)',
      { url: 'https://example.com', schema: { a: { b: ['date'] } } },
      'schema.a.b[0]',
    ],
  ])('400: %s, nothing charged', async (_name, body, inMessage) => {
    const before = await balanceOf(account.accountId);
    const res = await extract(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(inMessage);
    expect(await balanceOf(account.accountId)).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });

  // Failures after the charge: the status of the spec table, and the 5 credits come back.
  const refunded = async (body: Record<string, unknown>, status: number, code: RegExp) => {
    const before = await balanceOf(account.accountId);
    const res = await extract(body);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.code).toMatch(code);
    expect(await balanceOf(account.accountId)).toBe(before);
    const [refund, charge] = await lastTwoLedgerRows(account.accountId);
    expect(refund).toMatchObject({ amount: 5, reason: 'extract_refund' });
    expect(charge).toMatchObject({ amount: -5, reason: 'extract', reference: refund?.reference });
    return res;
  };

  it('400: the target domain does not exist (refused before the charge: no ledger rows)', async () => {
    const before = await lastTwoLedgerRows(account.accountId);
    const res = await extract({ url: 'http://no-such-host.invalid/', schema: { a: 'string' } });
    expect([res.status, res.body.code]).toEqual([400, 'DNS_RESOLUTION_FAILED']);
    expect(await lastTwoLedgerRows(account.accountId)).toEqual(before);
    expect(fake.requests).toHaveLength(0);
  });

  it('502: connection refused, blocked (403) and TLS errors (refunded, model never called)', async () => {
    await refunded(
      { url: `http://127.0.0.1:${await closedPort()}/`, schema: { a: 'string' } },
      502,
      /TARGET_UNREACHABLE/,
    );
    await refunded({ url: `${site.url}/403-blocked`, schema: { a: 'string' } }, 502, /TARGET_BLOCKED/);
    await refunded(
      { url: site.url.replace('http://', 'https://'), schema: { a: 'string' } },
      502,
      /TLS_ERROR|TARGET_UNREACHABLE/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('504: the target hangs, or the model is too slow (refunded)', async () => {
    await refunded({ url: `${site.url}/hang`, schema: { a: 'string' }, timeout: 5_000 }, 504, /TIMEOUT/);
    // The model starts answering, then stalls past the request's budget.
    fake.script(() => ({ data: { a: 'x' }, stallAfterPieces: 2 }));
    const res = await refunded({ url: site.url, schema: { a: 'string' }, timeout: 5_000 }, 504, /TIMEOUT/);
    expect(res.body.error).toMatch(/model/);
    expect(res.body.error).not.toMatch(/LLM_FIRST_TOKEN_TIMEOUT_MS/);
  });

  it('504: the model accepts the request but sends no token: cut at LLM_FIRST_TOKEN_TIMEOUT_MS, not the budget (refunded)', async () => {
    // Headers and message_start at once, then nothing within the request's 60 s.
    fake.script(() => ({ data: { a: 'x' }, firstTokenDelayMs: 600_000 }));
    const res = await refunded({ url: site.url, schema: { a: 'string' }, timeout: 60_000 }, 504, /TIMEOUT/);
    expect(res.body.error).toMatch(/no token within 3000 ms \(LLM_FIRST_TOKEN_TIMEOUT_MS\)/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.stream).toBe(true);
  });

  it('500: the answer stays invalid after the retry, or the model provider fails (refunded)', async () => {
    // (A number where a string is wanted is coerced now; an object is not.)
    fake.script(() => ({ data: { a: { b: 12 } } }));
    await refunded({ url: site.url, schema: { a: 'string' } }, 500, /EXTRACTION_FAILED/);
    expect(fake.requests).toHaveLength(2);
    // An answer with nothing in it is no success either: retried once, then refunded.
    fake.requests.length = 0;
    fake.script(() => ({ data: { a: null } }));
    const empty = await refunded({ url: site.url, schema: { a: 'string' } }, 500, /EXTRACTION_FAILED/);
    expect(empty.body.error).toMatch(/found nothing/);
    expect(fake.requests).toHaveLength(2);
    fake.script(() => ({ status: 500 }));
    await refunded({ url: site.url, schema: { a: 'string' } }, 500, /EXTRACTION_FAILED/);
  });

  it('401, 402 and 429 as everywhere', async () => {
    expect((await extract({ url: site.url, prompt: 'x' }, { Authorization: 'Bearer wrong' })).status).toBe(
      401,
    );
    const poor = await createTestAccount({ plan: 'hobby', credits: 4 });
    const res = await extract({ url: site.url, prompt: 'x' }, poor.auth);
    expect(res.status).toBe(402);
    expect(await balanceOf(poor.accountId)).toBe(4);
    const limited = await createTestAccount({ plan: 'scale', credits: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await extract({ url: 'x' }, limited.auth)).status);
    expect(statuses).toEqual([400, 400, 429]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('POST /v1/extract (OpenAI-compatible provider, and no model configured)', () => {
  let site: FixtureSite;
  let fake: FakeLlmServer;
  let openai: Stack;
  let unconfigured: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    [site, fake] = await Promise.all([startFixtureSite(), startFakeOpenAi()]);
    const common = { BROWSER_ENABLED: 'false', EXTRACT_MODEL_MAX_RETRIES: '0' };
    [openai, unconfigured] = await Promise.all([
      startStack({
        worker: false,
        extractWorker: true,
        env: {
          ...common,
          EXTRACT_PROVIDER: 'openai',
          OPENAI_BASE_URL: `${fake.url}/v1`,
          EXTRACT_MODEL: 'llama-fake',
        },
      }),
      // No ANTHROPIC_API_KEY: the worker still starts; requests get a 503 naming the variable.
      startStack({ worker: false, extractWorker: true, env: common }),
    ]);
    account = await createTestAccount({ plan: 'hobby', credits: 100 });
  });
  afterAll(async () => {
    await Promise.all([openai?.close(), unconfigured?.close()]);
    await Promise.all([site?.close(), fake?.close()]);
  });

  it('openai: nested schema through chat completions with json_schema output', async () => {
    fake.script(() => ({ data: HOME_ANSWER }));
    const res = await request(openai.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: site.url, schema: HOME_SCHEMA });
    expect(res.status).toBe(200);
    expect(res.body.data.price).toBeNull();
    expect(res.body.data.approaches[1]).toEqual({ name: 'Heuristics', speed: null });
    const req = fake.requests[0]!;
    expect(req.body.model).toBe('llama-fake');
    expect((req.body.response_format as { type: string }).type).toBe('json_schema');
    expect(textSeenByModel(req)).not.toContain('We use cookies');
  });

  it('no model configured: 503 naming ANTHROPIC_API_KEY, refunded', async () => {
    expect(unconfigured.extractWorker?.modelConfigured).toBe(false);
    const before = await balanceOf(account.accountId);
    const res = await request(unconfigured.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: site.url, prompt: 'x' });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('MODEL_NOT_CONFIGURED');
    expect(res.body.error).toContain('ANTHROPIC_API_KEY');
    expect(await balanceOf(account.accountId)).toBe(before);
  });
});
