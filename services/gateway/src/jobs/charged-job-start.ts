import { InternalError } from '@wcs/errors';
import type {
  JobSecrets,
  PageSecrets,
  PayloadInputOf,
  QueueProducer,
  ResultOf,
  SealedSecrets,
  WaitedQueue,
} from '@wcs/queues';
import type { JobClock } from '../middleware/server-timing';
import { type CallerResponse, callerGone } from './caller-gone';

/**
 * The two ways runChargedJob hands its job to the workers, as one handle: `answer` is asked for
 * once the charge is in, `end` is called in every case (charged or not) after that.
 *
 * - held (`holdJob`): the job is added while the credits are reserved, held back from the workers
 *   (QueueProducer.stage), and released once the charge is in. A refused charge removes it, so
 *   nothing runs unpaid; a held job that outlives its gateway surfaces only past its deadline,
 *   and no worker runs it then.
 * - early (`startJob`): the job goes to the workers at once, beside the charge. For a key whose
 *   recent charges left a balance that covers the request (BalanceHints): the charge's commit then
 *   no longer delays the job. A refused charge cancels the job ('refused'), and the answer is never
 *   given: what the caller gets is the charge's 402, nothing is billed.
 */
export interface ChargedJobHandle<N extends WaitedQueue> {
  answer(): Promise<ResultOf<N>>;
  end(charged: boolean): Promise<void>;
}

/** What runChargedJob knows of the job it hands over. */
export interface JobStart<N extends WaitedQueue> {
  requestId: string;
  secrets?: PageSecrets | undefined;
  queue: N;
  payload: PayloadInputOf<N>;
  waitMs: number;
  caller?: CallerResponse | undefined;
  clock?: JobClock | undefined;
}

type StartDeps = { producer: QueueProducer; secrets?: JobSecrets };

/** The sealed secrets' key outlives the wait by this much at most (the gateway drops it at once). */
const SECRET_TTL_MARGIN_MS = 5_000;
/** A held job that nobody released surfaces this long after its deadline (already passed then). */
const STAGED_HOLD_MARGIN_MS = 1_000;

export function holdJob<N extends WaitedQueue>(deps: StartDeps, a: JobStart<N>): ChargedJobHandle<N> {
  const staged = (async () => {
    const sealed = await sealSecrets(deps, a);
    try {
      const job = await deps.producer.stage(a.queue, jobPayload(a, sealed), {
        jobId: a.requestId,
        holdMs: a.waitMs + STAGED_HOLD_MARGIN_MS,
      });
      return { job, sealed };
    } catch (err) {
      await dropSecrets(deps, sealed);
      throw err;
    }
  })();
  // Awaited by `answer`, or by `end` when the answer is never asked for (a refused charge).
  staged.catch(() => undefined);
  let released = false;
  return {
    answer: async () => {
      // A failed add or release is the queue's error: refunded like any other.
      const { job } = await staged;
      markEnqueued(a.clock);
      // Released once the wait listens for its end; validated against the document contract,
      // not cast: a result outside it is INTERNAL.
      return deps.producer.waitFor(a.queue, job, a.waitMs, {
        ...(a.caller ? { signal: callerGone(a.caller) } : {}),
        release: async () => {
          await deps.producer.release(job);
          released = true;
        },
      });
    },
    end: async () => {
      const held = await staged.catch(() => undefined);
      if (held && !released) await deps.producer.discard(a.queue, a.requestId);
      await dropSecrets(deps, held?.sealed);
    },
  };
}

export function startJob<N extends WaitedQueue>(deps: StartDeps, a: JobStart<N>): ChargedJobHandle<N> {
  const refused = new AbortController();
  const sealing = sealSecrets(deps, a);
  const answer = sealing.then((sealed) =>
    deps.producer.addAndWait(a.queue, jobPayload(a, sealed), {
      jobId: a.requestId,
      timeoutMs: a.waitMs,
      ...(a.caller ? { signal: callerGone(a.caller) } : {}),
      refused: refused.signal,
      onAdded: () => markEnqueued(a.clock),
    }),
  );
  // Awaited by the work once charged; otherwise below, after the cancel.
  answer.catch(() => undefined);
  return {
    answer: () => answer,
    end: async (charged) => {
      if (!charged) refused.abort();
      // Settled at once when refused (the wait stops, and cancels the job before it returns).
      await answer.catch(() => undefined);
      await dropSecrets(deps, await sealing.catch(() => undefined));
    },
  };
}

function sealSecrets(deps: StartDeps, a: JobStart<WaitedQueue>): Promise<SealedSecrets | undefined> {
  if (!a.secrets) return Promise.resolve(undefined);
  if (!deps.secrets)
    return Promise.reject(new InternalError('runChargedJob: secrets given without a JobSecrets store'));
  return deps.secrets.seal(a.requestId, a.secrets, a.waitMs + SECRET_TTL_MARGIN_MS);
}

async function dropSecrets(deps: StartDeps, sealed: SealedSecrets | undefined): Promise<void> {
  if (sealed) await deps.secrets?.drop(sealed.id).catch(() => undefined);
}

/** The payload with its deadline set from now (the end of the wait) and the secrets sealed. */
function jobPayload<N extends WaitedQueue>(a: JobStart<N>, sealed: SealedSecrets | undefined) {
  return {
    ...a.payload,
    deadlineAt: Date.now() + a.waitMs,
    ...(sealed ? { secrets: sealed } : {}),
  };
}

function markEnqueued(clock: JobClock | undefined): void {
  if (!clock) return;
  clock.enqueuedAt = Date.now();
  if (clock.billingStartedAt !== undefined) clock.billingMs = performance.now() - clock.billingStartedAt;
}
