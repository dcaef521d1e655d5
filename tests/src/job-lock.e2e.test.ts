import { randomUUID } from 'node:crypto';
import { loadEnv } from '@wcs/config';
import {
  type DefinedWorker,
  defineWorker,
  isJobLockLost,
  keyPrefixOn,
  QueueProducer,
  waitForJob,
} from '@wcs/queues';
import { Redis } from 'ioredis';
import { z } from 'zod';

/**
 * `ctx.confirmLock` against real Redis and BullMQ: a job whose lock another worker took (here: the
 * lock key rewritten with another token, as a stalled check and a new take leave it) is dropped
 * before its fetch, without this worker writing anything for it; a lock that is still ours is
 * extended; within half the lock duration of the take, no round trip is made. The lock's age is
 * read from a clock the test steps, not from waiting.
 */
const { REDIS_URL } = loadEnv(z.object({ REDIS_URL: z.string().default('redis://127.0.0.1:6379') }));
const prefix = `job-lock-${randomUUID().slice(0, 8)}`;
const LOCK_MS = 60_000;

let redis: Redis;
let producer: QueueProducer;
let worker: DefinedWorker;
let clock = 0;
type Outcome = 'held' | 'lost' | string;
/** Told what each job's processor saw when it confirmed its lock, by job id. */
const reports = new Map<string, (outcome: Outcome) => void>();
/** Opened by the test once it has set the scene for a job (its lock, the clock). */
const gates = new Map<string, (value: undefined) => void>();
const taken = new Map<string, (value: undefined) => void>();

const lockKey = (jobId: string) => `${keyPrefixOn(REDIS_URL, prefix)}:webhook:${jobId}:lock`;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  producer = new QueueProducer(REDIS_URL, prefix);
  worker = defineWorker(
    'webhook',
    async (_payload, job, ctx) => {
      const id = job.id ?? '';
      const gate = new Promise<undefined>((resolve) => gates.set(id, resolve));
      taken.get(id)?.(undefined);
      await gate;
      const outcome = await ctx.confirmLock().then(
        () => 'held',
        (err: unknown) => (isJobLockLost(err) ? 'lost' : String(err)),
      );
      reports.get(id)?.(outcome);
      if (outcome === 'lost') await ctx.confirmLock();
      return 'fetched';
    },
    {
      redis: REDIS_URL,
      prefix,
      concurrency: 4,
      lockDurationMs: LOCK_MS,
      stalledIntervalMs: LOCK_MS,
      now: () => Date.now() + clock,
    },
  );
  await worker.worker.waitUntilReady();
});
afterAll(async () => {
  await worker?.close();
  await producer?.close();
  redis?.disconnect();
});

/** Enqueues a job and resolves once the worker's processor holds it (parked at its gate). */
async function takenJob() {
  const jobId = randomUUID();
  const held = new Promise<undefined>((resolve) => taken.set(jobId, resolve));
  const outcome = new Promise<Outcome>((resolve) => reports.set(jobId, resolve));
  const job = await producer.enqueue('webhook', { changeId: 'c' }, { jobId });
  await held;
  return { job, jobId, outcome, open: () => gates.get(jobId)?.(undefined) };
}

describe('confirmLock: a job another worker took is not run on', () => {
  it('a lock rewritten by another worker past half its duration: dropped, the job left to its owner', async () => {
    const { job, jobId, outcome, open } = await takenJob();
    await redis.set(lockKey(jobId), 'another-workers-token', 'PX', LOCK_MS);
    clock = LOCK_MS; // the worker was cut off for a whole lock duration
    // BullMQ's move to failed after the processor threw: refused for want of the lock.
    const refused = new Promise<unknown>((resolve) => worker.worker.once('error', resolve));
    open();
    await expect(outcome).resolves.toBe('lost');
    expect(String(await refused)).toMatch(/Lock mismatch|Missing lock/);
    // Nothing of this worker touched the job: still active, the other worker's lock in place.
    expect(await job.getState()).toBe('active');
    expect(await redis.get(lockKey(jobId))).toBe('another-workers-token');
    expect(await redis.hget(`${keyPrefixOn(REDIS_URL, prefix)}:webhook:${jobId}`, 'failedReason')).toBeNull();
    clock = 0;
  });

  it('a lock still ours past half its duration: extended by the check, the job goes on', async () => {
    const { job, jobId, outcome, open } = await takenJob();
    await redis.pexpire(lockKey(jobId), 1_000); // as if its renewal had not come for a while
    clock = LOCK_MS;
    open();
    await expect(outcome).resolves.toBe('held');
    expect(await redis.pttl(lockKey(jobId))).toBeGreaterThan(1_000);
    clock = 0;
    await expect(waitForJob(job, producer.waitSource('webhook'), 15_000)).resolves.toBe('fetched');
  });

  it('within half the lock duration of the take: no round trip (a rewritten lock is not even seen)', async () => {
    const { jobId, outcome, open } = await takenJob();
    await redis.set(lockKey(jobId), 'another-workers-token', 'PX', LOCK_MS);
    clock = LOCK_MS / 2 - 5_000;
    const refused = new Promise<unknown>((resolve) => worker.worker.once('error', resolve));
    open();
    await expect(outcome).resolves.toBe('held');
    // Its lock was never extended (still the other token): the check did not ask Redis.
    expect(await redis.get(lockKey(jobId))).toBe('another-workers-token');
    // The processor went on and finished; its completion is refused the same way.
    expect(String(await refused)).toMatch(/Lock mismatch|Missing lock/);
    clock = 0;
  });
});
