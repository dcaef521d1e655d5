/**
 * The large-page part of `pnpm bench:scrape` alone: `POST /v1/scrape` of the real article page
 * closest to 600 KB against a raw undici fetch of it, alternating, one at a time
 * (bench/large-page-latency.ts), with a gateway and a scrape worker started as processes. A few
 * scrapes of other pages warm the stack first (`--warm`, 10); `--runs` (30) measured pairs.
 * BENCH_CPU_PROF=<dir> writes a CPU profile of each service (bench-utils.ts, startService).
 *
 *   pnpm bench:large-page [--runs 30] [--warm 10]
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startArticleSite } from './article-site';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  startService,
  stopProcess,
  waitHealthy,
} from './bench-utils';
import { largePageLatency, largePageLines } from './large-page-latency';

const { values } = parseArgs({
  args: benchArgv(),
  options: {
    runs: { type: 'string', default: '30' },
    warm: { type: 'string', default: '10' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const WARM = Math.max(0, Number(values.warm));
const LARGE_PAGE_BYTES = 600 * 1024;

async function main(): Promise<void> {
  const site = await startArticleSite();
  const port = await freePort();
  const common = {
    DATABASE_URL: benchEnv.DATABASE_URL,
    REDIS_URL: benchEnv.REDIS_URL,
    QUEUE_PREFIX: `bench-large-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const worker = startService('scrape-worker', { ...common, WORKER_CONCURRENCY: '8' });
  const base = `http://127.0.0.1:${port}`;
  try {
    const { headers } = await benchAccount(100_000);
    await waitHealthy(base);
    const at = site.sizes.reduce(
      (best, b, i) =>
        Math.abs(b - LARGE_PAGE_BYTES) < Math.abs((site.sizes[best] ?? 0) - LARGE_PAGE_BYTES) ? i : best,
      0,
    );
    const url = site.urls[at] as string;
    for (let i = 0; i < WARM; i++) {
      const t0 = performance.now();
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${site.urls[i % site.urls.length]}?warm=${i}` }),
      });
      await r.body.text();
      // The stack's first scrape: each process's first query, script, request and page.
      if (i === 0)
        console.log(
          `first /v1/scrape after the start (a ${((site.sizes[0] ?? 0) / 1024).toFixed(0)} KB page): ` +
            `${(performance.now() - t0).toFixed(1)} ms; Server-Timing: ${String(r.headers['server-timing'] ?? '-')}`,
        );
    }
    const run = await largePageLatency(base, headers, { url, bytes: site.sizes[at] ?? 0 }, RUNS);
    for (const line of largePageLines(run)) console.log(line);
  } finally {
    await Promise.all([stopProcess(gateway), stopProcess(worker)]);
    await site.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
