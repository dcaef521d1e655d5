/**
 * Shared pieces of the markup-invariance property tests (markup-invariance*.test.ts): the
 * benchmark pages, the seeded rewrite plans and the check. See markup-invariance.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { cleanMarkdownForHash, processHtml } from '../index';
import { type RewritePlan, rewriteMarkup } from './markup-rewrite';

/**
 * The benchmark pages: by default the small sample vendored in test-data/bench-sample (20 articles,
 * 42 WCXB pages, licences beside them), so the tests run on any clone; BENCH_DIR points them at
 * the full sets (see that folder's README for where to get them).
 */
// Read here, not through @wcs/config: packages/content imports nothing of ours but @wcs/errors.
export const BENCH = process.env.BENCH_DIR ?? path.resolve(__dirname, '../../test-data/bench-sample');
export const SEED = 20261123;
export const REWRITES_PER_PAGE = 3;
export const WCXB_SAMPLE = 300;

export interface Page {
  id: string;
  url: string;
  html: string;
}

/** Bytes to string: the charset a page declares in its first 2 KB, else UTF-8 (as the bench). */
function decode(buf: Buffer): string {
  const m = /charset\s*=\s*["']?([\w-]+)/i.exec(buf.subarray(0, 2048).toString('latin1'));
  try {
    return new TextDecoder((m?.[1] ?? 'utf-8').toLowerCase()).decode(buf);
  } catch {
    return buf.toString('utf8');
  }
}

export function articlePages(): Page[] {
  const dir = path.join(BENCH, 'article-extraction');
  const ground = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url?: string }
  >;
  return Object.keys(ground).map((id) => ({
    id: `article/${id.slice(0, 12)}`,
    url: ground[id]?.url ?? 'https://example.com/',
    html: decode(gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)))),
  }));
}

/** The fixed WCXB sample: every fifth file by name, 300 files (all of them when fewer: the vendored sample). */
export function wcxbSample(): string[] {
  const files = readdirSync(path.join(BENCH, 'wcxb-dev/dev', 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length <= WCXB_SAMPLE) return files;
  const step = Math.max(1, Math.floor(files.length / WCXB_SAMPLE));
  const out: string[] = [];
  for (let i = 0; i < files.length && out.length < WCXB_SAMPLE; i += step) out.push(files[i]!);
  return out;
}

/** Pages of the WCXB sample, or of its first (0) or second (1) half. */
export function wcxbPages(half?: 0 | 1): Page[] {
  const dir = path.join(BENCH, 'wcxb-dev/dev');
  const sample = wcxbSample();
  const mid = Math.ceil(sample.length / 2);
  const files = half === undefined ? sample : half === 0 ? sample.slice(0, mid) : sample.slice(mid);
  const out: Page[] = [];
  for (const f of files) {
    const g = JSON.parse(readFileSync(path.join(dir, 'ground-truth', f), 'utf8')) as {
      url?: string;
      file_id?: string;
    };
    const id = String(g.file_id ?? f.replace(/\.json$/, ''));
    out.push({
      id: `wcxb/${id}`,
      url: g.url ?? 'https://example.com/',
      html: decode(gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)))),
    });
  }
  return out;
}

export const hashOf = (html: string, url: string): string =>
  cleanMarkdownForHash(processHtml(html, { url, formats: ['markdown'] }).markdown);

/** Mostly on: every kind of rewrite is exercised, in varying combinations. */
const usually = fc.oneof(
  { weight: 3, arbitrary: fc.constant(true) },
  { weight: 1, arbitrary: fc.constant(false) },
);
const planArb: fc.Arbitrary<RewritePlan> = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  classes: usually,
  ids: usually,
  dataAttrs: usually,
  styles: usually,
  syntax: usually,
  whitespace: usually,
  reflow: usually,
  comments: usually,
  wrappers: usually,
});

function firstDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++)
    if (la[i] !== lb[i])
      return `line ${i + 1}: ${JSON.stringify(la[i]?.slice(0, 160))} vs ${JSON.stringify(lb[i]?.slice(0, 160))}`;
  return 'equal';
}

export interface Outcome {
  pages: number;
  rewrites: number;
  failures: string[];
}

export function checkPages(pages: Page[], seedBase: number): Outcome {
  const failures: string[] = [];
  let rewrites = 0;
  pages.forEach((page, i) => {
    const base = hashOf(page.html, page.url);
    let detail = '';
    const result = fc.check(
      fc.property(planArb, (plan) => {
        rewrites++;
        const h = hashOf(rewriteMarkup(page.html, plan), page.url);
        if (h !== base) detail = firstDifference(base, h);
        return h === base;
      }),
      { seed: seedBase + i, numRuns: REWRITES_PER_PAGE, endOnFailure: true },
    );
    if (result.failed)
      failures.push(`${page.id} plan ${JSON.stringify(result.counterexample?.[0])}: ${detail}`);
  });
  return { pages: pages.length, rewrites, failures };
}

export function report(name: string, o: Outcome, ms: number): void {
  console.log(
    `markup invariance, ${name}: ${o.pages} pages, ${o.rewrites} rewrites checked, ${o.failures.length} failing, ${(ms / 1000).toFixed(1)} s`,
  );
}
