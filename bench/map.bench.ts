/**
 * Map benchmark: POST /v1/map of a local site whose robots.txt names a sitemap index of gzipped
 * files listing `--urls` (50,000) pages, plus start-page links and a shallow crawl. Gateway and
 * map worker run as their own processes; prints the time of each map (and the median), the URLs
 * returned, the peak RSS of the map worker, and — as the floor — the same sitemaps read in this
 * process by @wcs/discovery alone; then a map of a hostile site beside a small map on the same
 * worker: their times and the worker's event-loop delay (`--no-hostile` skips it).
 *
 *   pnpm bench:map [--urls 50000] [--files 5] [--runs 3] [--no-hostile]
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startMapSite } from '@wcs/testing';
import { request } from 'undici';
import { collectSitemapUrls } from '../packages/discovery/src';
import { createSafeDispatcher } from '../packages/net/src';
import { benchAccount, benchEnv, freePort, median, startService, waitHealthy } from './bench-utils';
import { hostileNeighbourLines } from './map-hostile-neighbour';

const env = benchEnv;
const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '50000' },
    files: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
    'no-hostile': { type: 'boolean', default: false },
  },
});
const URLS = Number(values.urls);
const FILES = Number(values.files);
const RUNS = Math.max(1, Number(values.runs));

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const site = await startMapSite({ sitemapUrls: URLS, sitemapFiles: FILES });
  const port = await freePort();
  const common = {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: `bench-map-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const worker = fork(path.join(__dirname, 'map-worker.process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...common },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let peakKb = 0;
  const sampler = setInterval(() => {
    if (worker.pid) peakKb = Math.max(peakKb, rssKb(worker.pid));
  }, 50);
  const base = `http://127.0.0.1:${port}`;

  try {
    const workerReady = new Promise<void>((resolve) => worker.once('message', () => resolve()));
    const { headers } = await benchAccount(1_000);
    await waitHealthy(base);
    await workerReady;
    const idleKb = worker.pid ? rssKb(worker.pid) : 0;

    const times: number[] = [];
    let returned = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = await request(`${base}/v1/map`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: site.url, max_urls: 100_000 }),
      });
      const body = (await r.body.json()) as { total?: number; code?: string };
      times.push(performance.now() - t0);
      if (r.statusCode !== 200) throw new Error(`map failed: ${r.statusCode} ${JSON.stringify(body)}`);
      returned = body.total ?? 0;
    }

    const dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 5_000 });
    const t1 = performance.now();
    const floor = await collectSitemapUrls([`${site.url}/sitemap-index.xml`], {
      dispatcher,
      userAgent: 'bench',
      timeoutMs: 60_000,
      maxUrls: 100_000,
    });
    const floorMs = performance.now() - t1;
    await dispatcher.close();

    console.log(`\nMap benchmark: ${URLS} sitemap URLs in ${FILES} gzipped files behind a sitemap index\n`);
    console.log('| what | ms | URLs |');
    console.log('|---|---:|---:|');
    times.forEach((t, i) => {
      console.log(`| POST /v1/map run ${i + 1}${i === 0 ? ' (cold)' : ''} | ${t.toFixed(0)} | ${returned} |`);
    });
    console.log(`| POST /v1/map median | ${median(times).toFixed(0)} | ${returned} |`);
    console.log(
      `| collectSitemapUrls alone (in-process floor) | ${floorMs.toFixed(0)} | ${floor.urls.length} |`,
    );
    console.log(
      `\nmap worker RSS: idle ${(idleKb / 1024).toFixed(0)} MB, peak ${(peakKb / 1024).toFixed(0)} MB`,
    );
    if (!values['no-hostile']) {
      console.log('');
      for (const line of await hostileNeighbourLines(base, headers, worker)) console.log(line);
    }
  } finally {
    clearInterval(sampler);
    gateway.kill('SIGTERM');
    worker.kill('SIGTERM');
    await site.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
