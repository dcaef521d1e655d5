/**
 * Crawl benchmark against two local 2,000-page sites (`--site fixture|real|both`): the tests'
 * fixture site (~3 KB generated articles linking to each other, a sitemap listing all of them) and
 * a site of real pages (`real-page-site.ts`: the 181 article-extraction pages, 174 KB on average,
 * with the same link scheme added), each all at the same per-host concurrency H
 * (`--host-concurrency`, 2 as the web default):
 *   - a plain concurrent undici loop fetching the same 2,000 pages (the floor),
 *   - Crawlee's CheerioCrawler (what users would run instead) from the same start URL with
 *     the same include pattern, maxConcurrency H, turndown markdown of each page, in this process,
 *   - POST /v1/crawl (maxPages 2000) to `done` with 1 crawl-worker process (CRAWL_HOST_CONCURRENCY=H),
 *     then with 2 (`--no-two-workers` skips it),
 * reporting pages/s, the crawl API's ratios to Crawlee with 1 worker, cold (its first crawl after the
 * worker started / Crawlee's first run; target ≥ 1.5×) and warm (its second crawl / Crawlee's fastest
 * run; target ≥ 2×), and the RSS of
 * the crawl-worker processes (their children included; at start, peak and end, sampled every
 * 200 ms) and the gateway's peak. Each service runs as its own process, as `pnpm start` runs them.
 * At the end, `bench/map.bench.ts` (map of a 50k-URL sitemap) runs when present.
 *
 *   pnpm bench:crawl [--pages 2000] [--concurrency 8] [--host-concurrency 2] [--no-two-workers]
 *                    [--no-crawlee] [--no-map] [--site fixture|real|both]
 *                    [--no-sitemap]  (the fixture site without one: /sitemap.xml answers 404)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '@wcs/testing';
import { Agent, request } from 'undici';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  pool,
  ROOT,
  ratioLine,
  startService,
  stopProcess,
  treeRssKb,
  waitHealthy,
} from './bench-utils';
import { cpuPerPage, cpuSnapshot, cpuTable, threadSplit } from './cpu-time';
import { type CrawleeResult, runCrawleeCrawl } from './crawlee-crawl';
import { REAL_PAGE_PREFIX, startRealPageSite } from './real-page-site';

const env = benchEnv;
const { values } = parseArgs({
  args: benchArgv(),
  options: {
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    'host-concurrency': { type: 'string', default: '2' },
    'no-two-workers': { type: 'boolean', default: false },
    'no-crawlee': { type: 'boolean', default: false },
    'no-map': { type: 'boolean', default: false },
    site: { type: 'string', default: 'both' },
    'no-warm': { type: 'boolean', default: false },
    'no-sitemap': { type: 'boolean', default: false },
  },
});
/** Whether the measured crawl is the workers' second (see the worker loop). */
const WARM = !values['no-warm'];
const PAGES = Number(values.pages);
const CONCURRENCY = Number(values.concurrency);
const HOST_CONCURRENCY = Number(values['host-concurrency']);
type SiteKind = 'fixture' | 'real';
const SITES: SiteKind[] =
  values.site === 'both'
    ? ['fixture', 'real']
    : values.site === 'fixture' || values.site === 'real'
      ? [values.site]
      : [];
if (SITES.length === 0) throw new Error(`--site must be fixture, real or both (got ${values.site})`);

/** A site to crawl: its start URL, the include pattern (a path regex) of both crawlers, a title. */
interface BenchSite {
  title: string;
  url: string;
  /** The pages' path without their number. */
  prefix: string;
  /** Both crawlers' include pattern (a path regex). */
  include: string;
  close(): Promise<void>;
}

async function startSite(kind: SiteKind): Promise<BenchSite> {
  if (kind === 'fixture') {
    const site = await startFixtureSite({ pages: PAGES, sitemap: !values['no-sitemap'] });
    return {
      title: `${PAGES}-page local site (the fixture site, ~3 KB generated pages${values['no-sitemap'] ? ', no sitemap' : ''})`,
      url: site.url,
      prefix: '/article/',
      include: '^/article/',
      close: () => site.close(),
    };
  }
  const site = await startRealPageSite(PAGES);
  return {
    title: `${PAGES}-page local site of real pages (the 181 article-extraction pages, ${(site.meanBytes / 1024).toFixed(0)} KB on average, with links added)`,
    url: site.url,
    prefix: REAL_PAGE_PREFIX,
    // Real pages carry relative links of every kind (`container`, `www.twitter.com/x`, `?p=2`):
    // the numbered pages only, as a user would scope a crawl of articles.
    include: `^${REAL_PAGE_PREFIX}\\d+$`,
    close: () => site.close(),
  };
}

interface CrawlRun {
  completed: number;
  failed: number;
  status: string;
  secs: number;
}

/** POST /v1/crawl of `siteUrl` (a copy of `site`'s pages) and poll it to its end. */
async function crawlOnce(
  base: string,
  headers: Record<string, string>,
  siteUrl: string,
  site: Pick<BenchSite, 'prefix' | 'include'>,
): Promise<CrawlRun> {
  const started = performance.now();
  const res = await request(`${base}/v1/crawl`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      url: `${siteUrl}${site.prefix}0`,
      maxPages: PAGES,
      // Without a sitemap every page is found by links, as Crawlee finds them: no depth cap then.
      maxDepth: values['no-sitemap'] ? 1_000 : 3,
      includePaths: [site.include],
    }),
  });
  const { id } = (await res.body.json()) as { id: string };
  let b = { status: 'pending', completed: 0, failed: 0, total: 0 };
  while (b.status !== 'done' && b.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    const r = await request(`${base}/v1/crawl/${id}?limit=1`, { headers });
    b = (await r.body.json()) as typeof b;
  }
  return {
    completed: b.completed,
    failed: b.failed,
    status: b.status,
    secs: (performance.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
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
  const reports: Array<{
    title: string;
    rows: string[];
    ratio?: string;
    cpuRows?: Array<[string, number]>;
    coldCpuRows?: Array<[string, number]>;
  }> = [];
  try {
    const { headers } = await benchAccount(100_000);
    await waitHealthy(base);

    for (const kind of SITES) {
      const site = await startSite(kind);
      const INCLUDE_PATH = site.include;
      const INCLUDE = new RegExp(INCLUDE_PATH);
      const rows: string[] = [];
      let ratio: string | undefined;
      let cpuRows: Array<[string, number]> | undefined;
      let coldCpuRows: Array<[string, number]> | undefined;
      try {
        // 1. The floor: a plain concurrent undici loop over the same pages.
        const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}${site.prefix}${i}`);
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

        // 2. Crawlee's CheerioCrawler, same start URL, pattern and per-host concurrency.
        const MB = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
        // Three runs in this process: without a cap (the site has exactly `pages` articles, so the
        // same pages), first with a cold JIT and then warm, and with maxRequestsPerCrawl = pages (as
        // a user would cap it): near the cap, Crawlee 3.18's enqueueLinks re-adds already-seen links
        // in budget-sized batches with a 1 s sleep between them, which stretches the end of a capped
        // crawl. The crawl API's second crawl is compared with the fastest of the three, its first
        // crawl (new processes) with Crawlee's first.
        const crawlees: CrawleeResult[] = [];
        const CRAWLEE_RUNS = [
          { cap: undefined, what: 'first run in this process' },
          { cap: undefined, what: 'second run' },
          { cap: PAGES, what: 'third run' },
        ];
        for (const { cap, what } of values['no-crawlee'] ? [] : CRAWLEE_RUNS) {
          const rss0 = process.memoryUsage().rss;
          let peakRss = rss0;
          const sampler = setInterval(() => {
            peakRss = Math.max(peakRss, process.memoryUsage().rss);
          }, 200);
          let c: CrawleeResult;
          try {
            c = await runCrawleeCrawl({
              startUrl: `${site.url}${site.prefix}0`,
              include: INCLUDE,
              concurrency: HOST_CONCURRENCY,
              maxPages: cap,
            });
          } finally {
            clearInterval(sampler);
          }
          crawlees.push(c);
          rows.push(
            `| Crawlee CheerioCrawler + turndown (maxConcurrency ${HOST_CONCURRENCY}, maxRequestsPerCrawl ${cap ?? 'none'}, in the bench process, ${what}) | ${c.pages} done / ${c.failed} failed | ${(c.pages / c.secs).toFixed(1)} | ${(c.secs * 1000).toFixed(0)} | bench process growth ${MB((peakRss - rss0) / 1024)}; CPU ${c.cpuSecs.toFixed(1)} s |`,
          );
        }

        // 3. The crawler with 1 and with 2 worker processes.
        const rates = new Map<number, number>();
        const coldRates = new Map<number, number>();
        for (const n of values['no-two-workers'] ? [1] : [1, 2]) {
          const healthPorts = await Promise.all(Array.from({ length: n }, () => freePort()));
          const workers = healthPorts.map((hp) =>
            startService('crawl-worker', { ...workerEnv, HEALTH_PORT: String(hp), HEALTH_HOST: '127.0.0.1' }),
          );
          const workersKb = () => workers.reduce((s, w) => s + (w.pid ? treeRssKb(w.pid) : 0), 0);
          let peakKb = 0;
          let gatewayPeakKb = 0;
          let sampler: NodeJS.Timeout | undefined;
          try {
            await Promise.all(healthPorts.map((hp) => waitHealthy(`http://127.0.0.1:${hp}`)));
            const startKb = workersKb();
            peakKb = startKb;
            sampler = setInterval(() => {
              peakKb = Math.max(peakKb, workersKb());
              if (gateway.pid) gatewayPeakKb = Math.max(gatewayPeakKb, treeRssKb(gateway.pid));
            }, 200);
            // The first worker's CPU split by thread (cpu-time.ts, threadSplit).
            const parts = () => ({
              ...cpuSnapshot({ gateway: gateway.pid, bench: process.pid }),
              ...(n === 1 ? threadSplit('crawl-worker', workers[0]?.pid) : {}),
            });
            const label = `crawl API, ${n} crawl-worker process${n > 1 ? 'es' : ''} (concurrency ${CONCURRENCY} each, host limit ${HOST_CONCURRENCY})`;
            const row = (what: string, c: CrawlRun) => {
              const endKb = workersKb();
              peakKb = Math.max(peakKb, endKb);
              return `| ${label}, ${what} | ${c.completed} done / ${c.failed} failed (${c.status}) | ${(c.completed / c.secs).toFixed(1)} | ${(c.secs * 1000).toFixed(0)} | workers start ${MB(startKb)}, peak ${MB(peakKb)}, end ${MB(endKb)}; gateway peak ${MB(gatewayPeakKb)} |`;
            };
            if (WARM) {
              // The same processes crawl a second copy of the site first: Crawlee's uncapped run
              // (the faster one) also comes second in its process, after the capped run warmed its
              // JIT. Different URLs, so nothing of the first crawl (page cache, frontier) is reused.
              const other = await startSite(kind);
              try {
                const cold0 = n === 1 ? parts() : undefined;
                const cold = await crawlOnce(base, headers, other.url, site);
                if (cold0) coldCpuRows = cpuPerPage(cold0, parts(), Math.max(1, cold.completed));
                coldRates.set(n, cold.completed / cold.secs);
                rows.push(row('first crawl of new processes', cold));
              } finally {
                await other.close();
              }
            }
            const cpu0 = n === 1 ? parts() : undefined;
            const c = await crawlOnce(base, headers, site.url, site);
            if (cpu0) cpuRows = cpuPerPage(cpu0, parts(), Math.max(1, c.completed));
            rates.set(n, c.completed / c.secs);
            rows.push(row(WARM ? 'second crawl (measured)' : 'first crawl of new processes', c));
          } finally {
            clearInterval(sampler);
            await Promise.all(workers.map(stopProcess));
          }
        }
        const [cold, uncapped, capped] = crawlees.map((c) => c.pages / c.secs);
        if (cold !== undefined && uncapped !== undefined && capped !== undefined) {
          // Cold: the crawl API's first crawl after its worker started against Crawlee's first run
          // in this process; warm: the same processes' second crawl against Crawlee's fastest run.
          const apiCold = WARM ? coldRates.get(1) : rates.get(1);
          const apiWarm = WARM ? rates.get(1) : undefined;
          ratio = [
            ...(apiCold !== undefined
              ? [
                  ratioLine(
                    'COLD: crawl API (1 worker, first crawl after the stack starts) / Crawlee CheerioCrawler (first run in this process)',
                    apiCold,
                    cold,
                    1.5,
                  ),
                ]
              : []),
            ...(apiWarm !== undefined
              ? [
                  ratioLine(
                    'WARM: crawl API (1 worker, second crawl of the same processes) / Crawlee CheerioCrawler (fastest run)',
                    apiWarm,
                    Math.max(cold, uncapped, capped),
                    2.0,
                  ),
                  `  warm against Crawlee's warm run without a cap: ${(apiWarm / uncapped).toFixed(2)}×; with maxRequestsPerCrawl ${PAGES}: ${(apiWarm / capped).toFixed(2)}×`,
                ]
              : []),
          ].join('\n');
        }
      } finally {
        await site.close();
      }
      reports.push({ title: site.title, rows, ratio, cpuRows, coldCpuRows });
    }
  } finally {
    await stopProcess(gateway);
  }
  for (const { title, rows, ratio, cpuRows, coldCpuRows } of reports) {
    console.log(`\nCrawl benchmark: ${title}, per-host limit ${HOST_CONCURRENCY}\n`);
    console.log('| run | pages | pages/s | wall ms | memory (RSS incl. children) |');
    console.log('|---|---|---:|---:|---|');
    for (const r of rows) console.log(r);
    if (ratio) console.log(`\n${ratio}`);
    if (cpuRows)
      console.log(
        `\n${cpuTable(`CPU per page, crawl API with 1 crawl worker, ${WARM ? 'second' : 'first'} crawl (bench = serving the site, polling):`, cpuRows)}`,
      );
    if (coldCpuRows)
      console.log(`\n${cpuTable('CPU per page, the same, first crawl of new processes:', coldCpuRows)}`);
  }

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
