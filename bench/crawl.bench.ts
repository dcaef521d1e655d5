/**
 * Crawl benchmark against a local 2,000-page site (the tests' fixture site: articles linking to
 * each other, a sitemap listing all of them):
 *   - a plain concurrent undici loop fetching the same 2,000 pages (the floor),
 *   - POST /v1/crawl (maxPages 2000) to `done` with 1 crawl-worker process, then with 2,
 * reporting pages/s and the peak RSS of the crawl-worker processes (their children included) and
 * of the gateway. Each service runs as its own process, exactly as `pnpm start` runs them.
 * At the end, `bench/map.bench.ts` (map of a 50k-URL sitemap) runs when present.
 *
 *   pnpm bench:crawl [--pages 2000] [--concurrency 8] [--host-concurrency 16] [--no-map]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '@wcs/testing';
import { Agent, request } from 'undici';
import {
  benchAccount,
  benchEnv,
  freePort,
  pool,
  ROOT,
  startService,
  stopProcess,
  treeRssKb,
  waitHealthy,
} from './bench-utils';

const env = benchEnv;
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    'host-concurrency': { type: 'string', default: '16' },
    'no-map': { type: 'boolean', default: false },
  },
});
const PAGES = Number(values.pages);
const CONCURRENCY = Number(values.concurrency);
const HOST_CONCURRENCY = Number(values['host-concurrency']);

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: PAGES });
  const port = await freePort();
  const common = {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: `bench-crawl-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const workerEnv = {
    ...common,
    WORKER_CONCURRENCY: String(CONCURRENCY),
    CRAWL_HOST_CONCURRENCY: String(HOST_CONCURRENCY),
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  const rows: string[] = [];
  try {
    const { headers } = await benchAccount(100_000);
    await waitHealthy(base);

    // 1. The floor: a plain concurrent undici loop over the same pages.
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/article/${i}`);
    const agent = new Agent({ connections: HOST_CONCURRENCY });
    const t0 = performance.now();
    await pool(urls, HOST_CONCURRENCY, async (u) => {
      const r = await request(u, { dispatcher: agent });
      await r.body.text();
    });
    const rawSecs = (performance.now() - t0) / 1000;
    await agent.close();
    rows.push(
      `| plain undici loop (concurrency ${HOST_CONCURRENCY}) | ${PAGES} | ${(PAGES / rawSecs).toFixed(1)} | ${(rawSecs * 1000).toFixed(0)} | – |`,
    );

    // 2. The crawler with 1 and with 2 worker processes.
    for (const n of [1, 2]) {
      const workers = Array.from({ length: n }, () => startService('crawl-worker', workerEnv));
      let peakKb = 0;
      let gatewayPeakKb = 0;
      const sampler = setInterval(() => {
        peakKb = Math.max(
          peakKb,
          workers.reduce((s, w) => s + (w.pid ? treeRssKb(w.pid) : 0), 0),
        );
        if (gateway.pid) gatewayPeakKb = Math.max(gatewayPeakKb, treeRssKb(gateway.pid));
      }, 200);
      try {
        const started = performance.now();
        const res = await request(`${base}/v1/crawl`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            url: `${site.url}/article/0`,
            maxPages: PAGES,
            maxDepth: 3,
            includePaths: ['^/article/'],
          }),
        });
        const { id } = (await res.body.json()) as { id: string };
        let b = { status: 'pending', completed: 0, failed: 0, total: 0 };
        while (b.status !== 'done' && b.status !== 'failed') {
          await new Promise((r) => setTimeout(r, 200));
          const r = await request(`${base}/v1/crawl/${id}?limit=1`, { headers });
          b = (await r.body.json()) as typeof b;
        }
        const secs = (performance.now() - started) / 1000;
        rows.push(
          `| crawl, ${n} crawl-worker process${n > 1 ? 'es' : ''} (concurrency ${CONCURRENCY} each) | ${b.completed} done / ${b.failed} failed (${b.status}) | ${(b.completed / secs).toFixed(1)} | ${(secs * 1000).toFixed(0)} | workers ${(peakKb / 1024).toFixed(0)} MB, gateway ${(gatewayPeakKb / 1024).toFixed(0)} MB |`,
        );
      } finally {
        clearInterval(sampler);
        await Promise.all(workers.map(stopProcess));
      }
    }
  } finally {
    await stopProcess(gateway);
    await site.close();
  }
  console.log(`\nCrawl benchmark: ${PAGES}-page local site, per-host limit ${HOST_CONCURRENCY}\n`);
  console.log('| run | pages | pages/s | wall ms | peak RSS (incl. children) |');
  console.log('|---|---|---:|---:|---|');
  for (const r of rows) console.log(r);

  const mapBench = path.join(ROOT, 'bench/map.bench.ts');
  if (!values['no-map'] && existsSync(mapBench)) {
    console.log('\nMap (bench/map.bench.ts):');
    spawnSync(process.execPath, ['--import', 'tsx', mapBench], {
      stdio: 'inherit',
      cwd: ROOT,
      env: process.env,
    });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
