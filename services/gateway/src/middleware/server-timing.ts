/**
 * The `Server-Timing` header (W3C Server Timing) of a scrape answer: where the request's time went —
 * in the gateway (auth, validation; before the job and after its answer), billing (the charge, with
 * the job's add beside it, until the job is handed to the workers), waiting in the queue, fetching,
 * converting, persisting, and the answer's way back through Redis. Browsers'
 * devtools and `curl -i` show it; `pnpm bench:scrape` sums it per stage.
 */
import type { ScrapeJobResult } from '@wcs/queues';
import type { RequestHandler, Response } from 'express';

const received = new WeakMap<Response, number>();

/** First middleware: notes when the request arrived (the start of `total`). */
export const requestClock: RequestHandler = (_req, res, next) => {
  received.set(res, performance.now());
  next();
};

/** The worker's part of a job's answer (epoch ms at both ends, stage durations): its contract's. */
export type WorkerTimings = NonNullable<ScrapeJobResult['timings']>;

/**
 * What the gateway noted around the job: epoch ms when it was handed to the workers and when its
 * answer came (compared with the worker's epoch ms), and the billing before it (this process's
 * monotonic clock: sub-millisecond, which Date.now() is not).
 */
export interface JobClock {
  enqueuedAt?: number;
  answeredAt?: number;
  /** performance.now() when the charge was asked for. */
  billingStartedAt?: number;
  /** From billingStartedAt until the job went to the workers. */
  billingMs?: number;
}

/** Sets the header; without the worker's timings (an older worker) only `total` is given. */
export function setServerTiming(res: Response, clock: JobClock, worker: WorkerTimings | undefined): void {
  const start = received.get(res);
  if (start === undefined) return;
  const total = performance.now() - start;
  const metrics: Array<[string, number]> = [];
  if (worker && clock.enqueuedAt !== undefined && clock.answeredAt !== undefined) {
    // Clocks of two processes (machines, in a cluster): a skew shows as 0, never negative.
    const queue = Math.max(0, worker.startedAt - clock.enqueuedAt);
    const inWorker = worker.fetchMs + worker.contentMs + worker.persistMs;
    const job = Math.max(0, clock.answeredAt - clock.enqueuedAt);
    const billing = Math.min(clock.billingMs ?? 0, Math.max(0, total - job));
    metrics.push(
      ['gateway', Math.max(0, total - job - billing)],
      ['billing', billing],
      ['queue', queue],
      ['fetch', worker.fetchMs],
      ['content', worker.contentMs],
      ['persist', worker.persistMs],
      // The answer's way back through Redis, with the worker's overhead around the stages.
      ['result', Math.max(0, job - queue - inWorker)],
    );
  }
  metrics.push(['total', total]);
  res.setHeader('Server-Timing', metrics.map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', '));
}
