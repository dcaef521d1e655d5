/**
 * Monitor benchmark, in this process against the real PostgreSQL and Redis:
 *  1. registration: 10,000 daily monitors in PostgreSQL → time for the scheduler's start-up
 *     rebuild to upsert their BullMQ job schedulers (what a restart after a Redis loss costs);
 *  2. spread: min/max/stddev of the schedulers' next fire times and the busiest second;
 *  3. checks/s: `--checks` monitors' baseline checks against a local fixture site, concurrency
 *     WORKER_CONCURRENCY (default 8), fetch engine, through scrape → hash → transaction.
 *
 *   pnpm bench:monitor [--monitors 10000] [--checks 300] [--concurrency 8]
 */
import { parseArgs } from 'node:util';
import { AccountsRepository, createDb, MonitorsRepository } from '@wcs/db';
import { startFixtureSite } from '@wcs/testing';
import { createLogger } from '../packages/logger/src';
import { QueueProducer } from '../packages/queues/src';
import {
  loadMonitorSchedulerEnv,
  MonitorSchedules,
  startMonitorScheduler,
} from '../services/monitor-scheduler/src';
import { benchEnv } from './bench-utils';

const env = benchEnv;
const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    checks: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
  },
});
const MONITORS = Number(values.monitors);
const CHECKS = Number(values.checks);
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

async function clearPrefix(producer: QueueProducer, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await producer.connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length > 0) await producer.connection.del(...keys);
  } while (cursor !== '0');
}

async function registration(db: ReturnType<typeof createDb>, accountId: string): Promise<void> {
  const prefix = `bench-mon-${Date.now()}`;
  const now = new Date();
  const rows = Array.from({ length: MONITORS }, (_, i) => ({
    accountId,
    url: `https://example.test/page/${i}`,
    interval: 'daily',
    status: 'active',
    // Already checked: the rebuild only upserts schedulers (no baseline jobs).
    lastCheckAt: now,
    jitterMs: Math.floor(Math.random() * WEEK_MS),
  }));
  for (let i = 0; i < rows.length; i += 5_000) {
    await db.prisma.monitor.createMany({ data: rows.slice(i, i + 5_000) });
  }
  const producer = new QueueProducer(env.REDIS_URL, prefix);
  try {
    const queue = producer.queue('monitor-check');
    const schedules = new MonitorSchedules(queue, 1);
    const monitors = new MonitorsRepository(db);
    const t0 = performance.now();
    const first = await schedules.rebuild(monitors);
    const t1 = performance.now();
    const again = await schedules.rebuild(monitors);
    const t2 = performance.now();
    const all = await queue.getJobSchedulers(0, -1, true);
    const nexts = all.map((s) => Number(s.next)).filter((n) => Number.isFinite(n) && n > 0);
    const rel = nexts.map((n) => (n - Date.now()) / 1000);
    const mean = rel.reduce((a, b) => a + b, 0) / rel.length;
    const sd = Math.sqrt(rel.reduce((a, b) => a + (b - mean) ** 2, 0) / rel.length);
    const perSecond = new Map<number, number>();
    for (const n of nexts)
      perSecond.set(Math.floor(n / 1000), (perSecond.get(Math.floor(n / 1000)) ?? 0) + 1);
    console.log(`registration: ${first.scheduled} daily monitors → ${all.length} job schedulers`);
    console.log(
      `  rebuild from PostgreSQL: ${((t1 - t0) / 1000).toFixed(2)} s (${Math.round(first.scheduled / ((t1 - t0) / 1000))}/s); idempotent re-run: ${((t2 - t1) / 1000).toFixed(2)} s (${again.scheduled} upserts, ${again.removed} removed)`,
    );
    console.log(
      `  first fire, seconds from now: min ${Math.min(...rel).toFixed(1)}  max ${Math.max(...rel).toFixed(1)}  mean ${mean.toFixed(0)}  stddev ${sd.toFixed(0)} (uniform over a day ≈ ${(86_400 / Math.sqrt(12)).toFixed(0)})`,
    );
    console.log(
      `  busiest second: ${Math.max(...perSecond.values())} monitors; distinct seconds: ${perSecond.size}`,
    );
    await clearPrefix(producer, prefix);
  } finally {
    await producer.close();
  }
}

async function checksPerSecond(db: ReturnType<typeof createDb>, accountId: string): Promise<void> {
  const site = await startFixtureSite({ pages: CHECKS });
  const prefix = `bench-monchk-${Date.now()}`;
  const monitors = new MonitorsRepository(db);
  const ids: string[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const m = await monitors.create({
      accountId,
      url: `${site.url}/article/${i}`,
      interval: 'weekly',
      webhookUrl: null,
      jitterMs: Math.floor(Math.random() * WEEK_MS),
    });
    ids.push(m.id);
  }
  // Connected before the run: it clears the bench's queue keys afterwards.
  const cleaner = new QueueProducer(env.REDIS_URL, prefix);
  const t0 = performance.now();
  // The scheduler's rebuild enqueues a baseline check for every never-checked monitor.
  const scheduler = await startMonitorScheduler(
    loadMonitorSchedulerEnv({
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_TARGETS: 'true',
      WORKER_CONCURRENCY: values.concurrency,
    }),
    createLogger({ service: 'bench', level: 'warn' }),
  );
  try {
    for (;;) {
      const done = await db.prisma.monitor.count({ where: { id: { in: ids }, lastCheckAt: { not: null } } });
      if (done >= CHECKS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const secs = (performance.now() - t0) / 1000;
    const failures = await db.prisma.monitorCheck.groupBy({
      by: ['errorCode'],
      where: { monitorId: { in: ids }, error: { not: null } },
      _count: true,
    });
    const failed = failures.map((f) => `${f.errorCode}: ${f._count}`).join(', ') || 'none';
    console.log(
      `checks: ${CHECKS} checks (scrape + hash + charge + record) in ${secs.toFixed(2)} s = ${(CHECKS / secs).toFixed(1)} checks/s at concurrency ${values.concurrency} (failed: ${failed})`,
    );
  } finally {
    await scheduler.close();
    await clearPrefix(cleaner, prefix);
    await cleaner.close();
    await site.close();
  }
}

async function main(): Promise<void> {
  const db = createDb(env.DATABASE_URL);
  const account = await new AccountsRepository(db).create({ plan: 'scale', credits: 1_000_000 });
  try {
    await registration(db, account.accountId);
    await checksPerSecond(db, account.accountId);
  } finally {
    // Cascades to the bench's monitors, checks and ledger rows.
    await db.prisma.account.delete({ where: { id: account.accountId } });
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
