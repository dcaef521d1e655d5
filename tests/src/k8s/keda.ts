/**
 * What KEDA's `redis` scaler sees, for tests/src/k8s-manifests.test.ts: the length it reads for a
 * key, and a BullMQ job left behind by a dead worker (the stalled-job path) to see where it lands.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createRedisConnection, type RedisClient } from '@wcs/queues';
import { ROOT } from './manifests';

/**
 * The length KEDA's `redis` scaler reads for `key`. Like the scaler (pkg/scalers/redis_scaler.go,
 * KEDA 2.x), it asks the key's TYPE and counts a list with LLEN, a sorted set with ZCARD, a set
 * with SCARD, a hash with HLEN, a missing key as 0; any other type is an error there.
 */
export async function kedaListLength(redis: RedisClient, key: string): Promise<number> {
  const type = await redis.type(key);
  switch (type) {
    case 'list':
    case 'none':
      return redis.llen(key);
    case 'zset':
      return redis.zcard(key);
    case 'set':
      return redis.scard(key);
    case 'hash':
      return redis.hlen(key);
    default:
      throw new Error(`KEDA's redis scaler cannot count ${key}, a ${type}`);
  }
}

/** The parts of BullMQ's Worker used here (the same bullmq @wcs/queues runs on). */
interface BullWorker {
  getNextJob(token: string, opts?: { block?: boolean }): Promise<{ id?: string } | undefined>;
  /** Protected in BullMQ's types; the stalled-job check its timer runs. */
  moveStalledJobsToWait(): Promise<unknown>;
  close(force?: boolean): Promise<void>;
}
type BullWorkerClass = new (name: string, processor: null, opts: Record<string, unknown>) => BullWorker;

const bullmq = () =>
  createRequire(path.join(ROOT, 'packages/queues/package.json'))('bullmq') as { Worker: BullWorkerClass };

/**
 * Take the next job of `queue` as a worker that then dies (no lock renewal), and run BullMQ's
 * stalled-job check until the job is handed back: where a worker killed mid-job leaves it.
 */
export async function stallNextJob(
  redisUrl: string,
  prefix: string,
  queue: string,
): Promise<string | undefined> {
  const connection = createRedisConnection(redisUrl, 'worker');
  const lockMs = 400;
  const worker = new (bullmq().Worker)(queue, null, {
    connection,
    prefix,
    autorun: false,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 5,
  });
  try {
    const job = await worker.getNextJob('dead-worker', { block: false });
    // First check: the job is active, so it becomes a stall candidate; after its lock expired the
    // second one moves it back (each check may run once per stalledInterval).
    await worker.moveStalledJobsToWait();
    await new Promise((r) => setTimeout(r, lockMs * 2));
    await worker.moveStalledJobsToWait();
    return job?.id;
  } finally {
    await worker.close(true);
    connection.disconnect();
  }
}
