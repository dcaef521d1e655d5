/**
 * End-to-end scrape benchmark against a local static site (tests' fixture site):
 *   - a raw undici fetch loop over the same pages (the floor any scraper pays),
 *   - POST /v1/scrape at concurrency C (pages/s, p50/p95 latency),
 *   - one 500-URL batch (time to `done`, pages/s),
 * with the peak RSS of the gateway and of the scrape worker (its Chromium included), each run
 * as its own process exactly like `pnpm start` runs them.
 *
 *   pnpm bench:scrape [--pages 200] [--concurrency 8]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '@wcs/config';
import { AccountsRepository, ApiKeysRepository, createDb } from '@wcs/db';
import { startFixtureSite } from '@wcs/testing';
import { request } from 'undici';
import { z } from 'zod';

const ROOT = path.resolve(__dirname, '..');
const env = loadEnv(
  z.object({
    DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/wcs'),
    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  }),
);
const { values } = parseArgs({
  options: { pages: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '8' } },
});
const PAGES = Number(values.pages);
const CONCURRENCY = Number(values.concurrency);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i] as T);
      }
    }),
  );
}

/** RSS of a process and all its descendants (Chromium runs as children of the worker). */
function treeRssKb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      rss.set(Number(d), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // process went away while we looked
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function startService(name: string, extra: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(ROOT, 'services', name),
    env: { ...process.env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: Math.max(PAGES, 500) });
  const port = await freePort();
  const common = {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: `bench-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const worker = startService('scrape-worker', { ...common, WORKER_CONCURRENCY: String(CONCURRENCY) });
  const peaks = { gateway: 0, worker: 0 };
  const sampler = setInterval(() => {
    if (gateway.pid) peaks.gateway = Math.max(peaks.gateway, treeRssKb(gateway.pid));
    if (worker.pid) peaks.worker = Math.max(peaks.worker, treeRssKb(worker.pid));
  }, 100);
  const base = `http://127.0.0.1:${port}`;

  try {
    const db = createDb(env.DATABASE_URL);
    const account = await new AccountsRepository(db).create({ plan: 'scale', credits: 100_000 });
    const { apiKey } = await new ApiKeysRepository(db).create(account.accountId);
    await db.close();
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const ok = await request(`${base}/healthz`).then(
        (r) => r.statusCode === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/article/${i}`);

    // Warm-up: JIT, connections, worker start.
    await pool(urls.slice(0, 16), CONCURRENCY, async (u) => {
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: u }),
      });
      await r.body.text();
    });

    const rows: Array<[string, string, string, string]> = [];
    const measure = async (label: string, fn: (u: string) => Promise<void>) => {
      const lat: number[] = [];
      const t0 = performance.now();
      await pool(urls, CONCURRENCY, async (u) => {
        const s = performance.now();
        await fn(u);
        lat.push(performance.now() - s);
      });
      const secs = (performance.now() - t0) / 1000;
      lat.sort((a, b) => a - b);
      rows.push([
        label,
        (urls.length / secs).toFixed(1),
        percentile(lat, 50).toFixed(1),
        percentile(lat, 95).toFixed(1),
      ]);
    };

    await measure('raw undici fetch', async (u) => {
      const r = await request(u);
      await r.body.text();
    });
    let failures = 0;
    await measure('POST /v1/scrape', async (u) => {
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: u }),
      });
      await r.body.text();
      if (r.statusCode !== 200) failures++;
    });

    const batchUrls = Array.from({ length: 500 }, (_, i) => `${site.url}/article/${i}?b=1`);
    const t0 = performance.now();
    const started = await request(`${base}/v1/batch/scrape`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ urls: batchUrls }),
    });
    const { id } = (await started.body.json()) as { id: string };
    let status = '';
    let completed = 0;
    while (status !== 'done') {
      await new Promise((r) => setTimeout(r, 100));
      const r = await request(`${base}/v1/batch/scrape/${id}?limit=1`, { headers });
      const b = (await r.body.json()) as { status: string; completed: number };
      status = b.status;
      completed = b.completed;
    }
    const batchSecs = (performance.now() - t0) / 1000;

    console.log(`\nScrape benchmark: ${PAGES} pages from a local static site, concurrency ${CONCURRENCY}\n`);
    console.log('| path | pages/s | p50 ms | p95 ms |');
    console.log('|---|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log(
      `| batch of 500 URLs (to done) | ${(500 / batchSecs).toFixed(1)} | total ${(batchSecs * 1000).toFixed(0)} ms | ${completed} completed |`,
    );
    console.log(`\nscrape failures: ${failures}`);
    console.log(
      `peak RSS: gateway ${(peaks.gateway / 1024).toFixed(0)} MB, scrape worker (incl. browser) ${(peaks.worker / 1024).toFixed(0)} MB`,
    );
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
