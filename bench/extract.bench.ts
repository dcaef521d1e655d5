/**
 * Extract benchmark (no model call): for the pages of shared/bench/article-extraction, the tokens
 * the extract worker sends to the model per page (main-content markdown, cut to the token budget,
 * plus title/description/URL and the instruction) next to what sending the whole raw HTML would
 * cost, both counted by the same estimator (characters / 4, packages/llm/src/token-budget.ts);
 * and the per-request overhead of compiling the schema and validating the answer (µs).
 *
 *   pnpm bench:extract [--limit N] [--budget TOKENS] [--skip-pages]
 * Then extract-robustness.ts: long documents in chunks and the malformed-answer table.
 * BENCH_DIR overrides the benchmark folder (default: ../shared/bench next to the repo).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractEnv } from '../packages/config/src';
import { processHtml } from '../packages/content/src';
import {
  buildModelInput,
  compilePlainSchema,
  estimateTokens,
  SYSTEM_PROMPT,
  userMessage,
  validateAnswer,
} from '../packages/llm/src';
import { benchDataDir } from './bench-data';
import { robustnessBench } from './extract-robustness';

// Only the page report needs the data set; the robustness part runs without it.
const benchDir = process.argv.includes('--skip-pages') ? '' : benchDataDir(['article-extraction']);
const args = process.argv.slice(2);
const opt = (f: string): string | undefined => {
  const i = args.indexOf(f);
  return i >= 0 ? args[i + 1] : undefined;
};
const limit = Number(opt('--limit') ?? Number.POSITIVE_INFINITY);
const budget = Number(opt('--budget') ?? extractEnv.parse({}).EXTRACT_INPUT_TOKEN_BUDGET);

const SCHEMA = {
  title: 'string',
  author: 'string',
  publishedDate: 'string',
  summary: 'string',
  tags: ['string'],
  wordCount: 'number',
  isOpinion: 'boolean',
  links: [{ text: 'string', url: 'string' }],
};
const ANSWER = {
  title: 'A title',
  author: 'Ada',
  publishedDate: '2024-03-12',
  summary: 'Something happened.',
  tags: ['news', 'tech'],
  wordCount: 812,
  isOpinion: false,
  links: [{ text: 'source', url: 'https://example.com' }, { text: 'more' }],
};

function decode(buf: Buffer): string {
  const head = buf.subarray(0, 2048).toString('latin1');
  const m = /charset\s*=\s*["']?([\w-]+)/i.exec(head);
  try {
    return new TextDecoder((m?.[1] ?? 'utf-8').toLowerCase()).decode(buf);
  } catch {
    return buf.toString('utf8');
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function tokensPerPage() {
  const dir = path.join(benchDir, 'article-extraction');
  const ground = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url?: string }
  >;
  const ids = Object.keys(ground).slice(0, limit);
  const raw: number[] = [];
  const markdownAll: number[] = [];
  const page: number[] = [];
  const request: number[] = [];
  const cutUs: number[] = [];
  let truncated = 0;
  const schemaTokens = estimateTokens(JSON.stringify(compilePlainSchema(SCHEMA).jsonSchema));
  for (const id of ids) {
    const html = decode(gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`))));
    const url = ground[id]?.url ?? 'https://example.com/';
    const doc = processHtml(html, { url, onlyMainContent: true, formats: ['markdown'] });
    const t0 = process.hrtime.bigint();
    const input = buildModelInput(
      { url, title: doc.metadata.title, description: doc.metadata.description, markdown: doc.markdown },
      budget,
    );
    cutUs.push(Number(process.hrtime.bigint() - t0) / 1_000);
    if (input.truncated) truncated++;
    raw.push(estimateTokens(html));
    markdownAll.push(estimateTokens(doc.markdown));
    page.push(input.tokens);
    // Everything the model is sent: system prompt, instruction + page, the tool's schema.
    request.push(
      estimateTokens(SYSTEM_PROMPT) +
        estimateTokens(userMessage(undefined, false, input.text)) +
        schemaTokens,
    );
  }
  return { pages: ids.length, raw, markdownAll, page, request, cutUs, truncated };
}

function overheadUs() {
  // Cold: a schema never seen (compile to JSON Schema + ajv compile) + validation of one answer.
  const coldN = 300;
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < coldN; i++) {
    const compiled = compilePlainSchema({ ...SCHEMA, [`extra${i}`]: 'string' });
    validateAnswer(compiled, ANSWER);
  }
  const cold = Number(process.hrtime.bigint() - t0) / 1_000 / coldN;
  // Warm: the same schema again (both caches hit), as for repeated requests.
  const warmN = 20_000;
  compilePlainSchema(SCHEMA);
  t0 = process.hrtime.bigint();
  for (let i = 0; i < warmN; i++) validateAnswer(compilePlainSchema(SCHEMA), ANSWER);
  const warm = Number(process.hrtime.bigint() - t0) / 1_000 / warmN;
  return { cold, warm };
}

async function main(): Promise<void> {
  if (!args.includes('--skip-pages')) pagesReport();
  await robustnessBench();
}

function pagesReport(): void {
  const r = tokensPerPage();
  const o = overheadUs();
  const ratio = mean(r.raw) / mean(r.request);
  console.log(
    `extract bench: ${r.pages} pages of article-extraction, budget ${fmt(budget)} tokens (estimate: chars/4)`,
  );
  console.log('');
  console.log('tokens per page                         mean      median');
  console.log(
    `  whole raw HTML                   ${fmt(mean(r.raw)).padStart(9)}   ${fmt(median(r.raw)).padStart(9)}`,
  );
  console.log(
    `  main-content markdown (uncut)    ${fmt(mean(r.markdownAll)).padStart(9)}   ${fmt(median(r.markdownAll)).padStart(9)}`,
  );
  console.log(
    `  page sent (header + cut markdown) ${fmt(mean(r.page)).padStart(8)}   ${fmt(median(r.page)).padStart(9)}`,
  );
  console.log(
    `  whole request (system+task+schema) ${fmt(mean(r.request)).padStart(7)}   ${fmt(median(r.request)).padStart(9)}`,
  );
  console.log(
    `  pages cut by the budget: ${r.truncated}/${r.pages}; raw HTML / request = ${ratio.toFixed(1)}x fewer tokens`,
  );
  console.log('');
  console.log('overhead per request (8-field schema incl. an array of objects)');
  console.log(`  compile + validate, new schema (cold)     ${o.cold.toFixed(1)} µs`);
  console.log(`  compile + validate, cached schema (warm)  ${o.warm.toFixed(1)} µs`);
  console.log(`  token-budget cut per page (mean)          ${mean(r.cutUs).toFixed(1)} µs`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
