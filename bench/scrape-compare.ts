/**
 * Service-side pieces of `pnpm bench:scrape`'s comparison: a batch over a page set to `done`, and
 * POST /v1/scrape latency at a given concurrency with each answer's `Server-Timing` parsed.
 */
import { request } from 'undici';
import { MAX_BATCH, percentile, pool } from './bench-utils';
import { parseServerTiming } from './server-timing';

export interface BatchRun {
  secs: number;
  completed: number;
  failed: number;
  status: string;
}

/**
 * POST /v1/batch/scrape with all `urls` (in batches of at most 500, started together), then
 * GET /v1/batch/scrape/:id every `pollMs` until each is finished; time from the first POST.
 */
export async function runBatch(
  base: string,
  headers: Record<string, string>,
  urls: string[],
  pollMs = 100,
): Promise<BatchRun> {
  const chunks: string[][] = [];
  for (let i = 0; i < urls.length; i += MAX_BATCH) chunks.push(urls.slice(i, i + MAX_BATCH));
  const t0 = performance.now();
  const ids = await Promise.all(
    chunks.map(async (chunk) => {
      const r = await request(`${base}/v1/batch/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ urls: chunk, formats: ['markdown'] }),
      });
      const b = (await r.body.json()) as { id?: string };
      if (r.statusCode !== 202 || !b.id)
        throw new Error(`batch start: HTTP ${r.statusCode} ${JSON.stringify(b)}`);
      return b.id;
    }),
  );
  const finals = await Promise.all(
    ids.map(async (id) => {
      for (;;) {
        await new Promise((r) => setTimeout(r, pollMs));
        const r = await request(`${base}/v1/batch/scrape/${id}?limit=1`, { headers });
        const b = (await r.body.json()) as { status: string; completed: number; failed: number };
        if (b.status !== 'pending' && b.status !== 'processing') return b;
      }
    }),
  );
  return {
    secs: (performance.now() - t0) / 1000,
    completed: finals.reduce((s, b) => s + b.completed, 0),
    failed: finals.reduce((s, b) => s + (b.failed ?? 0), 0),
    status: [...new Set(finals.map((b) => b.status))].join('/'),
  };
}

export interface LatencyRun {
  concurrency: number;
  pagesPerSec: number;
  p50: number;
  p95: number;
  failures: number;
  timings: Array<Map<string, number>>;
}

/** POST /v1/scrape (markdown) of every URL with at most `concurrency` in flight. */
export async function scrapeLatency(
  base: string,
  headers: Record<string, string>,
  urls: string[],
  concurrency: number,
): Promise<LatencyRun> {
  const lat: number[] = [];
  const timings: Array<Map<string, number>> = [];
  let failures = 0;
  const t0 = performance.now();
  await pool(urls, concurrency, async (u) => {
    const s = performance.now();
    const r = await request(`${base}/v1/scrape`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: u, formats: ['markdown'] }),
    });
    await r.body.text();
    lat.push(performance.now() - s);
    if (r.statusCode !== 200) failures++;
    timings.push(parseServerTiming(r.headers['server-timing']));
  });
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    concurrency,
    pagesPerSec: urls.length / secs,
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    failures,
    timings,
  };
}
