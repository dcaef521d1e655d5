/**
 * Weak-model answers through runExtraction against the fake OpenAI-compatible server: every kind
 * of MALFORMED_ANSWERS (the model giving that answer every time) ends as its expected data or as
 * EXTRACTION_FAILED; plus the parser, the coercions and the empty-answer rule on their own.
 */
import { ExtractionFailedError } from '@wcs/errors';
import {
  type FakeLlmServer,
  MALFORMED_ANSWERS,
  MALFORMED_SCHEMA,
  startFakeOpenAi,
  textSeenByModel,
} from '@wcs/testing';
import { isEmptyAnswer } from './answer-coercer';
import { parseModelText } from './answer-parser';
import { validateAnswer } from './answer-validator';
import { runExtraction } from './extractor';
import { OpenAiProvider } from './openai.provider';
import { compilePlainSchema } from './schema-compiler';

const page = {
  url: 'https://shop.test/p/1',
  title: 'Blue Kettle',
  markdown: '# Blue Kettle\n\nPrice: 39.90 EUR',
};
const base = { page, schema: MALFORMED_SCHEMA, inputTokenBudget: 2_000, maxTokens: 512, timeoutMs: 5_000 };

let fake: FakeLlmServer;
let provider: OpenAiProvider;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  provider = new OpenAiProvider({ baseURL: `${fake.url}/v1`, model: 'weak', maxRetries: 0 });
});
afterAll(async () => {
  await provider.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

describe('malformed answers, the same one every time', () => {
  it.each(MALFORMED_ANSWERS.map((m) => [m.kind, m] as const))('%s', async (_kind, m) => {
    fake.script(() => ({ text: m.text }));
    const r = await runExtraction(provider, base).catch((e: unknown) => e);
    if (m.expect.ok) {
      expect(r).not.toBeInstanceOf(Error);
      expect((r as { data: unknown }).data).toEqual(m.expect.data);
      expect(fake.requests).toHaveLength(1);
    } else {
      expect(r).toBeInstanceOf(ExtractionFailedError);
      expect(r).toMatchObject({ code: 'EXTRACTION_FAILED', status: 500 });
      // One repair turn, never more.
      expect(fake.requests).toHaveLength(2);
    }
  });
});

describe('repair turn', () => {
  it('a price with a unit goes back once with the error and the previous text; the fix is kept', async () => {
    fake.script((_r, n) =>
      n === 0
        ? { text: '{"name": "Blue Kettle", "price": "39.90 EUR", "inStock": true, "tags": []}' }
        : { text: '{"name": "Blue Kettle", "price": 39.9, "inStock": true, "tags": []}' },
    );
    const r = await runExtraction(provider, base);
    expect(r).toMatchObject({ attempts: 2, data: { price: 39.9 } });
    const second = textSeenByModel(fake.requests[1]!);
    expect(second).toContain('/price: must be number,null');
    expect(second).toContain('"39.90 EUR"');
  });

  it('an all-null answer is retried once and accepted when the retry finds values', async () => {
    fake.script((_r, n) =>
      n === 0
        ? { text: '{"name": null, "price": null, "inStock": null, "tags": null}' }
        : { text: '{"name": "Blue Kettle"}' },
    );
    const r = await runExtraction(provider, base);
    expect(r.data).toEqual({ name: 'Blue Kettle', price: null, inStock: null, tags: null });
    expect(textSeenByModel(fake.requests[1]!)).toContain('every field is null or empty');
  });

  it('prompt-only: an empty object is not a success either', async () => {
    fake.script(() => ({ text: '{}' }));
    await expect(
      runExtraction(provider, { ...base, schema: undefined, prompt: 'Summarise' }),
    ).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
    });
  });
});

describe('parseModelText', () => {
  it('names each fix it needed', () => {
    const r = parseModelText('Sure!\n```json\n{"a": 1,}\n```');
    expect(r).toEqual({ ok: true, value: { a: 1 }, fixes: ['fence', 'repaired'] });
  });
  it('takes the first balanced object when prose after it holds braces', () => {
    const r = parseModelText('{"a": "x}"} and {b}');
    expect(r).toMatchObject({ ok: true, value: { a: 'x}' } });
  });
  it('refuses text without JSON', () => {
    expect(parseModelText('no idea').ok).toBe(false);
  });
});

describe('coercions', () => {
  const schema = compilePlainSchema({ n: 'number', b: 'boolean', s: 'string', l: ['number'] });
  it('only the unambiguous ones', () => {
    const v = validateAnswer(schema, { n: ' -3.5 ', b: 'FALSE', s: 12, l: '7' });
    expect(v).toMatchObject({ ok: true, data: { n: -3.5, b: false, s: '12', l: [7] } });
    expect(validateAnswer(schema, { n: '1,234' }).ok).toBe(false);
    expect(validateAnswer(schema, { n: '12 EUR' }).ok).toBe(false);
    expect(validateAnswer(schema, { b: 'yes' }).ok).toBe(false);
  });
  it('isEmptyAnswer: false, 0 and a value in a list count as found', () => {
    expect(isEmptyAnswer({ a: null, b: [] })).toBe(true);
    expect(isEmptyAnswer({ a: false })).toBe(false);
    expect(isEmptyAnswer({ a: 0 })).toBe(false);
    expect(isEmptyAnswer({ a: [null, 'x'] })).toBe(false);
  });
});

describe('odd server shapes (OpenAI-compatible)', () => {
  const good = '{"name": "Blue Kettle", "price": 39.9, "inStock": true, "tags": ["tea"]}';
  const choice = (extra: Record<string, unknown>) => ({
    body: {
      choices: [{ index: 0, finish_reason: 'stop', ...extra }],
      usage: { prompt_tokens: 5, completion_tokens: 5 },
    },
  });
  it.each([
    [
      'the answer in a tool call',
      choice({
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ function: { name: 'x', arguments: good } }],
        },
      }),
    ],
    [
      'the answer in reasoning_content, content empty',
      choice({ message: { role: 'assistant', content: '', reasoning_content: good } }),
    ],
    ['a completions-style text', choice({ text: good })],
  ])('%s', async (_name, reply) => {
    fake.script(() => reply);
    const r = await runExtraction(provider, base);
    expect(r.data).toMatchObject({ name: 'Blue Kettle', price: 39.9 });
  });

  it('HTML instead of JSON, or no choices: EXTRACTION_FAILED naming the endpoint', async () => {
    fake.script(() => ({ body: { choices: [] } }));
    await expect(runExtraction(provider, base)).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
  });
});

describe('a server refusing the schema field', () => {
  it('a 400 naming response_format: asked again without it (and from then on), the answer parsed leniently', async () => {
    fake.script((req) =>
      req.body.response_format
        ? {
            status: 400,
            body: { error: { message: "'response_format' of type 'json_schema' is not supported" } },
          }
        : { text: 'Here you go: {"name": "Blue Kettle", "price": "39.90", "inStock": true, "tags": []}' },
    );
    // Its own provider: it remembers the refusal.
    const own = new OpenAiProvider({ baseURL: `${fake.url}/v1`, model: 'old-server', maxRetries: 0 });
    const r = await runExtraction(own, base);
    expect(r.data).toMatchObject({ name: 'Blue Kettle', price: 39.9 });
    expect(fake.requests.map((q) => q.body.response_format === undefined)).toEqual([false, true]);
    await runExtraction(own, base);
    await own.close();
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]?.body.response_format).toBeUndefined();
  });
});
