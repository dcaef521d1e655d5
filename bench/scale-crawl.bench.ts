/**
 * How a crawl's cost grows with its size: one crawl of a generated N-page site (`bench/scale-site.ts`,
 * default 1,000,000 pages, ~10–20 links a page, no sitemap) with maxPages = N, through one
 * crawl-worker process (compiled, as `pnpm start` runs it), the frontier in PostgreSQL. Per slice
 * of N/10 completed pages it prints pages/s, the worker's RSS (children included) and CPU seconds,
 * Redis `used_memory` and the bytes of this run's keys, and PostgreSQL bytes per page
 * (crawl_pages, documents, credit_ledger: growth of pg_total_relation_size over completed pages);
 * then PASS/FAIL: pages/s of the last slice within 20 % of the first.
 *
 * The crawl is created as the gateway's POST /v1/crawl creates it (repository + start job), since the
 * API accepts at most 10,000 pages a crawl.
 *
 *   pnpm bench:scale-crawl [--pages 1000000] [--slices 10] [--links 12] [--concurrency 8]
 */
import { parseArgs } from 'node:util';
import { AccountsRepository, CrawlsRepository, createDb } from '@wcs/db';
import { QueueProducer } from '@wcs/queues';
import {
  benchArgv,
  benchEnv,
  freePort,
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
    pages: { type: 'string', default: '1000000' },
    slices: { type: 'string', default: '10' },
    links: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '8' },
  },
});
const PAGES = Number(values.pages);
const SLICES = Number(values.slices);
const LINKS = Number(values.links);
const CONCURRENCY = Number(values.concurrency);
const TABLES = ['crawl_pages', 'documents', 'page_cache', 'credit_ledger', 'crawls'] as const;
const MB = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

interface Slice {
  upTo: number;
  secs: number;
  rate: number;
  rssKb: number;
  cpuSecs: number;
  redisUsed: number;
  redisOurs: number;
  bytesPerPage: Record<string, number>;
}

async function main(): Promise<void> {
  const env = benchEnv;
  const prefix = `bench-scale-${Date.now()}`;
  const db = createDb(env.DATABASE_URL);
  const producer = new QueueProducer(env.REDIS_URL, prefix);
  const site = await startScaleSite(PAGES, LINKS);
  const healthPort = await freePort();
  const worker = startService('crawl-worker', {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    CRAWL_HOST_CONCURRENCY: String(CONCURRENCY),
    HEALTH_PORT: String(healthPort),
    HEALTH_HOST: '127.0.0.1',
    // A million pages take hours at a few hundred pages/s: past the default 1 h the crawl would
    // end `timeout` (CRAWL_DEADLINE_MS), so the bench gives it a day.
    CRAWL_DEADLINE_MS: String(24 * 3_600_000),
  });
  const sizes = async (): Promise<Record<string, number>> => {
    const { rows } = await db.pool.query<{ t: string; b: string }>(
      `SELECT t, pg_total_relation_size(t::regclass)::bigint AS b FROM unnest($1::text[]) AS t`,
      [[...TABLES]],
    );
    return Object.fromEntries(rows.map((r) => [r.t, Number(r.b)]));
  };
  const slices: Slice[] = [];
  // Without autovacuum (this machine's test server runs with it off) the dead row versions of every
  // page's updates pile up for the whole crawl, which a deployment does not see: the bench then
  // vacuums the crawl's tables itself at each slice, and says so.
  const { rows: av } = await db.pool.query<{ setting: string }>(
    "SELECT setting FROM pg_settings WHERE name = 'autovacuum'",
  );
  const vacuumBySlice = av[0]?.setting !== 'on';
  try {
    await waitHealthy(`http://127.0.0.1:${healthPort}`);
    const account = await new AccountsRepository(db).create({ plan: 'scale', credits: PAGES * 2 + 100 });
    const size0 = await sizes();
    const crawls = new CrawlsRepository(db);
    const { crawlId } = await crawls.create({
      accountId: account.accountId,
      url: `${site.url}${SCALE_PREFIX}0`,
      options: {
        maxDepth: 1_000,
        maxPages: PAGES,
        includePaths: [`^${SCALE_PREFIX}\\d+$`],
        excludePaths: [],
        allowSubdomains: false,
        ignoreRobotsTxt: false,
        format: 'markdown',
        onlyMainContent: true,
        delayMs: 0,
        sitemap: 'skip',
      },
    });
    const t0 = performance.now();
    await producer.enqueue('crawl', { crawlId }, { jobId: crawlId });
    const step = Math.ceil(PAGES / SLICES);
    let last = { t: t0, done: 0, cpu: statSeconds(worker.pid) };
    let status = 'pending';
    let done = 0;
    while (status !== 'done' && status !== 'failed') {
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await db.pool.query<{ status: string; done: number }>(
        'SELECT status, completed + failed AS done FROM crawls WHERE id = $1',
        [crawlId],
      );
      status = rows[0]?.status ?? 'failed';
      done = rows[0]?.done ?? 0;
      const terminal = status === 'done' || status === 'failed';
      if (done >= (slices.length + 1) * step || (terminal && done > last.done)) {
        const now = performance.now();
        const cpu = statSeconds(worker.pid);
        const size = await sizes();
        const redis = await redisBytes(producer.connection, prefix);
        const slice: Slice = {
          upTo: done,
          secs: (now - last.t) / 1000,
          rate: (done - last.done) / ((now - last.t) / 1000),
          rssKb: worker.pid ? treeRssKb(worker.pid) : 0,
          cpuSecs: cpu - last.cpu,
          redisUsed: redis.used,
          redisOurs: redis.ours,
          bytesPerPage: Object.fromEntries(TABLES.map((t) => [t, ((size[t] ?? 0) - (size0[t] ?? 0)) / done])),
        };
        slices.push(slice);
        console.error(`[scale-crawl] ${JSON.stringify(slice)}`);
        last = { t: now, done, cpu };
        if (vacuumBySlice) {
          await db.pool.query('VACUUM (ANALYZE) crawl_pages, crawls, documents, accounts');
          // The pages done while it ran count in no slice's rate.
          const { rows: after } = await db.pool.query<{ done: number }>(
            'SELECT completed + failed AS done FROM crawls WHERE id = $1',
            [crawlId],
          );
          last = { t: performance.now(), done: after[0]?.done ?? done, cpu: statSeconds(worker.pid) };
        }
      }
    }
    const total = (performance.now() - t0) / 1000;
    const { rows } = await db.pool.query<{
      completed: number;
      failed: number;
      discovered: number;
      stop: string;
    }>('SELECT completed, failed, discovered, stop_reason AS stop FROM crawls WHERE id = $1', [crawlId]);
    const end = rows[0];
    console.log(
      `\nScale crawl: ${PAGES.toLocaleString('en')} generated pages (${LINKS} links a page), 1 crawl-worker ` +
        `(concurrency ${CONCURRENCY}), maxPages ${PAGES}: ${status}, ${end?.completed} completed / ${end?.failed} failed ` +
        `/ ${end?.discovered} discovered (${end?.stop}), ${site.served()} pages served, ${total.toFixed(0)} s\n`,
    );
    console.log(
      `PostgreSQL autovacuum: ${av[0]?.setting}${vacuumBySlice ? ' (the bench ran VACUUM (ANALYZE) of the crawl tables after each slice, outside the slice times)' : ''}\n`,
    );
    console.log(
      '| pages done | slice s | pages/s | worker RSS | worker CPU s / 1k pages | Redis used_memory | Redis, this run’s keys | PG bytes/page: crawl_pages | documents | page_cache | credit_ledger |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    let prev = 0;
    for (const s of slices) {
      const n = s.upTo - prev;
      prev = s.upTo;
      const b = s.bytesPerPage;
      console.log(
        `| ${s.upTo} | ${s.secs.toFixed(0)} | ${s.rate.toFixed(1)} | ${MB(s.rssKb * 1024)} | ${((s.cpuSecs / n) * 1000).toFixed(1)} | ${MB(s.redisUsed)} | ${MB(s.redisOurs)} | ${(b.crawl_pages ?? 0).toFixed(0)} | ${(b.documents ?? 0).toFixed(0)} | ${(b.page_cache ?? 0).toFixed(0)} | ${(b.credit_ledger ?? 0).toFixed(0)} |`,
      );
    }
    // The first and last full slices (a short final remainder says little about the rate).
    const full = slices.filter((s, i) => i < slices.length - 1 || s.upTo % step === 0 || slices.length <= 2);
    const first = full[0];
    const lastFull = full[full.length - 1];
    if (first && lastFull && full.length >= 2) {
      const drop = 1 - lastFull.rate / first.rate;
      console.log(
        `\npages/s first slice ${first.rate.toFixed(1)}, last ${lastFull.rate.toFixed(1)}: ${(drop * 100).toFixed(1)} % lower ` +
          `(limit 20 %): ${drop <= 0.2 ? 'PASS' : 'FAIL'}`,
      );
    }
  } finally {
    await stopProcess(worker);
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
