import { decodeError, InternalError, ServiceError, ServiceUnavailableError, TimeoutError } from '@wcs/errors';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import type { z } from 'zod';

/** The reason every pending wait fails with when its QueueProducer closes. */
export const QUEUE_CLOSED_MESSAGE = 'Job queue closed while waiting; retry';

/** Why a wait gave up (the job itself may still be running). */
export type WaitStop = 'timeout' | 'disconnect' | 'shutdown' | 'refused';

export interface WaitOptions {
  /** The caller went away (client disconnected): stop waiting at once. */
  signal?: AbortSignal;
  /** The job was started before its charge was in, and the charge was refused: stop at once. */
  refused?: AbortSignal;
  /** Called once when the wait gives up while the job may still be queued or running. */
  onStop?: (why: WaitStop) => void;
  /**
   * Hands a held job (QueueProducer.stage) to the workers once the wait listens for its end: it
   * cannot end before that, so the wait needs no look-up of an end it might have missed (one round
   * trip less). Its error (a ServiceError) is the wait's.
   */
  release?: () => Promise<void>;
}

/** Where a job's end is heard (its queue's events) and looked up (its queue). */
export interface JobWaitSource {
  events: QueueEvents;
  queue: Queue;
  /**
   * The answers workers push for this queue (job-answers.ts): `completed:<id>` as on `events`,
   * usually sooner; the events still decide when no answer comes.
   */
  answers?: NodeJS.EventEmitter;
}

/**
 * BullMQ's `Job.waitUntilFinished` without its crash: its promise executor is async, so a Redis
 * error in its "finished already?" look-up (a failover between adding the job and that look-up)
 * became an unhandled rejection, which ends a Node 20 process. Same events, same look-up and the
 * same messages; a look-up that fails leaves the wait to the events and the timer.
 */
function jobFinished(
  job: Job,
  from: JobWaitSource,
  ttlMs: number,
  release?: () => Promise<void>,
): Promise<unknown> {
  const id = job.id ?? '';
  const completedEvent = `completed:${id}`;
  const failedEvent = `failed:${id}`;
  // QueueEvents emits `completed:<id>` / `failed:<id>` per job, and QueueProducer.close() emits
  // 'closing' on its queues to release the waits: events outside BullMQ's typed listener maps.
  const events = from.events as unknown as NodeJS.EventEmitter;
  const closing = from.queue as unknown as NodeJS.EventEmitter;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      events.off(completedEvent, onCompleted);
      events.off(failedEvent, onFailed);
      from.answers?.off(completedEvent, onCompleted);
      closing.off('closing', onFailed);
      fn();
    };
    const onCompleted = (args: { returnvalue: unknown }) => settle(() => resolve(args.returnvalue));
    const onFailed = (args: { failedReason?: string } | string) =>
      settle(() => reject(new Error(typeof args === 'string' ? args : (args.failedReason ?? 'failed'))));
    const timer = setTimeout(
      () =>
        onFailed(
          `Job wait ${job.name} timed out before finishing, no finish notification arrived after ${ttlMs}ms (id=${id})`,
        ),
      ttlMs,
    );
    events.on(completedEvent, onCompleted);
    events.on(failedEvent, onFailed);
    from.answers?.on(completedEvent, onCompleted);
    closing.on('closing', onFailed);
    if (release) {
      release().catch((err: unknown) => settle(() => reject(err)));
      return;
    }
    // It may have ended before the listeners were there: look once the events are being read.
    void (async () => {
      await from.events.waitUntilReady();
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed') return;
      const stored = await Job.fromId(from.queue, id);
      if (state === 'completed') onCompleted({ returnvalue: stored?.returnvalue });
      else onFailed({ failedReason: stored?.failedReason ?? 'failed' });
    })().catch(() => undefined);
  });
}

/**
 * Wait for a job's return value. Failures come back as the ServiceError the worker threw;
 * running out of time is a TimeoutError (504), never an empty success. With a `result` schema
 * (the catalog's `jobResults`) the value is validated, not cast: a worker that answers outside
 * the contract is an InternalError whose details name the offending paths. When the wait itself
 * gives up (timeout, `signal`, the producer closing), `onStop` says why, so the job can be cancelled.
 */
export async function waitForJob<S extends z.ZodType>(
  job: Job,
  from: JobWaitSource,
  timeoutMs: number,
  result: S,
  opts?: WaitOptions,
): Promise<z.output<S>>;
export async function waitForJob<R = unknown>(job: Job, from: JobWaitSource, timeoutMs: number): Promise<R>;
export async function waitForJob(
  job: Job,
  from: JobWaitSource,
  timeoutMs: number,
  result?: z.ZodType,
  opts: WaitOptions = {},
): Promise<unknown> {
  let value: unknown;
  const { signal, refused } = opts;
  let onAbort: (() => void) | undefined;
  let onRefused: (() => void) | undefined;
  try {
    if (signal?.aborted) throw new CallerGone();
    if (refused?.aborted) throw new ChargeRefused();
    // The wait takes no signal: race it (its listeners go at its own timeout or the job's end).
    const finished = jobFinished(job, from, timeoutMs, opts.release);
    const gone = new Promise<never>((_, reject) => {
      onAbort = () => reject(new CallerGone());
      onRefused = () => reject(new ChargeRefused());
      signal?.addEventListener('abort', onAbort, { once: true });
      refused?.addEventListener('abort', onRefused, { once: true });
    });
    finished.catch(() => undefined);
    value = await Promise.race([finished, gone]);
  } catch (err) {
    // The release's own error (the queue could not take the job).
    if (err instanceof ServiceError) throw err;
    if (err instanceof CallerGone) {
      opts.onStop?.('disconnect');
      throw new TimeoutError('The client closed the connection before the answer; job cancelled');
    }
    if (err instanceof ChargeRefused) {
      opts.onStop?.('refused');
      // Never the caller's answer: the refused charge's own error is.
      throw new InternalError("The job's charge was refused; job cancelled");
    }
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out before finishing/i.test(message)) {
      opts.onStop?.('timeout');
      throw new TimeoutError(`Job did not finish within ${timeoutMs} ms; retry`);
    }
    // QueueProducer.close() released the wait (shutdown).
    if (message === QUEUE_CLOSED_MESSAGE) {
      opts.onStop?.('shutdown');
      throw new ServiceUnavailableError('Shutting down; retry');
    }
    throw decodeError(message);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (onRefused) refused?.removeEventListener('abort', onRefused);
  }
  return result ? checkJobResult(result, value, `${job.queueName} job ${job.id ?? '?'}`) : value;
}

class CallerGone extends Error {}
class ChargeRefused extends Error {}

/** `value` parsed by `schema`, or an InternalError naming where it breaks the contract. */
export function checkJobResult<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new InternalError(`${what} returned a result outside the contract`, { details: { issues } });
}
