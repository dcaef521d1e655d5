import type { Job } from 'bullmq';

/**
 * Whether this worker still holds a job's lock, asked before a step another worker must not repeat
 * (a page's fetch). A worker cut off from Redis longer than the lock duration loses its jobs to
 * the stalled check of another worker, which runs them again; when the link comes back, the first
 * worker's processors carry on from wherever their awaits were parked and would fetch the same
 * page a second time (and write outcomes the new owner writes too).
 *
 * BullMQ renews locks in the background, but its renewal's success says nothing about *when* Redis
 * extended the lock (a reply parked behind a cut arrives late), so the check keeps its own time:
 * the lock is taken to be fresh for half its duration after the job was taken (`processedOn`, this
 * worker's clock before Redis set the lock) or after this check last extended it (the time the
 * extension was sent). Past that, the check extends the lock itself (one round trip, BullMQ's
 * `extendLock` script: it extends only a lock that still carries this worker's token). A job
 * whose step follows its take by less than half the lock duration — nearly every job — pays nothing.
 */
export class JobLockLostError extends Error {
  override readonly name = 'JobLockLostError';
  constructor(jobId: string) {
    super(`Job ${jobId}: its lock is no longer this worker's (another worker runs it now); dropped`);
  }
}

export const isJobLockLost = (err: unknown): err is JobLockLostError => err instanceof JobLockLostError;

/** `confirmLock` of one job: resolves while the lock is this worker's, throws JobLockLostError once not. */
export function lockConfirmer(
  job: Pick<Job, 'id' | 'processedOn' | 'extendLock'>,
  token: string | undefined,
  lockDurationMs: number,
  now: () => number = Date.now,
): () => Promise<void> {
  let freshSince = job.processedOn ?? now();
  return async () => {
    const sentAt = now();
    if (sentAt - freshSince < lockDurationMs / 2) return;
    // BullMQ types the token optional; without one there is no lock of ours to check.
    if (token === undefined) return;
    const extended = await job.extendLock(token, lockDurationMs);
    if (extended !== 1) throw new JobLockLostError(job.id ?? '');
    freshSince = sentAt;
  };
}
