/**
 * Run by ../local-llama.e2e.test.ts in a child Node process (node-llama-cpp is ESM with top-level
 * await: jest's module sandbox cannot import it). Writes the tiny random GGUF, runs the scenarios
 * through the real LocalLlamaProvider and prints one JSON line of observations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyGguf } from '@wcs/testing';
import { runExtraction } from '../extractor';
import type { LlmRequest } from '../llm-provider';
import { LocalLlamaProvider } from '../local-llama.provider';
import { compilePlainSchema } from '../schema-compiler';

const errorOf = (e: unknown) => ({
  name: (e as Error).name,
  code: (e as { code?: string }).code,
  message: (e as Error).message,
});

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wcs-gguf-'));
  const modelPath = join(dir, 'tiny.gguf');
  const out: Record<string, unknown> = { modelBytes: writeTinyGguf(modelPath) };
  const provider = new LocalLlamaProvider({ modelPath, contextTokens: 2_048, threads: 1 });
  const schema = compilePlainSchema({
    name: 'string',
    price: 'number',
    inStock: 'boolean',
    tags: ['string'],
  });
  const req: LlmRequest = {
    system: 'You extract structured data from one web page.',
    user: 'Fill in the schema from the page.\n\n<page>\nBlue Kettle, 39.90 EUR, in stock.\n</page>',
    jsonSchema: schema.jsonSchema,
    freeForm: false,
    maxTokens: 200,
    timeoutMs: 120_000,
  };
  try {
    let t = Date.now();
    await provider.load();
    out.loadMs = Date.now() - t;
    t = Date.now();
    const a = await provider.complete(req);
    out.grammar = {
      text: a.text,
      outputTokens: a.outputTokens,
      inputTokens: a.inputTokens,
      ms: Date.now() - t,
    };
    out.chatWrapper = provider.chatWrapperName;
    // The whole extraction path (parse, validate; a random model may well find "nothing").
    out.extraction = await runExtraction(provider, {
      schema: { name: 'string', price: 'number', inStock: 'boolean', tags: ['string'] },
      page: { url: 'https://shop.test/p', markdown: 'Blue Kettle, 39.90 EUR, in stock.' },
      inputTokenBudget: 500,
      maxTokens: 200,
      timeoutMs: 120_000,
    }).then(
      (r) => ({ ok: true, data: r.data, attempts: r.attempts }),
      (e: unknown) => ({ ok: false, error: errorOf(e) }),
    );
    out.contextTokens = await provider.contextTokens();
    // A page far larger than the 2,048-token context with a budget (6,000) that would not fit it:
    // chunked to the loaded context, never a prompt the context cannot hold.
    out.longPage = await runExtraction(provider, {
      schema: { name: 'string', price: 'number' },
      page: { url: 'https://shop.test/long', markdown: 'Blue Kettle, 39.90 EUR.\n\n'.repeat(1_500) },
      inputTokenBudget: 6_000,
      maxTokens: 60,
      maxChunks: 2,
      maxChunkTokens: 24_000,
      timeoutMs: 120_000,
    }).then(
      (r) => ({ ok: true, chunks: r.chunks, truncated: r.truncated, pageTokens: r.pageTokens }),
      (e: unknown) => ({ ok: false, error: errorOf(e) }),
    );
    const limited = await provider.complete({ ...req, maxTokens: 4 });
    out.limited = { text: limited.text, outputTokens: limited.outputTokens };
    const big = 'word '.repeat(5_000);
    out.overflow = await provider.complete({ ...req, user: big }).then(() => null, errorOf);
    // A deadline shorter than evaluating a long prompt; then a cancel through the job's signal.
    const long = { ...req, user: `${req.user}\n${'kettle '.repeat(200)}` };
    out.timeout = await provider.complete({ ...long, timeoutMs: 30 }).then(() => null, errorOf);
    const ac = new AbortController();
    const cancelled = provider.complete({ ...long, signal: ac.signal });
    setImmediate(() => ac.abort(Object.assign(new Error('cancelled by the caller'), { code: 'CANCELLED' })));
    out.cancel = await cancelled.then(() => null, errorOf);
    // Still usable after both.
    const after = await provider.complete(req);
    out.after = { text: after.text };
    // Throughput with the grammar, for the report (not asserted).
    t = Date.now();
    const speed = await provider.complete({ ...req, freeForm: true, maxTokens: 150 });
    out.tokensPerSecond = Math.round((speed.outputTokens / Math.max(1, Date.now() - t)) * 1000);
  } finally {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((e: unknown) => {
  process.stdout.write(`${JSON.stringify({ fatal: errorOf(e) })}\n`);
  process.exitCode = 1;
});
