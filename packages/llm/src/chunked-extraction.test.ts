/**
 * Pages longer than the input budget: extracted chunk by chunk through the fake OpenAI-compatible
 * server (a reader that answers with the planted values it was shown) and merged — values past
 * the budget are found, lists are joined and de-duplicated across the overlap, scalars are the
 * value written in its chunk (else the one most chunks agree on), EXTRACT_MAX_CHUNKS caps the calls
 * and says so, a failing chunk is retried once and then left out (reported), usage is counted.
 */
import {
  type FakeLlmServer,
  LONG_DOC_SCHEMA,
  longDocument,
  readPlanted,
  startFakeOpenAi,
  textSeenByModel,
} from '@wcs/testing';
import { mergeChunkAnswers } from './chunk-merger';
import { runExtraction } from './extractor';
import type { LlmProvider } from './llm-provider';
import { OpenAiProvider } from './openai.provider';
import { compilePlainSchema } from './schema-compiler';
import { splitIntoChunks } from './token-budget';

let fake: FakeLlmServer;
let provider: OpenAiProvider;
beforeAll(async () => {
  fake = await startFakeOpenAi(readPlanted);
  provider = new OpenAiProvider({ baseURL: `${fake.url}/v1`, model: 'reader', maxRetries: 0 });
});
afterAll(async () => {
  await provider.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.script(readPlanted);
});

const budget = 1_000; // tokens: ~4,000 characters per chunk
const markdown = longDocument(60_000, [
  { at: 0.1, line: 'Product: Kettle' },
  { at: 0.55, line: 'Product: Teapot' },
  { at: 0.97, line: 'Order number: ORD-991' },
  { at: 0.98, line: 'Total: 123.45' },
  { at: 0.99, line: 'Product: Kettle' },
]);
const page = { url: 'https://docs.test/long', title: 'A long page', markdown };
const base = { page, schema: LONG_DOC_SCHEMA, inputTokenBudget: budget, maxTokens: 256, timeoutMs: 5_000 };

describe('chunked extraction', () => {
  it('without chunks (maxChunks 1) the values near the end never reach the model', async () => {
    // The cut page holds none of them: nothing found, which is a failure, not an empty success.
    await expect(runExtraction(provider, { ...base, maxChunks: 1 })).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
    });
    expect(fake.requests).toHaveLength(2);
    expect(textSeenByModel(fake.requests[0]!)).not.toContain('ORD-991');
  });

  it('in chunks every value is found; lists joined and de-duplicated; the count is reported', async () => {
    const r = await runExtraction(provider, { ...base, maxChunks: 40, overlapTokens: 100 });
    expect(r.data).toEqual({ orderNumber: 'ORD-991', total: 123.45, products: ['Kettle', 'Teapot'] });
    expect(r.chunks).toBe(fake.requests.length);
    expect(r.chunks).toBeGreaterThan(10);
    expect(r.truncated).toBe(false);
    // Every chunk fits the budget (estimated chars/4 of the page text).
    for (const req of fake.requests) {
      const seen = textSeenByModel(req);
      expect(seen.slice(seen.lastIndexOf('<page>')).length / 4).toBeLessThanOrEqual(budget + 50);
    }
    expect(textSeenByModel(fake.requests[0]!)).toContain('one part of a longer page');
  });

  it('EXTRACT_MAX_CHUNKS caps the calls; what lies past the cap is reported as truncated', async () => {
    const r = await runExtraction(provider, { ...base, maxChunks: 3 });
    expect(fake.requests).toHaveLength(3);
    expect(r).toMatchObject({ chunks: 3, truncated: true, failedChunks: 0, data: { orderNumber: null } });
    expect(r.warning).toMatch(/only the first 3 \(EXTRACT_MAX_CHUNKS\) were read/);
  });

  it("a whole page read leaves no warning; usage is the provider's counts, else estimated", async () => {
    const r = await runExtraction(provider, { ...base, maxChunks: 40 });
    expect(r.warning).toBeUndefined();
    expect(r.estimatedTokens).toBe(false);
    // readPlanted reports 30 output tokens per call.
    expect(r.outputTokens).toBe(30 * r.attempts);
    fake.requests.length = 0;
    fake.script((req) => ({ ...readPlanted(req), usage: { input: 0, output: 0 } }));
    const est = await runExtraction(provider, { ...base, maxChunks: 40 });
    expect(est.estimatedTokens).toBe(true);
    const pages = fake.requests.reduce((n, req) => {
      const seen = textSeenByModel(req);
      return n + seen.length - seen.lastIndexOf('<page>');
    }, 0);
    expect(est.inputTokens).toBeGreaterThanOrEqual(Math.floor(pages / 4));
    expect(est.outputTokens).toBeGreaterThan(0);
  });

  it('a default repeated by many chunks does not outvote the value written in its chunk', async () => {
    // A weak model: every chunk without the order number answers a made-up one.
    fake.script((req) => {
      const r = readPlanted(req);
      const data = r.data as Record<string, unknown>;
      return { ...r, data: { ...data, orderNumber: data.orderNumber ?? 'ORD-0000', total: data.total ?? 0 } };
    });
    const r = await runExtraction(provider, { ...base, maxChunks: 40 });
    expect(r.chunks).toBeGreaterThan(10);
    expect(r.data).toMatchObject({ orderNumber: 'ORD-991', total: 123.45 });
  });

  it('a chunk whose answer stays invalid is left out; the others still count', async () => {
    fake.script((req, n) => (n === 0 || n === 1 ? { text: 'no idea' } : readPlanted(req)));
    const r = await runExtraction(provider, { ...base, maxChunks: 40 });
    expect(r.failedChunks).toBe(1);
    expect(r.data.orderNumber).toBe('ORD-991');
  });

  it('nothing found in any chunk is EXTRACTION_FAILED, not an empty success', async () => {
    fake.script(() => ({ data: { orderNumber: null, total: null, products: null } }));
    await expect(runExtraction(provider, { ...base, maxChunks: 40 })).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
    });
  });
});

describe('chunks at once (EXTRACT_CHUNK_CONCURRENCY) and a cancel', () => {
  /** The provider, counting the calls in flight. */
  const counting = () => {
    const c = { inFlight: 0, max: 0 };
    const wrapped: LlmProvider = {
      name: provider.name,
      model: provider.model,
      async complete(req) {
        c.inFlight++;
        c.max = Math.max(c.max, c.inFlight);
        try {
          return await provider.complete(req);
        } finally {
          c.inFlight--;
        }
      },
    };
    return { c, wrapped };
  };

  it('at most `concurrency` chunk calls at once; the merged answer is the same as one by one', async () => {
    const one = counting();
    const serial = await runExtraction(one.wrapped, { ...base, maxChunks: 40, concurrency: 1 });
    expect(one.c.max).toBe(1);
    const four = counting();
    const parallel = await runExtraction(four.wrapped, { ...base, maxChunks: 40, concurrency: 4 });
    expect(four.c.max).toBe(4);
    expect(parallel.chunks).toBeGreaterThan(4);
    expect(parallel.data).toEqual(serial.data);
    expect(parallel.data).toEqual({ orderNumber: 'ORD-991', total: 123.45, products: ['Kettle', 'Teapot'] });
    // The cost per chunk is unchanged: the same calls and tokens, only sooner.
    expect([parallel.attempts, parallel.inputTokens]).toEqual([serial.attempts, serial.inputTokens]);
  });

  it('a provider that runs one call at a time (the embedded model) gets its chunks one by one', async () => {
    const one = counting();
    const single: LlmProvider = { ...one.wrapped, maxConcurrency: 1, complete: one.wrapped.complete };
    const r = await runExtraction(single, { ...base, maxChunks: 40, concurrency: 4 });
    expect(r.chunks).toBeGreaterThan(4);
    expect(one.c.max).toBe(1);
  });

  it('a cancel starts no further chunk and stops the calls in flight', async () => {
    let arrived!: () => void;
    const twoArrived = new Promise<void>((r) => {
      arrived = r;
    });
    // Headers at once, then nothing: each call hangs until it is aborted.
    fake.script((_req, n) => {
      if (n === 1) arrived();
      return { data: {}, stallAfterPieces: 0 };
    });
    const controller = new AbortController();
    const running = runExtraction(provider, {
      ...base,
      maxChunks: 40,
      concurrency: 2,
      timeoutMs: 600_000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await twoArrived;
    const reason = new Error('cancelled by the caller');
    controller.abort(reason);
    expect(await running).toBe(reason);
    // Settled only once both calls in flight were aborted; no third chunk was asked for.
    expect(fake.requests).toHaveLength(2);
  });

  it('a failing chunk call is tried once more and, when it fails again, left out and reported', async () => {
    // Part 5 holds none of the planted values.
    const part5 = (req: Parameters<typeof readPlanted>[0]) =>
      /Part 5 of \d+ of the page/.test(textSeenByModel(req));
    fake.script((req) => (part5(req) ? { status: 500 } : readPlanted(req)));
    const r = await runExtraction(provider, { ...base, maxChunks: 40, concurrency: 3 });
    expect(fake.requests.filter(part5)).toHaveLength(2);
    expect(r.failedChunks).toBe(1);
    expect(r.truncated).toBe(false);
    expect(r.warning).toMatch(new RegExp(`^1 of ${r.chunks} chunks failed`));
    expect(r.data).toEqual({ orderNumber: 'ORD-991', total: 123.45, products: ['Kettle', 'Teapot'] });
  });

  it('a call that fails once is retried and its chunk counts', async () => {
    fake.script((req, n) => (n === 0 ? { status: 500 } : readPlanted(req)));
    const r = await runExtraction(provider, { ...base, maxChunks: 40 });
    expect(r.failedChunks).toBe(0);
    expect(r.attempts).toBe(r.chunks + 1);
    expect(r.warning).toBeUndefined();
  });

  it('every chunk failing is the error itself (a timeout stays a 504), after one retry each', async () => {
    fake.script(() => ({ status: 500 }));
    const err = await runExtraction(provider, { ...base, maxChunks: 3 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(/HTTP 500/) });
    expect(fake.requests).toHaveLength(6);
  });

  it('a rejected key stops every chunk: each would fail the same way', async () => {
    fake.script((_req, n) => (n === 0 ? { status: 401 } : { data: {}, stallAfterPieces: 0 }));
    const err = await runExtraction(provider, {
      ...base,
      maxChunks: 40,
      concurrency: 3,
      timeoutMs: 600_000,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringMatching(/rejected the key/),
    });
    expect(fake.requests).toHaveLength(3);
  });
});

describe('values the chunks disagree on, settled by one more call', () => {
  // Two order numbers, both written on the page: the verbatim rule keeps both.
  const twoOrders = {
    ...page,
    markdown: longDocument(60_000, [
      { at: 0.2, line: 'Order number: ORD-123' },
      { at: 0.97, line: 'Order number: ORD-991' },
      { at: 0.98, line: 'Total: 5' },
    ]),
  };
  const isArbiter = (req: Parameters<typeof readPlanted>[0]) =>
    textSeenByModel(req).includes('Different parts of one long page');

  it('the model picks among the candidates, seeing where each is written; one call, counted', async () => {
    fake.script((req) => (isArbiter(req) ? { data: { f1: 'ORD-991' } } : readPlanted(req)));
    const r = await runExtraction(provider, { ...base, page: twoOrders, maxChunks: 40 });
    expect(r.data).toMatchObject({ orderNumber: 'ORD-991', total: 5 });
    expect(r.settledFields).toBe(1);
    const arbiter = fake.requests.filter(isArbiter);
    expect(arbiter).toHaveLength(1);
    expect(r.attempts).toBe(r.chunks + 1);
    const seen = textSeenByModel(arbiter[0]!);
    expect(seen).toContain('"ORD-123" — written in: "…');
    expect(seen).toContain('Order number: ORD-991');
    // The answer is constrained to the candidates (or null).
    expect(JSON.stringify(arbiter[0]!.body)).toContain('"enum":["ORD-123","ORD-991",null]');
  });

  it('an answer outside the candidates, or a failed call, keeps the vote and the data', async () => {
    fake.script((req) => (isArbiter(req) ? { data: { f1: 'ORD-000' } } : readPlanted(req)));
    const outside = await runExtraction(provider, { ...base, page: twoOrders, maxChunks: 40 });
    expect(outside.settledFields).toBe(0);
    expect(['ORD-123', 'ORD-991']).toContain(outside.data.orderNumber);
    fake.script((req) => (isArbiter(req) ? { status: 500 } : readPlanted(req)));
    const failed = await runExtraction(provider, { ...base, page: twoOrders, maxChunks: 40 });
    expect(failed.settledFields).toBe(0);
    expect(failed.data.orderNumber).toBe(outside.data.orderNumber);
    expect(failed.failedChunks).toBe(0);
  });
});

describe('a provider that knows its context (the embedded model)', () => {
  it('chunks never exceed what its context holds, whatever the budget and the largest chunk', async () => {
    // 1,024 tokens: 256 for the answer, 128 reserve, 640 for the page.
    const small: LlmProvider = {
      name: 'local',
      model: 'small',
      contextTokens: async () => 1_024,
      complete: (req) => provider.complete(req),
    };
    const r = await runExtraction(small, { ...base, maxChunks: 4, maxChunkTokens: 8_000 });
    expect(r).toMatchObject({ chunks: 4, truncated: true });
    expect(fake.requests).toHaveLength(4);
    for (const req of fake.requests) {
      const seen = textSeenByModel(req);
      expect(seen.slice(seen.lastIndexOf('<page>')).length / 4).toBeLessThanOrEqual(640 + 50);
    }
  });
});

describe('chunks grow to fit the cap (EXTRACT_MAX_CHUNK_TOKENS)', () => {
  it('a page needing more than maxChunks chunks of the budget is read whole in larger chunks', async () => {
    const capped = await runExtraction(provider, { ...base, maxChunks: 4 });
    expect(capped).toMatchObject({ chunks: 4, truncated: true, data: { orderNumber: null } });
    fake.requests.length = 0;
    const grown = await runExtraction(provider, { ...base, maxChunks: 4, maxChunkTokens: 8_000 });
    expect(grown.chunks).toBeLessThanOrEqual(4);
    expect(grown.truncated).toBe(false);
    expect(grown.data).toEqual({ orderNumber: 'ORD-991', total: 123.45, products: ['Kettle', 'Teapot'] });
    for (const req of fake.requests) {
      const seen = textSeenByModel(req);
      expect(seen.slice(seen.lastIndexOf('<page>')).length / 4).toBeLessThanOrEqual(8_000 + 50);
    }
  });

  it('never past maxChunkTokens: a page too large for the cap at that size is still cut', () => {
    const s = splitIntoChunks(page, budget, 100, 4, 2_000);
    expect(s.chunkTokens).toBe(2_000);
    expect(s.chunks).toHaveLength(4);
    expect(s.needed).toBeGreaterThan(4);
    const fits = splitIntoChunks(page, budget, 100, 4, 100_000);
    expect(fits.needed).toBeLessThanOrEqual(4);
    expect(fits.chunkTokens).toBeGreaterThan(budget);
    expect(fits.chunks.join('\n')).toContain('ORD-991');
  });
});

describe('splitIntoChunks', () => {
  it('overlaps neighbours, keeps order, and never drops a block', () => {
    const md = Array.from({ length: 200 }, (_, i) =>
      i % 20 === 0 ? `## Section ${i}` : `Paragraph ${i} ${'x'.repeat(100)}`,
    ).join('\n\n');
    const s = splitIntoChunks({ url: 'u', markdown: md }, 500, 50, 100);
    expect(s.needed).toBe(s.chunks.length);
    const all = s.chunks.join('\n');
    for (let i = 0; i < 200; i++) expect(all).toContain(i % 20 === 0 ? `## Section ${i}` : `Paragraph ${i} `);
    // The start of chunk 2 repeats the end of chunk 1.
    const lastOfFirst = s.chunks[0]!.split('\n\n').at(-1)!;
    expect(s.chunks[1]).toContain(lastOfFirst);
    // Sections start a chunk when the previous one is at least three quarters full.
    expect(
      s.chunks
        .slice(1)
        .some((c) => /Part \d+ of \d+ of the page\.\n\n(Paragraph \d+ x+\n\n)*## Section/.test(c)),
    ).toBe(true);
  });
});

describe('mergeChunkAnswers', () => {
  const schema = compilePlainSchema({
    title: 'string',
    offers: [{ seller: 'string', price: 'number' }],
  }).jsonSchema;
  it('scalars by majority (earliest on a tie), list items folded when one is a partial of another', () => {
    const merged = mergeChunkAnswers(
      [
        { title: 'A', offers: [{ seller: 'Shop', price: null }] },
        {
          title: 'B',
          offers: [
            { seller: 'shop ', price: 5 },
            { seller: 'Other', price: 7 },
          ],
        },
        { title: 'B', offers: null },
        { title: null, offers: [] },
      ],
      schema,
    );
    expect(merged).toEqual({
      title: 'B',
      offers: [
        { seller: 'Shop', price: 5 },
        { seller: 'Other', price: 7 },
      ],
    });
    expect(mergeChunkAnswers([{ title: 'X' }, { title: 'Y' }], schema)).toMatchObject({ title: 'X' });
  });

  it('scalars written verbatim in their chunk win over a majority that is not on the page', () => {
    const priced = compilePlainSchema({ title: 'string', price: 'number', inStock: 'boolean' }).jsonSchema;
    const answers = [
      { title: 'Untitled', price: 0, inStock: true },
      { title: 'Untitled', price: 0, inStock: true },
      { title: 'Blue  Kettle', price: 1299, inStock: false },
    ];
    const texts = ['Reply #1: shipping news', 'Reply #2: the weather', 'The blue kettle costs 1,299.00 EUR'];
    // Booleans are never written as such: still the majority.
    expect(mergeChunkAnswers(answers, priced, texts)).toEqual({
      title: 'Blue  Kettle',
      price: 1299,
      inStock: true,
    });
    // Without the chunks' text, the majority.
    expect(mergeChunkAnswers(answers, priced)).toEqual({ title: 'Untitled', price: 0, inStock: true });
    // When none is written in its chunk: the majority; 12.5 is written as 12.50, not as 12.55.
    expect(
      mergeChunkAnswers([{ price: 3 }, { price: 3 }, { price: 12.5 }], priced, ['a', 'b', 'at 12.55']),
    ).toMatchObject({ price: 3 });
    expect(
      mergeChunkAnswers([{ price: 3 }, { price: 3 }, { price: 12.5 }], priced, ['a', 'b', 'at 12.50']),
    ).toMatchObject({ price: 12.5 });
    // Several written: the majority among them, the earliest on a tie.
    expect(
      mergeChunkAnswers([{ title: 'Guess' }, { title: 'A' }, { title: 'B' }, { title: 'B' }], priced, [
        'x',
        'A here',
        'B here',
        'B again',
      ]),
    ).toMatchObject({ title: 'B' });
  });
});
