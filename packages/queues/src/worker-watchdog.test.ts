import { randomUUID } from 'node:crypto';
import { rawEnv } from '@wcs/config';
import { QueueProducer } from './producer';
import { defineWorker } from './worker';
import { type WatchedWorker, WorkerWatchdog } from './worker-watchdog';

/** A worker as the watchdog sees it, its answers set by the test. */
function watched(over: Partial<{ running: number; lastTakenAt: number; waiting: number | Error }> = {}) {
  const state = { running: 0, lastTakenAt: 0, waiting: 3 as number | Error, ...over };
  const restarts: number[] = [];
  const w: WatchedWorker = {
    running: () => state.running,
    lastTakenAt: () => state.lastTakenAt,
    waiting: async () => {
      if (state.waiting instanceof Error) throw state.waiting;
      return state.waiting;
    },
    restart: async (n) => {
      restarts.push(n);
    },
  };
  return { state, restarts, dog: new WorkerWatchdog(w, 60_000) };
}

describe('WorkerWatchdog', () => {
  it('restarts a worker idle while jobs wait, on the second look in a row', async () => {
    const { dog, restarts } = watched();
    await dog.look();
    expect(restarts).toEqual([]);
    await dog.look();
    expect(restarts).toEqual([3]);
    // The count starts again after a restart.
    await dog.look();
    expect(restarts).toEqual([3]);
  });

  it('leaves a worker alone that runs a job, took one since the last look, or has nothing waiting', async () => {
    const busy = watched({ running: 1 });
    const idleEmpty = watched({ waiting: 0 });
    for (let i = 0; i < 4; i++) {
      await busy.dog.look();
      await idleEmpty.dog.look();
    }
    expect(busy.restarts).toEqual([]);
    expect(idleEmpty.restarts).toEqual([]);
    // A job taken between two looks starts the count again.
    const taking = watched();
    await taking.dog.look();
    taking.state.lastTakenAt = Date.now();
    await taking.dog.look();
    expect(taking.restarts).toEqual([]);
    taking.state.lastTakenAt = 0; // long ago, as it is by the next looks 10 s apart
    await taking.dog.look();
    expect(taking.restarts).toEqual([]);
    await taking.dog.look();
    expect(taking.restarts).toEqual([3]);
  });

  it('says nothing while Redis cannot be read, and counts again once it can', async () => {
    const { dog, state, restarts } = watched({ waiting: new Error('CLUSTERDOWN') });
    for (let i = 0; i < 4; i++) await dog.look();
    expect(restarts).toEqual([]);
    state.waiting = 2;
    await dog.look();
    await dog.look();
    expect(restarts).toEqual([2]);
  });
});

describe('defineWorker with its watchdog (real Redis, real BullMQ)', () => {
  const redisUrl = rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379';
  const prefix = `t-${randomUUID().slice(0, 8)}`;

  /**
   * A monitor-check worker whose first BullMQ worker is parked for good on its way to a job (as the
   * Cluster failover left it: it neither takes a job nor promotes a due delayed one); `enqueue` adds
   * one job. Returns the job ids run (waiting up to 20 s: a hang fails) and whether the worker was
   * replaced.
   */
  async function runWithParkedWorker(
    queuePrefix: string,
    enqueue: (producer: QueueProducer) => Promise<unknown>,
  ): Promise<{ ran: string[]; replaced: boolean }> {
    const producer = new QueueProducer(redisUrl, queuePrefix);
    const ran: string[] = [];
    const defined = defineWorker(
      'monitor-check',
      async (p) => {
        ran.push(p.monitorId);
      },
      {
        redis: redisUrl,
        prefix: queuePrefix,
        concurrency: 1,
        lockDurationMs: 5_000,
        stalledIntervalMs: 5_000,
        watchdogMs: 100,
      },
    );
    try {
      await defined.worker.waitUntilReady();
      const first = defined.worker;
      (first as unknown as { moveToActive: () => Promise<never> }).moveToActive = () =>
        new Promise<never>(() => {});
      await enqueue(producer);
      const deadline = Date.now() + 20_000;
      while (ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return { ran, replaced: defined.worker !== first };
    } finally {
      await defined.close();
      await producer.close();
    }
  }

  it('a worker that stopped taking jobs is replaced, and the new one runs the waiting job', async () => {
    const { ran, replaced } = await runWithParkedWorker(prefix, (producer) =>
      producer.enqueue('monitor-check', { monitorId: 'm-1' }),
    );
    expect(ran).toEqual(['m-1']);
    expect(replaced).toBe(true);
  });

  it('a delayed job past due that no worker promoted counts as waiting: the new worker runs it', async () => {
    const { ran, replaced } = await runWithParkedWorker(`${prefix}-d`, (producer) =>
      producer.enqueue('monitor-check', { monitorId: 'm-due' }, { delay: 200 }),
    );
    expect(ran).toEqual(['m-due']);
    expect(replaced).toBe(true);
  });
});
