import { DelayedError, type Job, type JobContext, type QueueName, type QueueProducer } from '@wcs/queues';

type Redis = QueueProducer['connection'];

/** How far ahead in a queue's wait list `WaitingAccounts` looks (the next jobs to be served). */
export const WAITING_LOOKAHEAD = 1_000;

/**
 * Which accounts have jobs waiting in one queue: the wait list's ids (one LRANGE), each job's
 * account read once (its payload never changes) and remembered while the job waits. Read only
 * when an account is at its share, so an account alone costs nothing per job.
 */
export class WaitingAccounts {
  private known = new Map<string, string | null>();

  private readonly waitKey: string;
  private readonly jobKey: (id: string) => string;

  constructor(
    private readonly producer: QueueProducer,
    name: QueueName,
    private readonly accountOf: (data: unknown) => string | undefined,
    private readonly lookahead = WAITING_LOOKAHEAD,
  ) {
    const queue = producer.queue(name);
    this.waitKey = queue.keys.wait ?? queue.toKey('wait');
    this.jobKey = (id) => queue.toKey(id);
  }

  /** Whether a job of another account than `account` waits among the next `lookahead` jobs. */
  async othersThan(account: string): Promise<boolean> {
    const redis = this.producer.connection;
    // The worker serves the wait list from its right end: the next jobs are the last ids.
    const ids = await redis.lrange(this.waitKey, -this.lookahead, -1);
    const unknown = ids.filter((id) => !this.known.has(id));
    const read = unknown.length > 0 ? await readData(redis, unknown.map(this.jobKey)) : [];
    const next = new Map<string, string | null>();
    for (const id of ids) next.set(id, this.known.get(id) ?? null);
    unknown.forEach((id, i) => {
      next.set(id, parseAccount(read[i], this.accountOf));
    });
    // Only ids still waiting are kept: the memory stays within the lookahead.
    this.known = next;
    for (const owner of next.values()) if (owner !== null && owner !== account) return true;
    return false;
  }
}

async function readData(redis: Redis, keys: string[]): Promise<unknown[]> {
  const pipeline = redis.pipeline();
  for (const key of keys) pipeline.hget(key, 'data');
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([err, value]) => (err ? null : value));
}

function parseAccount(raw: unknown, accountOf: (data: unknown) => string | undefined): string | null {
  if (typeof raw !== 'string') return null;
  try {
    return accountOf(JSON.parse(raw)) ?? null;
  } catch {
    return null;
  }
}

export interface AccountSlotsOptions {
  /** The worker's concurrency (its job slots in this process). */
  concurrency: number;
  /** Another account's work waiting in the queue (WaitingAccounts.othersThan). */
  othersWaiting: (account: string) => Promise<boolean>;
}

/**
 * A fair share of one worker's job slots per account. An account may hold at most
 * max(1, concurrency − 1) of them while another account's job waits in the queue: one slot is
 * always left for the others. An account alone gets every slot, and a job under its account's
 * share never waits for a Redis read.
 */
export class AccountSlots {
  readonly share: number;
  private readonly held = new Map<string, number>();

  constructor(private readonly opts: AccountSlotsOptions) {
    this.share = Math.max(1, opts.concurrency - 1);
  }

  /** Take a slot for `account`; false when it holds its share and someone else waits. */
  async take(account: string): Promise<boolean> {
    if (this.holding(account) >= this.share) {
      // Fairness is best effort: a failed read runs the job rather than failing or delaying it.
      const others = await this.opts.othersWaiting(account).catch(() => false);
      if (others) return false;
    }
    // Counted after the await: other jobs may have taken or released slots meanwhile.
    this.held.set(account, this.holding(account) + 1);
    return true;
  }

  /** Count a slot `take` refused but the job holds anyway. */
  force(account: string): void {
    this.held.set(account, this.holding(account) + 1);
  }

  release(account: string): void {
    const n = this.holding(account) - 1;
    if (n > 0) this.held.set(account, n);
    else this.held.delete(account);
  }

  holding(account: string): number {
    return this.held.get(account) ?? 0;
  }
}

/** How long a job put back waits in the delayed set: long enough to land behind the waiting jobs. */
export const PUT_BACK_MS = { min: 50, max: 200 } as const;

/**
 * `processor` behind its account's share of the worker's slots. A job over the share goes back to
 * the delayed set (then to the tail of the wait list) before doing any work, so the job waiting
 * behind it gets the slot. It is the same job: an interactive scrape keeps the gateway's charge
 * and its deadline (`deadlineAt`), which still fails it with TIMEOUT if it passes meanwhile.
 */
export function withAccountShare<P, R>(
  slots: AccountSlots,
  accountOf: (payload: P) => string,
  processor: (payload: P, job: Job, ctx: JobContext) => Promise<R>,
): (payload: P, job: Job, ctx: JobContext) => Promise<R> {
  return async (payload, job, ctx) => {
    const account = accountOf(payload);
    if (!(await slots.take(account))) {
      const delayMs = PUT_BACK_MS.min + Math.floor(Math.random() * (PUT_BACK_MS.max - PUT_BACK_MS.min));
      const moved = await job.moveToDelayed(Date.now() + delayMs, job.token).then(
        () => true,
        () => false,
      );
      if (moved) throw new DelayedError();
      // Not moved (Redis hiccup, lost lock): the job runs here rather than fail for fairness.
      slots.force(account);
    }
    try {
      return await processor(payload, job, ctx);
    } finally {
      slots.release(account);
    }
  };
}
