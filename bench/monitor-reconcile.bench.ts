/**
 * Monitor reconciliation, in this process against the real PostgreSQL and Redis: with
 * `--monitors` active daily monitors, how long one reconcile pass takes when Redis is empty (every
 * scheduler re-created), when nothing changed (the periodic case), and when some monitors were
 * paused (their schedulers removed). Its own queue prefix; its rows are deleted afterwards.
 *
 *   pnpm exec tsx scripts/with-stores.ts -- tsx bench/monitor-reconcile.bench.ts [--monitors 10000]
 */
import { parseArgs } from 'node:util';
import { AccountsRepository, createDb, MonitorsRepository } from '@wcs/db';
import { createLogger } from '../packages/logger/src';
import { QueueProducer } from '../packages/queues/src';
import { MonitorReconciler, MonitorSchedules } from '../services/monitor-scheduler/src';
import { benchEnv, median } from './bench-utils';

const { values } = parseArgs({
  options: { monitors: { type: 'string', default: '10000' }, paused: { type: 'string', default: '100' } },
});
const MONITORS = Number(values.monitors);
const PAUSED = Number(values.paused);
const WEEK_MS = 7 * 24 * 3_600_000;

async function main(): Promise<void> {
  const db = createDb(benchEnv.DATABASE_URL);
  const prefix = `bench-monrec-${Date.now()}`;
  const producer = new QueueProducer(benchEnv.REDIS_URL, prefix);
  const { accountId } = await new AccountsRepository(db).create({ plan: 'scale', credits: 10 });
  try {
    const now = Date.now();
    const rows = Array.from({ length: MONITORS }, (_, i) => ({
      accountId,
      url: `https://example.test/page/${i}`,
      interval: 'daily',
      status: 'active',
      lastCheckAt: new Date(now),
      nextCheckAt: new Date(now + 3_600_000),
      jitterMs: Math.floor(Math.random() * WEEK_MS),
    }));
    for (let i = 0; i < rows.length; i += 5_000) {
      await db.prisma.monitor.createMany({ data: rows.slice(i, i + 5_000) });
    }
    const queue = producer.queue('monitor-check');
    const monitors = new MonitorsRepository(db);
    const reconciler = new MonitorReconciler(
      {
        monitors,
        schedules: new MonitorSchedules(queue, 1),
        queue,
        redis: producer.connection,
        logger: createLogger({ service: 'bench', level: 'warn' }),
      },
      { intervalMs: 60_000 },
    );
    const timed = async () => {
      const t0 = performance.now();
      const r = await reconciler.runOnce({ force: true });
      return { ms: performance.now() - t0, r };
    };
    const empty = await timed();
    const same: number[] = [];
    let unchanged = empty.r;
    for (let i = 0; i < 5; i++) {
      const p = await timed();
      same.push(p.ms);
      unchanged = p.r;
    }
    const victims = await db.prisma.monitor.findMany({
      where: { accountId },
      select: { id: true },
      take: PAUSED,
    });
    await db.prisma.monitor.updateMany({
      where: { id: { in: victims.map((v) => v.id) } },
      data: { status: 'paused' },
    });
    const paused = await timed();
    console.log(
      `monitor reconcile — ${empty.r.active} active monitors in PostgreSQL (${MONITORS} of this run)`,
    );
    console.log('| pass | time | created | removed | catch-ups |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| Redis empty | ${empty.ms.toFixed(0)} ms | ${empty.r.created} | ${empty.r.removed} | ${empty.r.catchUps} |`,
    );
    console.log(
      `| nothing changed (median of 5) | ${median(same).toFixed(0)} ms | ${unchanged.created} | ${unchanged.removed} | ${unchanged.catchUps} |`,
    );
    console.log(
      `| ${PAUSED} paused | ${paused.ms.toFixed(0)} ms | ${paused.r.created} | ${paused.r.removed} | ${paused.r.catchUps} |`,
    );
  } finally {
    await db.prisma.monitor.deleteMany({ where: { accountId } });
    let cursor = '0';
    do {
      const [next, keys] = await producer.connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
      cursor = next;
      if (keys.length > 0) await producer.connection.del(...keys);
    } while (cursor !== '0');
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
