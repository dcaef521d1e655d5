/**
 * Many batches in flight at once: `--batches` (default 200) POST /v1/batch/scrape of `--urls`
 * (default 500, the most one batch takes) distinct pages of a local generated site, all sent at
 * once to a gateway and `--workers` scrape-worker processes. Prints whether all were accepted, the
 * time to accept them and to finish them all, pages/s, each process's peak RSS and CPU seconds,
 * Redis memory at its peak (the server's used_memory, and this run's keys), then PASS/FAIL: every
 * batch accepted and done with every page.
 *
 *   pnpm bench:scale-batches [--batches 200] [--urls 500] [--workers 1] [--concurrency 8]
 */
import { parseArgs } from 'node:util';
import { createDb } from '@wcs/db';
import { QueueProducer } from '@wcs/queues';
import { Agent, request } from 'undici';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  MAX_BATCH,
  startService,
  stopProcess,
  treeRssKb,
  waitHealthy,
} from './bench-utils';
import { redisBytes, statSeconds } from './scale-probes';
import { SCALE_PREFIX, startScaleSite } from './scale-site';

const { values } = parseArgs({
  args: benchArgv(),
  options: {
    batches: { type: 'string', default: '200' },
    urls: { type: 'string', default: String(MAX_BATCH) },
    workers: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
  },
});
const BATCHES = Number(values.batches);
const URLS = Number(values.urls);
const WORKERS = Number(values.workers);
const MB = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const env = benchEnv;
  const prefix = `bench-scalebatch-${Date.now()}`;
  const db = createDb(env.DATABASE_URL);
  const producer = new QueueProducer(env.REDIS_URL, prefix);
  const pages = BATCHES * URLS;
  const site = await startScaleSite(pages, 12);
  const port = await freePort();
  const common = {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const healthPorts = await Promise.all(Array.from({ length: WORKERS }, () => freePort()));
  const workers = healthPorts.map((hp) =>
    startService('scrape-worker', {
      ...common,
      WORKER_CONCURRENCY: values.concurrency ?? '8',
      HEALTH_PORT: String(hp),
      HEALTH_HOST: '127.0.0.1',
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const procs = { gateway, ...Object.fromEntries(workers.map((w, i) => [`scrape-worker ${i + 1}`, w])) };
  const peakKb: Record<string, number> = {};
  let redisPeak = { used: 0, ours: 0 };
  const sample = () => {
    for (const [name, p] of Object.entries(procs)) {
      if (p.pid) peakKb[name] = Math.max(peakKb[name] ?? 0, treeRssKb(p.pid));
    }
  };
  const sampler = setInterval(sample, 500);
  let redisBusy = false;
  const redisSampler = setInterval(() => {
    if (redisBusy) return;
    redisBusy = true;
    redisBytes(producer.connection, prefix)
      .then((r) => {
        redisPeak = { used: Math.max(redisPeak.used, r.used), ours: Math.max(redisPeak.ours, r.ours) };
      })
      .catch(() => undefined)
      .finally(() => {
        redisBusy = false;
      });
  }, 3_000);
  try {
    await waitHealthy(base);
    await Promise.all(healthPorts.map((hp) => waitHealthy(`http://127.0.0.1:${hp}`)));
    const { accountId, headers } = await benchAccount(pages * 2);
    const cpu0 = Object.fromEntries(Object.entries(procs).map(([n, p]) => [n, statSeconds(p.pid)]));
    const agent = new Agent({ connections: BATCHES });
    const refusals = new Map<string, number>();
    const t0 = performance.now();
    const posted = await Promise.all(
      Array.from({ length: BATCHES }, async (_, b) => {
        const urls = Array.from({ length: URLS }, (_, i) => `${site.url}${SCALE_PREFIX}${b * URLS + i}`);
        const res = await request(`${base}/v1/batch/scrape`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ urls }),
          dispatcher: agent,
        });
        const body = (await res.body.json()) as { id?: string; code?: string; error?: string };
        if (res.statusCode === 202 && body.id) return body.id;
        const why = `${res.statusCode} ${body.code ?? ''} ${body.error?.slice(0, 120) ?? ''}`;
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
        return null;
      }),
    );
    const acceptSecs = (performance.now() - t0) / 1000;
    const accepted = posted.filter((id): id is string => id !== null);
    let done = 0;
    let failedPages = 0;
    while (performance.now() - t0 < 30 * 60_000) {
      const { rows } = await db.pool.query<{ done: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE status = 'done')::int AS done, coalesce(sum(failed), 0)::int AS failed
         FROM batches WHERE account_id = $1`,
        [accountId],
      );
      done = rows[0]?.done ?? 0;
      failedPages = rows[0]?.failed ?? 0;
      if (done >= accepted.length) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const secs = (performance.now() - t0) / 1000;
    sample();
    await agent.close();
    console.log(
      `\nScale batches: ${BATCHES} batches of ${URLS} URLs (${pages.toLocaleString('en')} pages) sent at once, ${WORKERS} scrape-worker process(es), concurrency ${values.concurrency} each\n`,
    );
    console.log('| what | figure |');
    console.log('|---|---|');
    console.log(`| accepted | ${accepted.length} / ${BATCHES} in ${acceptSecs.toFixed(1)} s |`);
    for (const [why, n] of refusals) console.log(`| refused | ${n}: ${why} |`);
    console.log(
      `| finished | ${done} / ${accepted.length} batches, ${failedPages} pages failed, in ${secs.toFixed(0)} s (${((accepted.length * URLS) / secs).toFixed(1)} pages/s) |`,
    );
    for (const [name, p] of Object.entries(procs)) {
      const cpu = statSeconds(p.pid) - (cpu0[name] ?? 0);
      console.log(
        `| ${name} | peak RSS ${MB((peakKb[name] ?? 0) * 1024)}, CPU ${cpu.toFixed(0)} s (${((cpu / pages) * 1000).toFixed(2)} ms a page) |`,
      );
    }
    console.log(
      `| Redis at its peak | this run's keys ${MB(redisPeak.ours)} (${((redisPeak.ours / pages) | 0).toString()} B a page in flight at the start), server used_memory ${MB(redisPeak.used)} |`,
    );
    const ok = accepted.length === BATCHES && done === BATCHES && failedPages === 0;
    console.log(`\nall accepted, all done, no page failed: ${ok ? 'PASS' : 'FAIL'}`);
  } finally {
    clearInterval(sampler);
    clearInterval(redisSampler);
    await Promise.all(workers.map(stopProcess));
    await stopProcess(gateway);
    await site.close();
    await producer.close();
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
