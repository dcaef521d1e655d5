/** The polling loop behind crawlAndWait and batchScrapeAndWait. */

import { abortableSleep } from './abortable-sleep.js';
import type { CallOptions, Progress, WaitOptions } from './api-types.js';
import { ServiceError } from './service-error.js';

export const DEFAULT_POLL_INTERVAL_MS = 2_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

interface JobSnapshot {
  status: string;
  total: number;
  completed: number;
  failed: number;
}

export async function waitForJob<S extends JobSnapshot>(
  job: { kind: 'crawl' | 'batch'; id: string; statusMethod: string },
  poll: () => Promise<S>,
  isFinished: (snapshot: S) => boolean,
  opts: WaitOptions & CallOptions,
): Promise<S> {
  const interval = Math.max(0, opts.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const snapshot = await poll();
    const progress: Progress = {
      id: job.id,
      status: snapshot.status,
      total: snapshot.total,
      completed: snapshot.completed,
      failed: snapshot.failed,
    };
    opts.onProgress?.(progress);
    if (isFinished(snapshot)) return snapshot;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new ServiceError(
        0,
        `${job.kind} ${job.id} not finished after ${timeoutMs / 1000} s (${snapshot.completed + snapshot.failed}/${snapshot.total} done); it keeps running, poll it with ${job.statusMethod}`,
        'CLIENT_TIMEOUT',
        { ...progress },
      );
    }
    await abortableSleep(Math.min(interval, left), opts.signal);
  }
}
