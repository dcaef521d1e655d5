/**
 * Content pipeline benchmark: main-content F1 (article-extraction, WCXB dev) scored by the
 * benchmark's own score.mjs functions, and throughput next to whole-page turndown.
 *
 *   pnpm bench:content [--limit N] [--only article|wcxb] [--no-readability] [--no-turndown]
 *                      [--readability-wcxb] [--write-sample] [--no-pool] [--types product,listing]
 *                      [--baseline <rev> | --no-baseline] [--no-thread-start]
 * --types keeps the WCXB pages of those labelled types only (a quicker loop while working on a profile).
 * --baseline scores and times an earlier revision's compiled package beside the current one, in the
 * same run (content-baseline.ts); default: the commit before page-type-aware extraction.
 * The pool lines put the same pages through the content thread pool (what the workers run):
 * one at a time (the thread hop's per-page cost) and all at once (throughput with N threads), and
 * the caller's worst event-loop lag while the pool converts a 20 MB page.
 * The last section times a new content thread's first page, from the build's thread bundle and
 * from the compiled files (thread-start.ts).
 * BENCH_DIR overrides the benchmark folder (default: ../shared/bench next to the repo).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type * as Content from '../packages/content/src';
import { findFirst, parseHtml } from '../packages/content/src/dom/dom.util';
import { UrlResolver } from '../packages/content/src/dom/url.util';
import { extractMetadata, type PageHints } from '../packages/content/src/extract/metadata.extractor';
import { classifyPage, PAGE_TYPES } from '../packages/content/src/extract/page-type.classifier';
import { ContentPool } from '../packages/scraper/src';
import { heavyPages } from '../packages/scraper/src/test-support/heavy-pages';
import { benchDataDir, decodeBenchPage } from './bench-data';
import { type Baseline, loadBaseline } from './content-baseline';
import { threadStartLines } from './thread-start';

const repoRoot = path.resolve(__dirname, '..');
// Scored and timed as production runs it: the compiled package (`pnpm build`, which the script
// runs first), not tsx's on-the-fly transform of the sources (their exports stay getters).
const { processHtml } = require(path.join(repoRoot, 'packages/content/dist/index.js')) as typeof Content;
const benchDir = benchDataDir(['article-extraction', 'wcxb-dev', 'score.mjs']);
const outDir = path.join(repoRoot, 'bench/out');
const args = process.argv.slice(2);
const flag = (f: string): boolean => args.includes(f);
const opt = (f: string): string | undefined => {
  const i = args.indexOf(f);
  return i >= 0 ? args[i + 1] : undefined;
};
const limit = Number(opt('--limit') ?? Number.POSITIVE_INFINITY);
const only = opt('--only');
const types = opt('--types')?.split(',');
// The last commit before page-type-aware extraction: its targets are set against it.
const BEFORE_PAGE_TYPES = '8f86dc5';
const baselineRev = flag('--no-baseline') ? undefined : (opt('--baseline') ?? BEFORE_PAGE_TYPES);
type Process = typeof Content.processHtml;

interface Scorer {
  scoreArticle(
    ground: Record<string, { articleBody?: string }>,
    pred: Record<string, { articleBody: string }>,
  ): { f1: number; precision: number; recall: number; pages: number };
  wordF1(predicted: string, reference: string): [number, number, number];
}

interface Page {
  id: string;
  url: string;
  html: string;
  bytes: number;
}

function loadArticle(): { pages: Page[]; ground: Record<string, { articleBody?: string; url?: string }> } {
  const dir = path.join(benchDir, 'article-extraction');
  const ground = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { articleBody?: string; url?: string }
  >;
  const pages = Object.keys(ground)
    .slice(0, limit)
    .map((id) => {
      const buf = gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)));
      return {
        id,
        url: ground[id]?.url ?? 'https://example.com/',
        html: decodeBenchPage(buf),
        bytes: buf.length,
      };
    });
  return { pages, ground };
}

interface WcxbTruth {
  url?: string;
  file_id?: string;
  ground_truth?: { main_content?: string };
  _internal?: { page_type?: { primary?: string } };
}

function loadWcxb(): Array<Page & { type: string; truth: string }> {
  const dir = path.join(benchDir, 'wcxb-dev/dev');
  const files = readdirSync(path.join(dir, 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .slice(0, limit);
  const pages = files.map((f) => {
    const g = JSON.parse(readFileSync(path.join(dir, 'ground-truth', f), 'utf8')) as WcxbTruth;
    const id = String(g.file_id ?? f.replace(/\.json$/, ''));
    const buf = gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)));
    return {
      id,
      url: g.url ?? 'https://example.com/',
      html: decodeBenchPage(buf),
      bytes: buf.length,
      type: g._internal?.page_type?.primary ?? 'unknown',
      truth: g.ground_truth?.main_content ?? '',
    };
  });
  return types ? pages.filter((p) => types.includes(p.type)) : pages;
}

const textOf = (run: Process, p: Page): string => run(p.html, { url: p.url, formats: ['text'] }).text;

function readabilityText(p: Page): string {
  try {
    const { document } = parseHTML(p.html);
    const art = new Readability(document as unknown as Document).parse();
    return art?.textContent ?? '';
  } catch {
    return '';
  }
}

const f4 = (x: number): string => x.toFixed(4);

function timeIt(pages: Page[], fn: (p: Page) => void, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (const p of pages) fn(p);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return best;
}

/** A container of 20,000 loose boilerplate lines between paragraphs (pipeline-error.test.ts's page). */
function looseLinesLine(): void {
  const para = '<p>Some long paragraph text, with commas, and more words to make it count as prose here.</p>';
  const html = `<html><body><article><div>${`Advertisement<br>${para}`.repeat(20000)}</div></article></body></html>`;
  const t0 = process.hrtime.bigint();
  processHtml(html, { url: 'http://site.test/page', formats: ['markdown'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(
    `  20,000 loose boilerplate lines (${(html.length / 2 ** 20).toFixed(1)} MB), markdown   ${ms.toFixed(0)} ms`,
  );
}

/**
 * The caller's event loop while the pool converts a 20 MB page: its worst delay (the hand-off of the
 * string to the thread) next to the conversion's own time, which in-process would all be lag.
 */
async function poolLagLine(pool: ContentPool): Promise<void> {
  const body = heavyPages.twentyMb();
  const task = {
    body,
    contentType: 'text/html',
    finalUrl: 'http://site.test/page',
    sourceUrl: 'http://site.test/page',
    statusCode: 200,
    format: 'markdown' as const,
    onlyMainContent: true,
    links: false,
  };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const t0 = process.hrtime.bigint();
  await pool.run(task);
  const convertMs = Number(process.hrtime.bigint() - t0) / 1e6;
  delay.disable();
  const worstLagMs = delay.max / 1e6;
  console.log(
    `  content pool, 20 MB page: caller's event loop worst lag ${worstLagMs.toFixed(0)} ms while it converted in ${convertMs.toFixed(0)} ms (in-process the loop would be blocked that long)`,
  );
}

/** Content pool (worker threads) vs in-process: per-page overhead of the hop, and throughput. */
async function poolLines(pages: Page[], mb: number, tInProcess: number): Promise<void> {
  const threads = Math.max(2, Math.min(8, availableParallelism()));
  const pool = new ContentPool({ threads, idleTimeoutMs: 30_000, taskTimeoutMs: 60_000, heapMb: 1024 });
  const task = (p: Page) => ({
    body: p.html,
    contentType: 'text/html',
    finalUrl: p.url,
    sourceUrl: p.url,
    statusCode: 200,
    format: 'markdown' as const,
    onlyMainContent: true,
    links: false,
  });
  try {
    // Warm every thread (a cold one loads tsx and the pipeline): measured apart, it is a one-off.
    const tCold = process.hrtime.bigint();
    await Promise.all(pages.slice(0, threads).map((p) => pool.run(task(p))));
    const coldMs = Number(process.hrtime.bigint() - tCold) / 1e6;
    // …then one pass for the JIT, as the in-process figures above are warm too.
    await Promise.all(pages.map((p) => pool.run(task(p))));
    let t0 = process.hrtime.bigint();
    for (const p of pages) await pool.run(task(p));
    const tSeq = Number(process.hrtime.bigint() - t0) / 1e9;
    t0 = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: threads * 2 }, async () => {
        while (next < pages.length) await pool.run(task(pages[next++]!));
      }),
    );
    const tPar = Number(process.hrtime.bigint() - t0) / 1e9;
    const hopMs = ((tSeq - tInProcess) * 1000) / pages.length;
    console.log(
      `  content pool, one page at a time       ${(mb / tSeq).toFixed(1)} MB/s  ${((tSeq * 1000) / pages.length).toFixed(1)} ms/page  (thread hop +${hopMs.toFixed(1)} ms/page vs markdown+html+text in-process)`,
    );
    console.log(
      `  content pool, ${threads} threads, concurrent    ${(mb / tPar).toFixed(1)} MB/s  ${((tPar * 1000) / pages.length).toFixed(1)} ms/page  (x${(tInProcess / tPar).toFixed(2)} vs in-process; ${availableParallelism()} CPUs; first use of ${threads} cold threads ${coldMs.toFixed(0)} ms)`,
    );
    await poolLagLine(pool);
  } finally {
    await pool.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const scorer = (await import(pathToFileURL(path.join(benchDir, 'score.mjs')).href)) as Scorer;
  const baseline = openBaseline();
  if (only !== 'wcxb') await articleLines(scorer, baseline);
  if (only !== 'article') wcxbLines(scorer, baseline);
  if (!flag('--no-thread-start')) threadStartLines({ runs: 8, pages: 3 });
}

function openBaseline(): Baseline | undefined {
  if (!baselineRev) return undefined;
  try {
    return loadBaseline(repoRoot, baselineRev);
  } catch (e) {
    console.log(`baseline ${baselineRev}: not measured (${(e as Error).message.split('\n')[0]})`);
    return undefined;
  }
}

const before = (b: Baseline | undefined): string => (b ? `before (${b.commit})` : '');

async function articleLines(scorer: Scorer, baseline: Baseline | undefined): Promise<void> {
  const { pages, ground } = loadArticle();
  const subset = Object.fromEntries(pages.map((p) => [p.id, ground[p.id] ?? {}]));
  const pred = Object.fromEntries(pages.map((p) => [p.id, { articleBody: textOf(processHtml, p) }]));
  const predFile = path.join(outDir, 'article.json');
  writeFileSync(predFile, JSON.stringify(pred));
  const ours = scorer.scoreArticle(subset, pred);
  console.log(`article-extraction (${pages.length} pages)`);
  console.log(`  @wcs/content     F1 ${f4(ours.f1)}  P ${f4(ours.precision)}  R ${f4(ours.recall)}`);
  if (baseline) {
    const old = Object.fromEntries(
      pages.map((p) => [p.id, { articleBody: textOf(baseline.processHtml, p) }]),
    );
    const b = scorer.scoreArticle(subset, old);
    console.log(`  ${before(baseline).padEnd(16)} F1 ${f4(b.f1)}  P ${f4(b.precision)}  R ${f4(b.recall)}`);
  }
  if (pages.length === Object.keys(ground).length) {
    const check = execFileSync('node', [path.join(benchDir, 'score.mjs'), 'article', predFile])
      .toString()
      .trim();
    console.log(`  score.mjs on ${path.relative(repoRoot, predFile)}: ${check}`);
  }
  if (!flag('--no-readability')) {
    const rd = Object.fromEntries(pages.map((p) => [p.id, { articleBody: readabilityText(p) }]));
    const r = scorer.scoreArticle(subset, rd);
    console.log(`  Readability.js   F1 ${f4(r.f1)}  P ${f4(r.precision)}  R ${f4(r.recall)}  (linkedom)`);
  }

  const mb = pages.reduce((n, p) => n + p.bytes, 0) / 1e6;
  const mdWith =
    (run: Process) =>
    (p: Page): void =>
      void run(p.html, { url: p.url, formats: ['markdown'] });
  const md = mdWith(processHtml);
  const all = (p: Page): void =>
    void processHtml(p.html, { url: p.url, formats: ['markdown', 'html', 'text'] });
  md(pages[0]!);
  timeIt(pages, md, 1); // warm-up
  let tMd = Number.POSITIVE_INFINITY;
  let tOld = Number.POSITIVE_INFINITY;
  const mdOld = baseline ? mdWith(baseline.processHtml) : undefined;
  if (mdOld) timeIt(pages, mdOld, 1); // warm-up
  // Alternating rounds, best of each: a burst of load on the shared machine hits both alike.
  for (let r = 0; r < (mdOld ? 3 : 2); r++) {
    tMd = Math.min(tMd, timeIt(pages, md, 1));
    if (mdOld) tOld = Math.min(tOld, timeIt(pages, mdOld, 1));
  }
  const tAll = timeIt(pages, all, 1);
  console.log(`throughput on ${pages.length} article pages, ${mb.toFixed(1)} MB, warm, single thread`);
  console.log(
    `  @wcs/content markdown (main content)   ${(mb / tMd).toFixed(1)} MB/s  ${((tMd * 1000) / pages.length).toFixed(1)} ms/page`,
  );
  if (mdOld) {
    console.log(
      `  ${before(baseline)} markdown   ${(mb / tOld).toFixed(1)} MB/s  ${((tOld * 1000) / pages.length).toFixed(1)} ms/page  (after / before x${(tOld / tMd).toFixed(2)}, target >= 0.80; alternating rounds)`,
    );
  }
  console.log(`  @wcs/content markdown+html+text         ${(mb / tAll).toFixed(1)} MB/s`);
  looseLinesLine();
  if (!flag('--no-pool')) await poolLines(pages, mb, tAll);
  if (!flag('--no-turndown')) {
    const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    const turn = (p: Page): void => void td.turndown(p.html);
    timeIt(pages.slice(0, 20), turn, 1);
    const tTd = timeIt(pages, turn, 1);
    console.log(
      `  turndown, whole page                    ${(mb / tTd).toFixed(1)} MB/s  (x${(tTd / tMd).toFixed(1)} slower)`,
    );
  }
}

type WcxbPage = Page & { type: string; truth: string };
const TYPE_ORDER = [
  'overall',
  'article',
  'documentation',
  'service',
  'forum',
  'collection',
  'listing',
  'product',
];
const mean = (xs: number[] | undefined): number =>
  xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;

/** Word F1 of one pipeline over the pages: per labelled type (and 'overall', 'odd', 'even'). */
function scoreWcxb(
  scorer: Scorer,
  run: Process,
  pages: WcxbPage[],
  each?: (p: WcxbPage, text: string, pageType: string | undefined, f: [number, number, number]) => void,
): Map<string, number[]> {
  const byType = new Map<string, number[]>();
  const add = (k: string, f: number): void => void byType.set(k, [...(byType.get(k) ?? []), f]);
  for (const p of pages) {
    const out = run(p.html, { url: p.url, formats: ['text'] });
    const scored = scorer.wordF1(out.text, p.truth);
    add(p.type, scored[2]);
    add('overall', scored[2]);
    // Tune on one half, check on the other: odd ids / even ids.
    add(Number(p.id) % 2 ? 'odd' : 'even', scored[2]);
    each?.(p, out.text, out.metadata.pageType, scored);
  }
  return byType;
}

function wcxbLines(scorer: Scorer, baseline: Baseline | undefined): void {
  const pages = loadWcxb();
  const pred: Record<string, { text: string }> = {};
  const rdByType = new Map<string, number[]>();
  const withRd = flag('--readability-wcxb');
  const confusion = new Map<string, number>();
  // One row per page, for finding where a profile loses (bench/out/wcxb-pages.json).
  const rows: Array<{ id: string; type: string; predicted?: string; f1: number; p: number; r: number }> = [];
  const halves = { odd: { right: 0, all: 0 }, even: { right: 0, all: 0 } };
  const byType = scoreWcxb(scorer, processHtml, pages, (p, text, pageType, [precision, recall, f]) => {
    pred[p.id] = { text };
    rows.push({ id: p.id, type: p.type, predicted: pageType, f1: f, p: precision, r: recall });
    const half = halves[Number(p.id) % 2 ? 'odd' : 'even'];
    half.all++;
    if (pageType === p.type) half.right++;
    const cell = `${p.type} ${pageType ?? 'none'}`;
    confusion.set(cell, (confusion.get(cell) ?? 0) + 1);
    if (withRd) {
      const rf = scorer.wordF1(readabilityText(p), p.truth)[2];
      rdByType.set(p.type, [...(rdByType.get(p.type) ?? []), rf]);
      rdByType.set('overall', [...(rdByType.get('overall') ?? []), rf]);
    }
  });
  const old = baseline ? scoreWcxb(scorer, baseline.processHtml, pages) : undefined;
  writeFileSync(path.join(outDir, 'wcxb.json'), JSON.stringify(pred));
  writeFileSync(path.join(outDir, 'wcxb-pages.json'), JSON.stringify(rows));
  const head = baseline ? `  ${before(baseline)}` : '';
  console.log(`wcxb-dev (${pages.length} pages) word F1${withRd ? '  [Readability]' : ''}${head}`);
  for (const t of [...TYPE_ORDER, 'odd', 'even']) {
    const xs = byType.get(t);
    if (!xs) continue;
    const rd = withRd ? `  [${f4(mean(rdByType.get(t)))}]` : '';
    const was = old
      ? `  ${f4(mean(old.get(t)))}  (${mean(xs) - mean(old.get(t)) >= 0 ? '+' : ''}${f4(mean(xs) - mean(old.get(t)))})`
      : '';
    const label = t === 'odd' || t === 'even' ? `${t} ids` : t;
    console.log(`  ${label.padEnd(14)} ${f4(mean(xs))}  (${xs.length})${rd}${was}`);
  }
  reportPageTypes(pages, halves, confusion);
}

/** Page-type classifier (metadata.pageType) against WCXB's labels: accuracy per id half, confusion, cost. */
function reportPageTypes(
  pages: Array<Page & { type: string }>,
  halves: Record<'odd' | 'even', { right: number; all: number }>,
  confusion: Map<string, number>,
): void {
  const acc = (h: { right: number; all: number }) => (h.all ? h.right / h.all : 0).toFixed(3);
  const all = { right: halves.odd.right + halves.even.right, all: halves.odd.all + halves.even.all };
  console.log(
    `page-type classifier: accuracy ${acc(all)} (odd ids ${acc(halves.odd)}, even ids ${acc(halves.even)})`,
  );
  console.log(`  truth \\ predicted  ${PAGE_TYPES.map((t) => t.slice(0, 6).padStart(7)).join('')}   recall`);
  for (const t of PAGE_TYPES) {
    const row = PAGE_TYPES.map((p) => confusion.get(`${t} ${p}`) ?? 0);
    const n = row.reduce((a, b) => a + b, 0);
    const hit = confusion.get(`${t} ${t}`) ?? 0;
    console.log(
      `  ${t.padEnd(18)} ${row.map((v) => String(v).padStart(7)).join('')}   ${n ? (hit / n).toFixed(2) : '-'}`,
    );
  }
  // Its own cost: signals and scores on an already parsed page (the pipeline parses once).
  const parsed = pages.slice(0, 400).map((p) => {
    const doc = parseHtml(p.html);
    const hints: PageHints = { product: false };
    extractMetadata({ hints, doc, resolver: new UrlResolver(p.url), url: p.url });
    return { body: findFirst(doc, 'body'), url: p.url, declared: hints.declared };
  });
  for (const x of parsed) if (x.body && x.declared) classifyPage(x.body, x.url, x.declared); // warm-up
  const t0 = performance.now();
  for (const x of parsed) if (x.body && x.declared) classifyPage(x.body, x.url, x.declared);
  console.log(
    `  cost: ${((performance.now() - t0) / parsed.length).toFixed(3)} ms per page on top of the parse`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
