/**
 * `POST /v1/scrape` of one large real page against a raw undici fetch of the same page, in the same
 * run, one request at a time and alternating (raw, scrape, raw, scrape…) so a change in the
 * machine's load hits both alike: p50 of each, the service's overhead over the raw fetch, and the
 * median of each `Server-Timing` stage. Every scrape has its own query string, so the page cache
 * never answers.
 */
import { Agent, request } from 'undici';
import { median, percentile } from './bench-utils';
import { parseServerTiming, stageTable } from './server-timing';

export interface LargePageRun {
  url: string;
  bytes: number;
  rawP50: number;
  scrapeP50: number;
  scrapeP95: number;
  failures: number;
  /** Per request: the client's latency minus the worker's fetch and content stages, ms. */
  overheadP50: number;
  timings: Array<Map<string, number>>;
}

export async function largePageLatency(
  base: string,
  headers: Record<string, string>,
  page: { url: string; bytes: number },
  runs: number,
): Promise<LargePageRun> {
  const agent = new Agent({ connections: 1 });
  const raw: number[] = [];
  const scrape: number[] = [];
  const timings: Array<Map<string, number>> = [];
  let failures = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const r0 = performance.now();
      const r = await request(`${page.url}?raw=${i}`, { dispatcher: agent });
      await r.body.text();
      raw.push(performance.now() - r0);
      const s0 = performance.now();
      const s = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${page.url}?large=${i}`, formats: ['markdown'] }),
      });
      await s.body.text();
      scrape.push(performance.now() - s0);
      if (s.statusCode !== 200) failures++;
      timings.push(parseServerTiming(s.headers['server-timing']));
    }
  } finally {
    await agent.close();
  }
  const overhead = scrape.map(
    (ms, i) => ms - (timings[i]?.get('fetch') ?? 0) - (timings[i]?.get('content') ?? 0),
  );
  scrape.sort((a, b) => a - b);
  return {
    overheadP50: median(overhead),
    ...page,
    rawP50: median(raw),
    scrapeP50: median(scrape),
    scrapeP95: percentile(scrape, 95),
    failures,
    timings,
  };
}

export function largePageLines(run: LargePageRun): string[] {
  const med = (name: string) => median(run.timings.map((t) => t.get(name) ?? 0));
  const fetchMs = med('fetch');
  const contentMs = med('content');
  return [
    `POST /v1/scrape of one large real page (${(run.bytes / 1024).toFixed(0)} KB), ${run.timings.length} times ` +
      `at concurrency 1, alternating with a raw undici fetch of it (${run.failures} failed):`,
    `raw fetch p50 ${run.rawP50.toFixed(1)} ms; /v1/scrape p50 ${run.scrapeP50.toFixed(1)} ms (p95 ${run.scrapeP95.toFixed(1)}); ` +
      `Server-Timing medians: fetch ${fetchMs.toFixed(1)} ms (${(fetchMs / run.rawP50).toFixed(2)}× the raw fetch; target ≤ 1.3×), ` +
      `content ${contentMs.toFixed(1)} ms; service overhead beyond fetch + content (per request, p50) ` +
      `${run.overheadP50.toFixed(1)} ms (target ≤ 5 ms)`,
    ...stageTable(run.timings),
  ];
}
