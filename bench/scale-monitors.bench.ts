/**
 * How monitors scale: `--monitors` (default 100,000) daily monitors registered through
 * POST /v1/monitor (gateway process, `--concurrency` requests at once) on pages of a local generated
 * site, then the monitor-scheduler process started on them. Prints the registration rate, how long
 * the scheduler took to create every job scheduler, the spread of their next fire times over the day
 * (96 buckets of 15 min: the fullest against the mean; the busiest second), Redis memory, and the
 * scheduler's CPU and RSS over `--idle-secs` of steady state (its reconcile passes and the few
 * checks that fall due meanwhile).
 *
 * The baseline checks the gateway enqueues (one per monitor, what a real registration costs) are
 * dropped before the scheduler starts and the monitors marked checked, so the steady state is
 * measured, not 100,000 first checks.
 *
 *   pnpm bench:scale-monitors [--monitors 100000] [--concurrency 32] [--idle-secs 120]
 */
import { parseArgs } from 'node:util';
import { createDb } from '@wcs/db';
import { QueueProducer } from '@wcs/queues';
import { request } from 'undici';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  pool,
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
    monitors: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '32' },
    'idle-secs': { type: 'string', default: '120' },
    'reconcile-ms': { type: 'string', default: '60000' },
  },
});
const MONITORS = Number(values.monitors);
const CONCURRENCY = Number(values.concurrency);
const IDLE_SECS = Number(values['idle-secs']);
const DAY_MS = 24 * 3_600_000;
const BUCKETS = 96;
const MB = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const env = benchEnv;
  const prefix = `bench-scalemon-${Date.now()}`;
  const db = createDb(env.DATABASE_URL);
  const producer = new QueueProducer(env.REDIS_URL, prefix);
  const site = await startScaleSite(MONITORS, 12);
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
  const base = `http://127.0.0.1:${port}`;
  let scheduler: ReturnType<typeof startService> | undefined;
  let accountId = '';
  try {
    await waitHealthy(base);
    const account = await benchAccount(MONITORS * 10);
    accountId = account.accountId;
    const { headers } = account;
    const redis0 = await redisBytes(producer.connection, prefix);

    // 1. Registration through the API.
    const ids = Array.from({ length: MONITORS }, (_, i) => i);
    let refused = 0;
    const gwCpu0 = statSeconds(gateway.pid);
    const t0 = performance.now();
    await pool(ids, CONCURRENCY, async (i) => {
      const res = await request(`${base}/v1/monitor`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${site.url}${SCALE_PREFIX}${i}`, interval: 'daily' }),
      });
      await res.body.text();
      if (res.statusCode !== 201) refused++;
    });
    const regSecs = (performance.now() - t0) / 1000;
    const gwCpu = statSeconds(gateway.pid) - gwCpu0;
    const gwRss = gateway.pid ? treeRssKb(gateway.pid) : 0;
    const redisAfterReg = await redisBytes(producer.connection, prefix);

    // 2. Drop the baseline checks; the monitors count as checked.
    await producer.queue('monitor-check').obliterate({ force: true });
    // A next check in the future, as a baseline leaves it: otherwise the scheduler would owe each one
    // a catch-up check.
    await db.pool.query(
      "UPDATE monitors SET last_check_at = now(), next_check_at = now() + interval '1 day' WHERE account_id = $1",
      [accountId],
    );

    // 3. The scheduler: time until every monitor has its job scheduler.
    const healthPort = await freePort();
    const repeatKey = `${prefix}:monitor-check:repeat`;
    const t1 = performance.now();
    scheduler = startService('monitor-scheduler', {
      ...common,
      WORKER_CONCURRENCY: '8',
      MONITOR_RECONCILE_MS: values['reconcile-ms'] ?? '60000',
      HEALTH_PORT: String(healthPort),
      HEALTH_HOST: '127.0.0.1',
    });
    let scheduled = 0;
    while (scheduled < MONITORS - refused && performance.now() - t1 < 15 * 60_000) {
      await new Promise((r) => setTimeout(r, 500));
      scheduled = await producer.connection.zcard(repeatKey);
    }
    const schedSecs = (performance.now() - t1) / 1000;
    await waitHealthy(`http://127.0.0.1:${healthPort}`);

    // 4. Spread of the next fire times over the day.
    const scores: number[] = [];
    for (let start = 0; ; start += 10_000) {
      const page = await producer.connection.zrange(repeatKey, start, start + 9_999, 'WITHSCORES');
      if (page.length === 0) break;
      for (let i = 1; i < page.length; i += 2) scores.push(Number(page[i]));
    }
    const buckets = new Array<number>(BUCKETS).fill(0);
    const perSecond = new Map<number, number>();
    for (const s of scores) {
      buckets[Math.floor(((s % DAY_MS) / DAY_MS) * BUCKETS)]! += 1;
      const sec = Math.floor(s / 1000);
      perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
    }
    const mean = scores.length / BUCKETS;
    const maxBucket = Math.max(...buckets);
    const minBucket = Math.min(...buckets);
    const busiestSecond = Math.max(0, ...perSecond.values());
    const redisAfterSched = await redisBytes(producer.connection, prefix);

    // 5. Steady state.
    const cpu0 = statSeconds(scheduler.pid);
    const checks0 = await checksOf(db, accountId);
    let peakKb = 0;
    const sampler = setInterval(() => {
      if (scheduler?.pid) peakKb = Math.max(peakKb, treeRssKb(scheduler.pid));
    }, 1000);
    await new Promise((r) => setTimeout(r, IDLE_SECS * 1000));
    clearInterval(sampler);
    const idleCpu = statSeconds(scheduler.pid) - cpu0;
    const checks = (await checksOf(db, accountId)) - checks0;

    console.log(`\nScale monitors: ${MONITORS.toLocaleString('en')} daily monitors on a local site\n`);
    console.log('| what | figure |');
    console.log('|---|---|');
    console.log(
      `| registration, POST /v1/monitor (${CONCURRENCY} at once) | ${(MONITORS / regSecs).toFixed(0)} monitors/s (${regSecs.toFixed(0)} s, ${refused} refused); gateway CPU ${((gwCpu / MONITORS) * 1000).toFixed(2)} ms a monitor, RSS ${MB(gwRss * 1024)} |`,
    );
    console.log(
      `| Redis after registration (the baseline check jobs) | ${MB(redisAfterReg.ours - redis0.ours)} for this run's keys (${(((redisAfterReg.ours - redis0.ours) / MONITORS) | 0).toString()} B a monitor) |`,
    );
    console.log(
      `| scheduler start to every job scheduler created | ${schedSecs.toFixed(1)} s (${scheduled} schedulers) |`,
    );
    console.log(
      `| spread of next fire times over the day (${BUCKETS} buckets of 15 min) | mean ${mean.toFixed(0)}, fullest ${maxBucket} (${(maxBucket / mean).toFixed(2)}× the mean), emptiest ${minBucket}; busiest second ${busiestSecond} |`,
    );
    console.log(
      `| Redis with the schedulers | ${MB(redisAfterSched.ours)} for this run's keys (${((redisAfterSched.ours / Math.max(1, scheduled)) | 0).toString()} B a monitor); server used_memory ${MB(redisAfterSched.used)} |`,
    );
    console.log(
      `| scheduler steady state, ${IDLE_SECS} s | CPU ${((idleCpu / IDLE_SECS) * 100).toFixed(1)} % of a core, peak RSS ${MB(peakKb * 1024)}, ${checks} checks ran |`,
    );
    console.log(
      `\nspread check: fullest bucket within 1.5× the mean: ${maxBucket <= mean * 1.5 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    if (scheduler) await stopProcess(scheduler);
    await stopProcess(gateway);
    // The next run's scheduler would schedule these too.
    if (accountId) await db.pool.query('DELETE FROM monitors WHERE account_id = $1', [accountId]);
    await site.close();
    await producer
      .queue('monitor-check')
      .obliterate({ force: true })
      .catch(() => undefined);
    await producer.close();
    await db.close();
  }
}

async function checksOf(db: ReturnType<typeof createDb>, accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM monitor_checks k JOIN monitors m ON m.id = k.monitor_id WHERE m.account_id = $1`,
    [accountId],
  );
  return rows[0]?.n ?? 0;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
