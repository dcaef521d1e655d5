/**
 * bench:extract, second part (through fake model servers on loopback, no real model):
 * - long inputs: a 300-page PDF (pdfkit → our PDF converter → markdown) and a 2 MB forum thread,
 *   wanted values planted near the end, extracted chunk by chunk by a fake model that answers with
 *   the planted values it was shown: found / planted, chunks, model calls, tokens sent, time —
 *   cut to the budget, in budget-sized chunks one at a time (the behaviour before chunks grew and
 *   ran in parallel), with the defaults (chunks grown to fit EXTRACT_MAX_CHUNKS, up to the openai
 *   provider's ceiling, EXTRACT_CHUNK_CONCURRENCY at once) and with no cap;
 * - malformed answers: every kind of MALFORMED_ANSWERS (the model giving it every time) and what
 *   the service returns — 200 with data, or 500 EXTRACTION_FAILED (refunded) — with the fixes used.
 */
import { extractEnv } from '../packages/config/src';
import { processHtml } from '../packages/content/src';
import { convertDocument } from '../packages/documents/src';
import { maxChunkTokensOf, OpenAiProvider, runExtraction, splitIntoChunks } from '../packages/llm/src';
import {
  type FakeLlmReply,
  LONG_DOC_SCHEMA,
  longDocument,
  longPdf,
  MALFORMED_ANSWERS,
  MALFORMED_SCHEMA,
  type RecordedLlmRequest,
  readPlanted,
  startFakeOpenAi,
} from '../packages/testing/src';

const defaults = extractEnv.parse({});
const WANTED = {
  orderNumber: 'ORD-7731',
  total: 4812.5,
  products: ['Blue Kettle', 'Tea Strainer', 'Copper Pot'],
};

interface LongCase {
  name: string;
  markdown: string;
}

async function longCases(): Promise<LongCase[]> {
  const pdf = await longPdf(300, {
    12: ['Product: Blue Kettle'],
    287: ['Product: Tea Strainer'],
    296: ['Order number: ORD-7731', 'Total: 4812.5'],
    299: ['Product: Copper Pot'],
  });
  const converted = await convertDocument({ bytes: pdf, kind: 'pdf', onlyMainContent: true });
  // The PDF's HTML through the same conversion a scraped document gets.
  const pdfMarkdown = processHtml(converted.html, {
    url: 'https://bench.test/report.pdf',
    onlyMainContent: false,
    formats: ['markdown'],
  }).markdown;
  const forum = longDocument(
    2_000_000,
    [
      { at: 0.05, line: 'Product: Blue Kettle' },
      { at: 0.9, line: 'Product: Tea Strainer' },
      { at: 0.97, line: 'Order number: ORD-7731' },
      { at: 0.98, line: 'Total: 4812.5' },
      { at: 0.995, line: 'Product: Copper Pot' },
    ],
    'forum',
  );
  return [
    { name: `300-page PDF (${(pdf.length / 1e6).toFixed(1)} MB)`, markdown: pdfMarkdown },
    { name: '2 MB forum thread', markdown: forum },
  ];
}

function found(data: Record<string, unknown> | undefined): number {
  if (!data) return 0;
  let n = 0;
  if (data.orderNumber === WANTED.orderNumber) n++;
  if (data.total === WANTED.total) n++;
  const products = Array.isArray(data.products) ? data.products : [];
  n += WANTED.products.filter((p) => products.includes(p)).length;
  return n;
}

interface LongRun {
  label: string;
  maxChunks: number;
  maxChunkTokens?: number;
  concurrency: number;
}

/** The simulated model's time to its first token: 50 ms + 10 µs per page token it reads. */
function slowReader(req: RecordedLlmRequest): FakeLlmReply {
  const reply = readPlanted(req);
  return { ...reply, firstTokenDelayMs: 50 + Math.round((reply.usage?.input ?? 0) / 100) };
}

export async function robustnessBench(): Promise<void> {
  const fake = await startFakeOpenAi(slowReader);
  const provider = new OpenAiProvider({ baseURL: `${fake.url}/v1`, model: 'fake-reader', maxRetries: 0 });
  const budget = defaults.EXTRACT_INPUT_TOKEN_BUDGET;
  const planted = 2 + WANTED.products.length;
  // The openai provider's chunk ceiling (a 32k-token context), as the extract-worker computes it.
  const maxChunkTokens = maxChunkTokensOf({ ...defaults, LLM_PROVIDER: 'openai' });
  const cap = defaults.EXTRACT_MAX_CHUNKS;
  const conc = defaults.EXTRACT_CHUNK_CONCURRENCY;
  const runs: LongRun[] = [
    { label: 'cut to the budget', maxChunks: 1, concurrency: 1 },
    { label: 'before: budget-sized, 1 at once', maxChunks: cap, concurrency: 1 },
    { label: `defaults: grown, ${conc} at once`, maxChunks: cap, maxChunkTokens, concurrency: conc },
    { label: `no cap, ${conc} at once`, maxChunks: 1_000, concurrency: conc },
  ];
  try {
    console.log('');
    console.log(
      `long inputs (budget ${budget} tokens, overlap ${defaults.EXTRACT_CHUNK_OVERLAP_TOKENS}, cap ${cap}, chunk ceiling ${maxChunkTokens}; fake model reading planted values, first token after 50 ms + 10 µs per page token)`,
    );
    console.log(
      '  document               markdown  run                              chunks  chunk tok  found  calls  tokens sent     ms',
    );
    for (const c of await longCases()) {
      const chars = c.markdown.length;
      for (const run of runs) {
        fake.requests.length = 0;
        const t0 = Date.now();
        const r = await runExtraction(provider, {
          schema: LONG_DOC_SCHEMA,
          page: { url: 'https://bench.test/long', title: c.name, markdown: c.markdown },
          inputTokenBudget: budget,
          maxTokens: 512,
          timeoutMs: 60_000,
          maxChunks: run.maxChunks,
          ...(run.maxChunkTokens ? { maxChunkTokens: run.maxChunkTokens } : {}),
          concurrency: run.concurrency,
          overlapTokens: defaults.EXTRACT_CHUNK_OVERLAP_TOKENS,
        }).catch(() => undefined);
        const ms = Date.now() - t0;
        const sent =
          r?.inputTokens ?? fake.requests.reduce((n, q) => n + JSON.stringify(q.body).length / 4, 0);
        const chunkTok =
          run.maxChunks === 1
            ? budget
            : splitIntoChunks(
                { url: 'https://bench.test/long', title: c.name, markdown: c.markdown },
                budget,
                defaults.EXTRACT_CHUNK_OVERLAP_TOKENS,
                run.maxChunks,
                run.maxChunkTokens,
              ).chunkTokens;
        console.log(
          `  ${c.name.padEnd(22)} ${`${(chars / 1e6).toFixed(2)} MB`.padStart(8)}  ${run.label.padEnd(31)}  ${String(r?.chunks ?? (run.maxChunks === 1 ? 1 : '-')).padStart(6)}  ${chunkTok.toLocaleString('en-US').padStart(9)}  ${`${found(r?.data)}/${planted}`.padStart(5)}  ${String(fake.requests.length).padStart(5)}  ${Math.round(sent).toLocaleString('en-US').padStart(11)}  ${String(ms).padStart(5)}${r ? '' : '  (EXTRACTION_FAILED: nothing found)'}`,
        );
      }
    }
    fake.script(readPlanted);
    console.log('');
    console.log('malformed answers (the model gives the same answer on the retry too)');
    console.log(
      '  kind                                   service returns                       calls  fixes',
    );
    for (const m of MALFORMED_ANSWERS) {
      fake.requests.length = 0;
      fake.script(() => ({ text: m.text }));
      const r = await runExtraction(provider, {
        schema: MALFORMED_SCHEMA,
        page: { url: 'https://bench.test/p', markdown: '# Blue Kettle\n\nPrice: 39.90 EUR' },
        inputTokenBudget: budget,
        maxTokens: 512,
        timeoutMs: 5_000,
      }).catch((e: unknown) => e as Error);
      const outcome =
        r instanceof Error
          ? `500 ${(r as { code?: string }).code ?? r.name} (refunded)`
          : `200 ${JSON.stringify(r.data).slice(0, 34)}`;
      const fixes = r instanceof Error ? '' : r.fixes.join(', ');
      console.log(
        `  ${m.kind.padEnd(38)} ${outcome.padEnd(38)} ${String(fake.requests.length).padStart(5)}  ${fixes}`,
      );
    }
    fake.script(readPlanted);
  } finally {
    await provider.close();
    await fake.close();
  }
}
