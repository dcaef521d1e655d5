/**
 * End-to-end scrape benchmark (throughput against what users would write instead), over a
 * page set of the 181 real article pages of `shared/bench/article-extraction` (served locally) plus
 * `--pages` static pages of the tests' fixture site:
 *   - a raw undici fetch loop over the page set (the floor any scraper pays),
 *   - a hand-built loop (undici + linkedom + Readability + turndown, `bench/hand-built-loop.ts`) at
 *     concurrency C in this process against POST /v1/batch/scrape of the same pages with the scrape
 *     worker at WORKER_CONCURRENCY=C, on the real pages alone and on the static pages apart: pages/s
 *     of each and the ratio service / loop (target ≥ 2.0× on the real pages), **cold** (the first
 *     real-page pass after the stack starts) and **warm** (median of `--runs`, after a warm-up),
 *     with CPU per page by part (gateway, worker main thread, its runtime threads, its content
 *     threads, PostgreSQL, Redis),
 *   - POST /v1/scrape of one large real page (≈ 600 KB) against a raw undici fetch of it, alternating
 *     (`--large-runs`, 30): p50 of each and the service's overhead beyond its fetch + content stages,
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
 *                     [--no-actions] [--no-latency] [--fullpage 3] [--large-runs 30]
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
import { cpuPerPage, cpuSnapshot, cpuTable, settledThreads, threadSplit } from './cpu-time';
import { fullPageLine, fullPageScreenshots } from './fullpage-screenshot';
import { type LoopResult, runHandBuiltLoop } from './hand-built-loop';
import { largePageLatency, largePageLines } from './large-page-latency';
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
    'large-runs': { type: 'string', default: '30' },
  },
});
const ACTION_SCRAPES = values['no-actions'] ? 0 : Number(values.actions);
const PAGES = Number(values.pages);
const ARTICLES = Number(values.articles);
const CONCURRENCY = Number(values.concurrency);
const RUNS = Math.max(1, Number(values.runs));
const FULLPAGE_RUNS = Number(values.fullpage);
const LARGE_RUNS = Number(values['large-runs']);
/** The large real page: the article page served closest to this size (the issue's 600 KB page). */
const LARGE_PAGE_BYTES = 600 * 1024;

/** The same pages under a distinct query string, so no cache can answer a later pass. */
const tagged = (urls: string[], tag: string): string[] =>
  urls.map((u) => `${u}${u.includes('?') ? '&' : '?'}run=${tag}`);

/** One page set's runs: the loop's and the batch API's, with CPU per page of each run. */
interface Comparison {
  loops: LoopResult[];
  batches: BatchRun[];
  loopCpu: Array<Array<[string, number]>>;
  batchCpu: Array<Array<[string, number]>>;
}

const comparison = (): Comparison => ({ loops: [], batches: [], loopCpu: [], batchCpu: [] });

function medians(c: Comparison, pages: number): { loop: number; batch: number } {
  return {
    loop: median(c.loops.map((l) => l.pages / l.secs)),
    batch: median(c.batches.map((b) => pages / b.secs)),
  };
}

/** A row per run, then the medians and their ratio. */
function comparisonRows(c: Comparison, pages: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < c.loops.length; i++) {
    const l = c.loops[i];
    const b = c.batches[i];
    if (!l || !b) continue;
    rows.push(
      `| ${i + 1} | ${(l.pages / l.secs).toFixed(1)} (${l.converted} converted, ${l.failed} failed) | ` +
        `${(pages / b.secs).toFixed(1)} (${b.completed} done, ${b.failed} failed) | ${(l.secs / b.secs).toFixed(2)}× |`,
    );
  }
  const m = medians(c, pages);
  rows.push(
    `| median (warm) | ${m.loop.toFixed(1)} | ${m.batch.toFixed(1)} | ${(m.batch / m.loop).toFixed(2)}× |`,
  );
  return rows;
}

/** The run whose summed CPU per page is the median one. */
const mid = (xs: Array<Array<[string, number]>>): Array<[string, number]> =>
  [...xs].sort((a, b) => a.reduce((s, [, v]) => s + v, 0) - b.reduce((s, [, v]) => s + v, 0))[
    Math.floor(xs.length / 2)
  ] ?? [];

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
    const articleUrls = articleSite.urls;
    const pageSet = [...articleUrls, ...staticUrls];
    // The cold pass starts once the worker has settled (its start and the content warm-up over).
    await settledThreads(worker.pid);
    // CPU of every part (the bench process serves the pages), the worker's split by thread.
    const parts = () => ({
      ...cpuSnapshot({ gateway: gateway.pid, bench: process.pid }),
      ...threadSplit('scrape-worker', worker.pid),
    });

    // Cold: the first real-page pass after the stack starts (no warm-up of the service before it;
    // the loop runs here first too, so its JIT is as cold).
    const c0 = parts();
    const coldBatch = await runBatch(base, headers, tagged(articleUrls, 'cold'));
    const coldBatchCpu = cpuPerPage(c0, parts(), articleUrls.length);
    const coldLoop = await runHandBuiltLoop(tagged(articleUrls, 'cold'), CONCURRENCY);

    // Warm-up: JIT, connections, worker start.
    await pool(staticUrls.slice(0, 16), CONCURRENCY, async (u) => {
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: u }),
      });
      await r.body.text();
    });

    // Actions + screenshots before the comparison runs, on a worker that has done only the cold pass
    // (whose content threads both samples count alike): its settled memory after the first 100 and
    // after all of them.
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

    // Hand-built loop vs batch API: warm-up on a slice (JIT, connections), then RUNS of each, on
    // the real pages and on the static pages apart, alternating so that a change in the machine's
    // load hits both alike.
    const warm = [...articleUrls.slice(0, 12), ...staticUrls.slice(0, 12)];
    await runHandBuiltLoop(tagged(warm, 'warm'), CONCURRENCY);
    await runBatch(base, headers, tagged(warm, 'warm'));
    const real = comparison();
    const fixture = comparison();
    for (let run = 1; run <= RUNS; run++) {
      for (const [side, urls, tag] of [
        [real, articleUrls, 'a'],
        [fixture, staticUrls, 's'],
      ] as const) {
        if (urls.length === 0) continue;
        const l0 = parts();
        side.loops.push(await runHandBuiltLoop(tagged(urls, `loop${tag}${run}`), CONCURRENCY));
        side.loopCpu.push(cpuPerPage(l0, parts(), urls.length));
        const b0 = parts();
        side.batches.push(await runBatch(base, headers, tagged(urls, `batch${tag}${run}`)));
        side.batchCpu.push(cpuPerPage(b0, parts(), urls.length));
      }
    }

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

    // The large real page: the article served closest to LARGE_PAGE_BYTES.
    const largeAt = articleSite.sizes.reduce(
      (best, b, i) =>
        Math.abs(b - LARGE_PAGE_BYTES) < Math.abs((articleSite.sizes[best] ?? 0) - LARGE_PAGE_BYTES)
          ? i
          : best,
      0,
    );
    const large =
      LARGE_RUNS > 0 && articleUrls[largeAt]
        ? await largePageLatency(
            base,
            headers,
            { url: articleUrls[largeAt], bytes: articleSite.sizes[largeAt] ?? 0 },
            LARGE_RUNS,
          )
        : undefined;

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

    const rate = (pages: number, secs: number) => pages / secs;
    console.log(
      `\nThroughput against a hand-built loop on the ${articleUrls.length} real article pages alone, concurrency ${CONCURRENCY}\n`,
    );
    console.log('| run | hand-built loop pages/s | batch API pages/s | ratio |');
    console.log('|---|---:|---:|---:|');
    const coldRatio = rate(articleUrls.length, coldBatch.secs) / rate(coldLoop.pages, coldLoop.secs);
    console.log(
      `| cold (first pass after the stack starts) | ${rate(coldLoop.pages, coldLoop.secs).toFixed(1)} | ` +
        `${rate(articleUrls.length, coldBatch.secs).toFixed(1)} (${coldBatch.completed} done, ${coldBatch.failed} failed) | ${coldRatio.toFixed(2)}× |`,
    );
    for (const line of comparisonRows(real, articleUrls.length)) console.log(line);
    const realRates = medians(real, articleUrls.length);
    console.log(
      `\n${ratioLine('real pages, warm: service (batch API) / hand-built loop', realRates.batch, realRates.loop, 2.0)}`,
    );
    console.log(`${ratioLine('real pages, cold: service (batch API) / hand-built loop', coldRatio, 1, 2.0)}`);
    if (staticUrls.length > 0) {
      console.log(`\nThe ${staticUrls.length} static fixture pages apart (~3 KB each), warm\n`);
      console.log('| run | hand-built loop pages/s | batch API pages/s | ratio |');
      console.log('|---|---:|---:|---:|');
      for (const line of comparisonRows(fixture, staticUrls.length)) console.log(line);
    }
    console.log(
      `\n${cpuTable('CPU per page, batch API, real pages, warm (median run; bench = serving the pages, polling):', mid(real.batchCpu))}`,
    );
    console.log(`\n${cpuTable('CPU per page, batch API, real pages, cold:', coldBatchCpu)}`);
    console.log(
      `\n${cpuTable(
        'CPU per page, hand-built loop, real pages (median run; all in the bench process):',
        mid(real.loopCpu).filter(([k]) => k === 'bench'),
      )}`,
    );
    if (staticUrls.length > 0)
      console.log(
        `\n${cpuTable('CPU per page, batch API, static pages (median run):', mid(fixture.batchCpu))}`,
      );
    if (large) for (const line of ['', ...largePageLines(large)]) console.log(line);

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
