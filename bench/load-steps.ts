/**
 * The load steps of `pnpm bench:load`: autocannon against POST /v1/scrape and POST
 * /v1/batch/scrape at one concurrency, the knee of a series, and the table printed for it.
 */
import autocannon from 'autocannon';
import { request } from 'undici';
import { percentile } from './bench-utils';

export interface StepRow {
  concurrency: number;
  /** Completed requests (scrape) or pages (batch). */
  count: number;
  /** Requests/s (scrape) or pages/s from first submit to last done (batch). */
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Share of requests (or pages) that failed: non-2xx, connection errors, timeouts, failed items. */
  errorRate: number;
}

export interface Target {
  base: string;
  headers: Record<string, string>;
  /** Page URLs on the local site, used round-robin. */
  urls: string[];
}

function latencies(ms: number[]): Pick<StepRow, 'p50' | 'p95' | 'p99'> {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

/** POST /v1/scrape for `seconds` with `concurrency` connections, each request another page. */
export function scrapeStep(t: Target, concurrency: number, seconds: number): Promise<StepRow> {
  let next = 0;
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${t.base}/v1/scrape`,
        method: 'POST',
        headers: t.headers,
        connections: concurrency,
        duration: seconds,
        // A scrape of a local page takes milliseconds; anything near this is an overload.
        timeout: 60,
        requests: [
          {
            setupRequest: (req) => {
              const url = t.urls[next++ % t.urls.length];
              return { ...req, body: JSON.stringify({ url }) };
            },
          },
        ],
      },
      (err, r) => {
        if (err) return reject(err);
        const total = r.requests.total + r.errors;
        const failed = r.non2xx + r.errors;
        resolve({
          concurrency,
          count: r.requests.total,
          perSecond: r.requests.total / (r.duration || seconds),
          ...latencies(times),
          errorRate: total === 0 ? 0 : failed / total,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

/**
 * Batch throughput: `concurrency` connections submit `batches` batches of `pages` URLs through
 * autocannon, then each batch is polled until `done`. pages/s = pages / (first submit → last
 * done); the latencies are per batch, submit → done (polling granularity 100 ms).
 */
export async function batchStep(
  t: Target,
  concurrency: number,
  pages: number,
  batches: number,
): Promise<StepRow> {
  let next = 0;
  const submitted: Array<{ id: string; at: number }> = [];
  const started = Date.now();
  await autocannon({
    url: `${t.base}/v1/batch/scrape`,
    method: 'POST',
    headers: t.headers,
    connections: concurrency,
    amount: batches,
    timeout: 60,
    requests: [
      {
        setupRequest: (req) => {
          const urls = Array.from({ length: pages }, () => t.urls[next++ % t.urls.length]);
          return { ...req, body: JSON.stringify({ urls }) };
        },
        onResponse: (status, body) => {
          if (status === 202) submitted.push({ id: (JSON.parse(body) as { id: string }).id, at: Date.now() });
        },
      },
    ],
  });
  const durations: number[] = [];
  let failedPages = 0;
  let lastDone = started;
  const pending = new Map(submitted.map((s) => [s.id, s.at]));
  const deadline = Date.now() + 10 * 60_000;
  while (pending.size > 0 && Date.now() < deadline) {
    for (const [id, at] of pending) {
      const res = await request(`${t.base}/v1/batch/scrape/${id}?limit=1`, { headers: t.headers });
      const b = (await res.body.json()) as { status?: string; failed?: number };
      if (b.status !== 'done') continue;
      const now = Date.now();
      pending.delete(id);
      durations.push(now - at);
      failedPages += b.failed ?? 0;
      lastDone = Math.max(lastDone, now);
    }
    if (pending.size > 0) await new Promise((res) => setTimeout(res, 100));
  }
  // Batches refused at submit count all their pages as failed; unfinished ones too.
  const lostPages = (batches - submitted.length + pending.size) * pages;
  const donePages = (submitted.length - pending.size) * pages - failedPages;
  return {
    concurrency,
    count: donePages,
    perSecond: donePages / Math.max(0.001, (lastDone - started) / 1000),
    ...latencies(durations),
    errorRate: (failedPages + lostPages) / (batches * pages),
  };
}

/**
 * The knee: the first concurrency after which throughput stops rising (no later step beats it by
 * 5 % or more, so one noisy dip does not end the climb) or p95 more than doubles at the next step;
 * the last step when neither happens.
 */
export function knee(rows: StepRow[]): number {
  for (let i = 0; i + 1 < rows.length; i++) {
    const a = rows[i]!;
    const laterBest = Math.max(...rows.slice(i + 1).map((r) => r.perSecond));
    if (laterBest < a.perSecond * 1.05 || rows[i + 1]!.p95 > 2 * a.p95) return a.concurrency;
  }
  return rows[rows.length - 1]?.concurrency ?? 1;
}

export function printSteps(title: string, unit: string, rows: StepRow[]): number {
  const k = knee(rows);
  console.log(`\n${title}`);
  console.log(`| concurrency | ${unit}/s | p50 ms | p95 ms | p99 ms | errors | n |`);
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const mark = r.concurrency === k ? ' ← knee' : '';
    console.log(
      `| ${r.concurrency}${mark} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${(r.errorRate * 100).toFixed(2)} % | ${r.count} |`,
    );
  }
  console.log(`knee: concurrency ${k}`);
  return k;
}
