/**
 * Load benchmark: the gateway and 1, then 2, scrape workers, each its own process as in
 * production, against the local fixture site. autocannon drives POST /v1/scrape and POST
 * /v1/batch/scrape at rising concurrency; per step: throughput, p50/p95/p99, error rate, and the
 * knee. Then a soak at half the scrape knee (with every worker) with each service's RSS sampled.
 *
 *   pnpm bench:load                               steps 1…64 × 10 s, 1-minute soak
 *   pnpm bench:load --soak [--soak-minutes 20]    the long soak (default 20 minutes)
 *   pnpm bench:load --steps 1,2,4 --step-seconds 3 --soak-minutes 0.5   a quick run
 *
 * Figures depend on the machine and what else runs on it; speed is never asserted.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '@wcs/testing';
import { request } from 'undici';
import { benchAccount, benchEnv, freePort, startService, stopProcess, waitHealthy } from './bench-utils';
import { printSoak, soak } from './load-soak';
import { batchStep, printSteps, type StepRow, scrapeStep, type Target } from './load-steps';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '1,2,4,8,16,32,64' },
    'step-seconds': { type: 'string', default: '10' },
    workers: { type: 'string', default: '2' },
    'worker-concurrency': { type: 'string', default: '8' },
    'batch-pages': { type: 'string', default: '20' },
    'batches-per-connection': { type: 'string', default: '2' },
    soak: { type: 'boolean', default: false },
    'soak-minutes': { type: 'string' },
    'sample-seconds': { type: 'string', default: '60' },
  },
});
const STEPS = values.steps
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const STEP_SECONDS = Number(values['step-seconds']);
const MAX_WORKERS = Math.max(1, Number(values.workers));
const WORKER_CONCURRENCY = values['worker-concurrency'];
const BATCH_PAGES = Number(values['batch-pages']);
const BATCHES_PER_CONNECTION = Number(values['batches-per-connection']);
const SOAK_MINUTES = Number(values['soak-minutes'] ?? (values.soak ? 20 : 1));
const SAMPLE_SECONDS = Number(values['sample-seconds']);

async function warmUp(t: Target): Promise<void> {
  for (const url of t.urls.slice(0, 8)) {
    const r = await request(`${t.base}/v1/scrape`, {
      method: 'POST',
      headers: t.headers,
      body: JSON.stringify({ url }),
    });
    await r.body.text();
  }
}

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: 500 });
  const port = await freePort();
  const common = {
    DATABASE_URL: benchEnv.DATABASE_URL,
    REDIS_URL: benchEnv.REDIS_URL,
    QUEUE_PREFIX: `bench-load-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '100000000',
  };
  const processes = new Map<string, ChildProcess>();
  processes.set('gateway', startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' }));
  const base = `http://127.0.0.1:${port}`;
  const summary: Array<{ workers: number; scrapeKnee: number; batchKnee: number; best: StepRow }> = [];
  try {
    await waitHealthy(base);
    const { headers } = await benchAccount(100_000_000);
    const t: Target = {
      base,
      headers,
      urls: Array.from({ length: 500 }, (_, i) => `${site.url}/article/${i}`),
    };
    console.log(
      `bench:load — ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; steps ${STEPS.join(',')} × ${STEP_SECONDS} s; ` +
        `scrape workers: WORKER_CONCURRENCY=${WORKER_CONCURRENCY}; batch: ${BATCH_PAGES} pages × ${BATCHES_PER_CONNECTION} per connection`,
    );
    let scrapeKnee = 1;
    for (let workers = 1; workers <= MAX_WORKERS; workers++) {
      processes.set(
        `scrape-worker-${workers}`,
        startService('scrape-worker', { ...common, WORKER_CONCURRENCY }),
      );
      await warmUp(t);
      const scrape: StepRow[] = [];
      for (const c of STEPS) scrape.push(await scrapeStep(t, c, STEP_SECONDS));
      scrapeKnee = printSteps(`POST /v1/scrape — ${workers} scrape worker(s)`, 'req', scrape);
      const batch: StepRow[] = [];
      for (const c of STEPS) batch.push(await batchStep(t, c, BATCH_PAGES, c * BATCHES_PER_CONNECTION));
      const batchKnee = printSteps(
        `POST /v1/batch/scrape — ${workers} scrape worker(s) (pages/s submit → done; latency per batch)`,
        'pages',
        batch,
      );
      const best = scrape.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
      summary.push({ workers, scrapeKnee, batchKnee, best });
    }

    console.log('\n| scrape workers | scrape knee | best req/s (at) | batch knee |');
    console.log('|---:|---:|---:|---:|');
    for (const s of summary) {
      console.log(
        `| ${s.workers} | ${s.scrapeKnee} | ${s.best.perSecond.toFixed(1)} (c=${s.best.concurrency}) | ${s.batchKnee} |`,
      );
    }

    const soakConcurrency = Math.max(1, Math.floor(scrapeKnee / 2));
    const result = await soak(t, processes, {
      concurrency: soakConcurrency,
      minutes: SOAK_MINUTES,
      sampleSeconds: SAMPLE_SECONDS,
    });
    printSoak(result, { concurrency: soakConcurrency, minutes: SOAK_MINUTES });
  } finally {
    await Promise.all([...processes.values()].map(stopProcess));
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
