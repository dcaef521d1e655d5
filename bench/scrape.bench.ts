/**
 * End-to-end scrape benchmark against a local static site (tests' fixture site):
 *   - a raw undici fetch loop over the same pages (the floor any scraper pays),
 *   - POST /v1/scrape at concurrency C (pages/s, p50/p95 latency),
 *   - one 500-URL batch (time to `done`, pages/s),
 *   - `--actions N` (default 1000) scrapes with browser actions and a screenshot (issue 14): the
 *     worker's RSS (its Chromium included) after the first 100 and after all N, to show that no
 *     page or context leaks (target: within 20 %),
 * with the peak RSS of the gateway and of the scrape worker (its Chromium included), each run
 * as its own process exactly like `pnpm start` runs them.
 *
 *   pnpm bench:scrape [--pages 200] [--concurrency 8] [--actions 1000]
 */
import { parseArgs } from 'node:util';
import { PO_CLICK_TEXT, startFixtureSite, startPageOptionsSite } from '@wcs/testing';
import { request } from 'undici';
import {
  benchAccount,
  benchEnv,
  freePort,
  percentile,
  pool,
  startService,
  treePssKb,
  treeRssKb,
  waitHealthy,
} from './bench-utils';

const env = benchEnv;
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
    actions: { type: 'string', default: '1000' },
  },
});
const ACTION_SCRAPES = Number(values.actions);
const PAGES = Number(values.pages);
const CONCURRENCY = Number(values.concurrency);

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: Math.max(PAGES, 500) });
  const actionSite = await startPageOptionsSite();
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
    console.log(
      `peak RSS: gateway ${(peaks.gateway / 1024).toFixed(0)} MB, scrape worker (incl. browser) ${(peaks.worker / 1024).toFixed(0)} MB`,
    );
  } finally {
    clearInterval(sampler);
    gateway.kill('SIGTERM');
    worker.kill('SIGTERM');
    await site.close();
    await actionSite.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
