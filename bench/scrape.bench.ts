/**
 * End-to-end scrape benchmark (throughput against what users would write instead), over a
 * page set of the 181 real article pages of `shared/bench/article-extraction` (served locally) plus
 * `--pages` static pages of the tests' fixture site:
 *   - a raw undici fetch loop over the page set (the floor any scraper pays),
 *   - a hand-built loop (undici + linkedom + Readability + turndown, `bench/hand-built-loop.ts`) at
 *     concurrency C in this process against POST /v1/batch/scrape of the same pages with the scrape
 *     worker at WORKER_CONCURRENCY=C: pages/s of each (median of `--runs`, after a warm-up) and the
 *     ratio service / loop (target ≥ 2.0×),
 *   - POST /v1/scrape at concurrency 1 and C: pages/s, p50/p95 latency, and the median of each
 *     `Server-Timing` stage with its share of the summed stage time,
 *   - one 500-URL batch of static pages (time to `done`, pages/s),
 *   - `--actions N` (default 200, 0 or `--no-actions` skips) scrapes with browser actions and a
 *     screenshot: the worker's settled PSS/RSS (its Chromium included) after the first
 *     100 and after all N, to show that no page or context leaks (target: within 20 %),
 *   - `--fullpage N` (default 3, 0 skips) full-page screenshots of a 100,000-px page, cut at the
 *     cap, desktop and mobile: median time of each (bench/fullpage-screenshot.ts),
 * with the peak RSS of the gateway and of the scrape worker (its Chromium included), each run
 * as its own process exactly like `pnpm start` runs them.
 *
 *   pnpm bench:scrape [--pages 200] [--articles 181] [--concurrency 8] [--runs 3] [--actions 200]
 *                     [--no-actions] [--no-latency] [--fullpage 3]
 */
import { parseArgs } from 'node:util';
import { PO_CLICK_TEXT, startFixtureSite, startPageOptionsSite } from '@wcs/testing';
import { request } from 'undici';
import { startArticleSite } from './article-site';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  median,
  percentile,
  pool,
  ratioLine,
  startService,
  treePssKb,
  treeRssKb,
  waitHealthy,
} from './bench-utils';
import { cpuPerPage, cpuSnapshot, cpuTable } from './cpu-time';
import { fullPageLine, fullPageScreenshots } from './fullpage-screenshot';
import { runHandBuiltLoop } from './hand-built-loop';
import { type BatchRun, type LatencyRun, runBatch, scrapeLatency } from './scrape-compare';
import { stageTable } from './server-timing';

const env = benchEnv;
const { values } = parseArgs({
  args: benchArgv(),
  options: {
    pages: { type: 'string', default: '200' },
    articles: { type: 'string', default: '181' },
    concurrency: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    actions: { type: 'string', default: '200' },
    'no-actions': { type: 'boolean', default: false },
    'no-latency': { type: 'boolean', default: false },
    fullpage: { type: 'string', default: '3' },
  },
});
const ACTION_SCRAPES = values['no-actions'] ? 0 : Number(values.actions);
const PAGES = Number(values.pages);
const ARTICLES = Number(values.articles);
const CONCURRENCY = Number(values.concurrency);
const RUNS = Math.max(1, Number(values.runs));
const FULLPAGE_RUNS = Number(values.fullpage);

/** The same pages under a distinct query string, so no cache can answer a later pass. */
const tagged = (urls: string[], tag: string): string[] =>
  urls.map((u) => `${u}${u.includes('?') ? '&' : '?'}run=${tag}`);

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: Math.max(PAGES, 500) });
  const actionSite = await startPageOptionsSite();
  const articleSite = await startArticleSite(ARTICLES);
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
    const { headers } = await benchAccount(100_000);

    await waitHealthy(base);
    const staticUrls = Array.from({ length: PAGES }, (_, i) => `${site.url}/article/${i}`);
    const pageSet = [...articleSite.urls, ...staticUrls];

    // Warm-up: JIT, connections, worker start.
    await pool(staticUrls.slice(0, 16), CONCURRENCY, async (u) => {
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: u }),
      });
      await r.body.text();
    });

    // Actions + screenshots first, on a worker that has done nothing else yet (the batch below would
    // leave content threads alive that the first sample would count): its settled memory after the
    // first 100 and after all of them.
    const actionBody = (i: number) =>
      JSON.stringify({
        url: `${actionSite.url}/click?n=${i}`,
        formats: ['markdown', 'screenshot'],
        actions: [
          { type: 'click', selector: '#more' },
          { type: 'wait', selector: '#revealed' },
          { type: 'executeJavascript', script: 'return document.title' },
          { type: 'screenshot' },
        ],
      });
    let actionFailures = 0;
    let actionsSeen = 0;
    const actionScrape = async (i: number) => {
      const r = await request(`${base}/v1/scrape`, { method: 'POST', headers, body: actionBody(i) });
      const b = (await r.body.json()) as { data?: { markdown?: string } };
      if (r.statusCode !== 200 || !b.data?.markdown?.includes(PO_CLICK_TEXT)) actionFailures++;
      else actionsSeen++;
    };
    const settled = async () => {
      // Chromium frees closed pages' memory asynchronously: take the lowest of a few samples.
      let rss = Number.POSITIVE_INFINITY;
      let pss = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 5; k++) {
        await new Promise((r) => setTimeout(r, 200));
        if (!worker.pid) continue;
        rss = Math.min(rss, treeRssKb(worker.pid));
        pss = Math.min(pss, treePssKb(worker.pid));
      }
      return { rss: rss / 1024, pss: pss / 1024 };
    };
    const ids = Array.from({ length: ACTION_SCRAPES }, (_, i) => i);
    const a0 = performance.now();
    await pool(ids.slice(0, 100), 4, actionScrape);
    const after100 = ACTION_SCRAPES > 0 ? await settled() : undefined;
    await pool(ids.slice(100), 4, actionScrape);
    const actionSecs = (performance.now() - a0) / 1000;
    const afterAll = ACTION_SCRAPES > 0 ? await settled() : undefined;
    const fullPage = FULLPAGE_RUNS > 0 ? await fullPageScreenshots(base, headers, FULLPAGE_RUNS) : undefined;

    const rows: Array<[string, string, string, string]> = [];
    const t0 = performance.now();
    const rawLat: number[] = [];
    await pool(pageSet, CONCURRENCY, async (u) => {
      const s = performance.now();
      const r = await request(u);
      await r.body.text();
      rawLat.push(performance.now() - s);
    });
    rawLat.sort((a, b) => a - b);
    const rawSecs = (performance.now() - t0) / 1000;
    rows.push([
      `raw undici fetch (concurrency ${CONCURRENCY})`,
      (pageSet.length / rawSecs).toFixed(1),
      percentile(rawLat, 50).toFixed(1),
      percentile(rawLat, 95).toFixed(1),
    ]);

    // Hand-built loop vs batch API: warm-up on a slice (JIT, connections), then RUNS of each,
    // alternating so that a change in the machine's load hits both alike.
    const warm = [...articleSite.urls.slice(0, 12), ...staticUrls.slice(0, 12)];
    await runHandBuiltLoop(tagged(warm, 'warm'), CONCURRENCY);
    await runBatch(base, headers, tagged(warm, 'warm'));
    const loops: Awaited<ReturnType<typeof runHandBuiltLoop>>[] = [];
    const batches: BatchRun[] = [];
    // CPU per page of every part during the batch runs (the bench process serves the pages).
    const parts = () =>
      cpuSnapshot({ gateway: gateway.pid, 'scrape-worker': worker.pid, bench: process.pid });
    const batchCpu: Array<Array<[string, number]>> = [];
    const loopCpu: Array<Array<[string, number]>> = [];
    for (let run = 1; run <= RUNS; run++) {
      const l0 = parts();
      loops.push(await runHandBuiltLoop(tagged(pageSet, `loop${run}`), CONCURRENCY));
      loopCpu.push(cpuPerPage(l0, parts(), pageSet.length));
      const b0 = parts();
      batches.push(await runBatch(base, headers, tagged(pageSet, `batch${run}`)));
      batchCpu.push(cpuPerPage(b0, parts(), pageSet.length));
    }
    const loopRate = median(loops.map((l) => l.pages / l.secs));
    const batchRate = median(batches.map((b) => pageSet.length / b.secs));

    // POST /v1/scrape one page at a time and CONCURRENCY at a time, with Server-Timing stages.
    const latencies: LatencyRun[] = [];
    for (const c of values['no-latency'] ? [] : [...new Set([1, CONCURRENCY])]) {
      latencies.push(await scrapeLatency(base, headers, tagged(pageSet, `lat${c}`), c));
    }
    for (const l of latencies) {
      rows.push([
        `POST /v1/scrape (concurrency ${l.concurrency})`,
        l.pagesPerSec.toFixed(1),
        l.p50.toFixed(1),
        l.p95.toFixed(1),
      ]);
    }

    const batchUrls = Array.from({ length: 500 }, (_, i) => `${site.url}/article/${i}?b=1`);
    const batch500 = await runBatch(base, headers, batchUrls);

    console.log(
      `\nScrape benchmark: page set of ${pageSet.length} pages (${articleSite.urls.length} real article pages ` +
        `+ ${PAGES} static fixture pages), concurrency ${CONCURRENCY}, ${RUNS} measured run(s) after a warm-up\n`,
    );
    console.log('| path | pages/s | p50 ms | p95 ms |');
    console.log('|---|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log(
      `| batch of 500 static URLs (to done) | ${(500 / batch500.secs).toFixed(1)} | total ${(batch500.secs * 1000).toFixed(0)} ms | ${batch500.completed} completed |`,
    );
    console.log(
      `\nscrape failures: ${latencies.map((l) => `${l.failures} at concurrency ${l.concurrency}`).join(', ')}`,
    );

    console.log(
      `\nThroughput against a hand-built loop, same ${pageSet.length} pages, concurrency ${CONCURRENCY}\n`,
    );
    console.log('| run | hand-built loop pages/s | batch API pages/s |');
    console.log('|---|---:|---:|');
    for (let i = 0; i < RUNS; i++) {
      const l = loops[i];
      const b = batches[i];
      if (!l || !b) continue;
      console.log(
        `| ${i + 1} | ${(l.pages / l.secs).toFixed(1)} (${l.converted} converted, ${l.failed} failed) | ` +
          `${(pageSet.length / b.secs).toFixed(1)} (${b.completed} done, ${b.failed} failed) |`,
      );
    }
    console.log(`| median | ${loopRate.toFixed(1)} | ${batchRate.toFixed(1)} |`);
    console.log(`\n${ratioLine('service (batch API) / hand-built loop', batchRate, loopRate, 2.0)}`);
    // The median run's CPU by part: the per-page cost of each side, and where the service's goes.
    const mid = (xs: Array<Array<[string, number]>>) =>
      [...xs].sort((a, b) => a.reduce((s, [, v]) => s + v, 0) - b.reduce((s, [, v]) => s + v, 0))[
        Math.floor(xs.length / 2)
      ] ?? [];
    console.log(
      `\n${cpuTable('CPU per page, batch API (median run; bench = serving the pages, polling):', mid(batchCpu))}`,
    );
    console.log(
      `\n${cpuTable('CPU per page, hand-built loop (median run; all in the bench process):', mid(loopCpu))}`,
    );

    for (const l of latencies) {
      console.log(`\nPOST /v1/scrape stages (Server-Timing), concurrency ${l.concurrency}:`);
      for (const line of stageTable(l.timings)) console.log(line);
    }
    const pct = (a: number, b: number) => ((b - a) / a) * 100;
    const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;
    if (after100 && afterAll) {
      const growth = pct(after100.pss, afterAll.pss);
      console.log(
        `\nactions + screenshot: ${ACTION_SCRAPES} scrapes (concurrency 4) in ${actionSecs.toFixed(1)} s ` +
          `(${(ACTION_SCRAPES / actionSecs).toFixed(1)}/s), ${actionsSeen} with the revealed text, ${actionFailures} failed`,
      );
      console.log(
        `scrape worker (incl. Chromium), settled: after 100 PSS ${after100.pss.toFixed(0)} MB / RSS ${after100.rss.toFixed(0)} MB; ` +
          `after ${ACTION_SCRAPES} PSS ${afterAll.pss.toFixed(0)} MB (${signed(growth)}) / RSS ${afterAll.rss.toFixed(0)} MB ` +
          `(${signed(pct(after100.rss, afterAll.rss))}); growth target ≤ 20 % (PSS): ${growth <= 20 ? 'met' : 'NOT met'}`,
      );
    }
    if (fullPage) console.log(`\n${fullPageLine(fullPage)}`);
    console.log(
      `peak RSS: gateway ${(peaks.gateway / 1024).toFixed(0)} MB, scrape worker (incl. browser) ${(peaks.worker / 1024).toFixed(0)} MB`,
    );
  } finally {
    clearInterval(sampler);
    gateway.kill('SIGTERM');
    worker.kill('SIGTERM');
    await site.close();
    await actionSite.close();
    await articleSite.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
