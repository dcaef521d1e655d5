/**
 * The soak of `pnpm bench:load`: POST /v1/scrape at a fixed concurrency for N minutes while the
 * RSS of every service process (with its children: a worker's Chromium) is sampled from
 * /proc/<pid>/status every `sampleSeconds`. Flat = the last sample at most 10 % above the first (a
 * leak grows to the end; a GC-timed peak in between is printed as "max" but does not fail it, and
 * memory given back is no failure).
 */
import type { ChildProcess } from 'node:child_process';
import { treeRssKb } from './bench-utils';
import { type StepRow, scrapeStep, type Target } from './load-steps';

export interface SoakResult {
  row: StepRow;
  /** Per process: RSS samples in MiB, the first at the start. */
  samples: Map<string, number[]>;
  flat: Map<string, boolean>;
}

export const FLAT_TOLERANCE = 0.1;

export async function soak(
  t: Target,
  processes: Map<string, ChildProcess>,
  opts: { concurrency: number; minutes: number; sampleSeconds: number },
): Promise<SoakResult> {
  const samples = new Map<string, number[]>([...processes.keys()].map((k) => [k, []]));
  let sampledAt = 0;
  const sample = () => {
    sampledAt = Date.now();
    for (const [name, child] of processes) {
      if (child.pid) samples.get(name)!.push(treeRssKb(child.pid) / 1024);
    }
  };
  sample();
  const timer = setInterval(sample, opts.sampleSeconds * 1000);
  let row: StepRow;
  try {
    row = await scrapeStep(t, opts.concurrency, Math.max(1, Math.round(opts.minutes * 60)));
  } finally {
    clearInterval(timer);
  }
  // The end of the run, unless the timer sampled it a moment ago.
  if (Date.now() - sampledAt > 1_000) sample();
  const flat = new Map<string, boolean>();
  for (const [name, xs] of samples) {
    const first = xs[0] ?? 0;
    flat.set(name, first > 0 && (xs[xs.length - 1] ?? 0) <= first * (1 + FLAT_TOLERANCE));
  }
  return { row, samples, flat };
}

export function printSoak(r: SoakResult, opts: { concurrency: number; minutes: number }): void {
  console.log(`\nsoak: /v1/scrape at concurrency ${opts.concurrency} for ${opts.minutes} min`);
  console.log(
    `  ${r.row.perSecond.toFixed(1)} req/s, p50 ${r.row.p50.toFixed(0)} ms, p95 ${r.row.p95.toFixed(0)} ms, p99 ${r.row.p99.toFixed(0)} ms, errors ${(r.row.errorRate * 100).toFixed(2)} % (${r.row.count} requests)`,
  );
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  console.log('| process | RSS samples (MiB) | last vs first | max vs first | flat within 10 % |');
  console.log('|---|---|---:|---:|---|');
  for (const [name, xs] of r.samples) {
    const first = xs[0] ?? 0;
    const last = xs[xs.length - 1] ?? 0;
    const rel = (x: number) => (first > 0 ? x / first - 1 : 0);
    console.log(
      `| ${name} | ${xs.map((x) => x.toFixed(0)).join(' → ')} | ${pct(rel(last))} | ${pct(rel(Math.max(...xs)))} | ${r.flat.get(name) ? 'yes' : 'NO'} |`,
    );
  }
}
