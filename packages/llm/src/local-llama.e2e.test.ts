/**
 * The embedded provider end to end with the real node-llama-cpp (prebuilt CPU binary) and a tiny
 * GGUF with random weights written by the test: load, ChatML template from the file, grammar-
 * constrained decoding (the answer has the schema's shape, whatever the weights say), the token
 * limit, the context limit, the call's deadline, a cancel, and that the provider still works after
 * both. Runs in a child process (test-support/local-llama-child.ts): node-llama-cpp is ESM with
 * top-level await, which jest's module sandbox cannot import.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

interface Failure {
  name: string;
  code?: string;
  message: string;
}
/** What test-support/local-llama-child.ts observed (one JSON line). */
interface Observed {
  fatal?: Failure;
  modelBytes: number;
  chatWrapper: string;
  grammar: { text: string; outputTokens: number; inputTokens: number };
  extraction: { ok: boolean; data?: Record<string, unknown>; error?: Failure };
  contextTokens: number;
  longPage: { ok: boolean; chunks?: number; truncated?: boolean; pageTokens?: number; error?: Failure };
  limited: { text: string; outputTokens: number };
  overflow: Failure;
  timeout: Failure;
  cancel: Failure;
  after: { text: string };
  tokensPerSecond: number;
}

function runChild(): Promise<Observed> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'packages/llm/src/test-support/local-llama-child.ts'],
      { cwd: ROOT, maxBuffer: 10_000_000 },
      (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          done(JSON.parse(line) as Observed);
        } catch {
          fail(new Error(`child failed (${err?.message}): ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

function shapeOf(text: string): Record<string, string> {
  const v = JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      x === null
        ? 'null'
        : Array.isArray(x)
          ? x.every((i) => typeof i === 'string')
            ? 'string[]'
            : 'mixed[]'
          : typeof x,
    ]),
  );
}

/** node-llama-cpp is an optional dependency: where it is not installed there is nothing to run. */
function nodeLlamaCppMissing(): string | null {
  try {
    require.resolve('node-llama-cpp');
    return null;
  } catch (err) {
    return err instanceof Error ? (err.message.split('\n')[0] ?? 'not found') : String(err);
  }
}
const missing = nodeLlamaCppMissing();
if (missing) {
  console.warn(`local-llama e2e skipped: node-llama-cpp is not installed here (${missing})`);
}

(missing ? describe.skip : describe)('LLM_PROVIDER=local (node-llama-cpp, tiny random GGUF)', () => {
  let out: Observed;
  beforeAll(async () => {
    out = await runChild();
    if (out.fatal) throw new Error(JSON.stringify(out.fatal));
  }, 600_000);

  it('writes a model of a few hundred KB and loads it with its ChatML template', () => {
    expect(out.modelBytes).toBeGreaterThan(100_000);
    expect(out.modelBytes).toBeLessThan(2_000_000);
    expect(out.chatWrapper).toBe('ChatML');
  });

  it('the grammar forces the schema shape from random weights', () => {
    const shape = shapeOf(out.grammar.text);
    expect(Object.keys(shape)).toEqual(['name', 'price', 'inStock', 'tags']);
    expect(['string', 'null']).toContain(shape.name);
    expect(['number', 'null']).toContain(shape.price);
    expect(['boolean', 'null']).toContain(shape.inStock);
    expect(['string[]', 'null']).toContain(shape.tags);
    expect(out.grammar.outputTokens).toBeGreaterThan(0);
    expect(out.grammar.inputTokens).toBeGreaterThan(10);
  });

  it('through runExtraction: schema-shaped data, or EXTRACTION_FAILED when the noise holds nothing', () => {
    if (out.extraction.ok)
      expect(Object.keys(out.extraction.data ?? {})).toEqual(['name', 'price', 'inStock', 'tags']);
    else expect(out.extraction.error?.code).toBe('EXTRACTION_FAILED');
  });

  it('a long page is chunked to the loaded context, whatever the input budget', () => {
    expect(out.contextTokens).toBe(2_048);
    if (out.longPage.ok) {
      expect(out.longPage).toMatchObject({ chunks: 2, truncated: true });
    } else {
      // A random model may find nothing; never a prompt too large for the context (this model's
      // tiny vocabulary takes several tokens per 4 characters: the chunks are sized in its tokens).
      expect(out.longPage.error?.code).toBe('EXTRACTION_FAILED');
      expect(out.longPage.error?.message).not.toContain('does not fit');
    }
  });

  it('maxTokens bounds the answer', () => {
    expect(out.limited.outputTokens).toBeLessThanOrEqual(4);
    expect(() => JSON.parse(out.limited.text)).toThrow();
  });

  it('a prompt larger than the context is EXTRACTION_FAILED naming LLM_CONTEXT_TOKENS', () => {
    expect(out.overflow).toMatchObject({ code: 'EXTRACTION_FAILED' });
    expect(out.overflow.message).toContain('LLM_CONTEXT_TOKENS');
  });

  it("the call's deadline is a TimeoutError; the job's cancel keeps its own reason; then it still works", () => {
    expect(out.timeout).toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT' });
    expect(out.cancel).toMatchObject({ code: 'CANCELLED', message: 'cancelled by the caller' });
    expect(Object.keys(shapeOf(out.after.text))).toEqual(['name', 'price', 'inStock', 'tags']);
  });
});
