/**
 * The job-slot share's bookkeeping: a slot taken is given back however the job ends, a job over
 * the share is put back without running, and a put-back that fails runs the job instead. The
 * queue's side (real Redis, real worker) is tests/src/account-share.e2e.test.ts.
 */
import { DelayedError, type Job, type JobContext } from '@wcs/queues';
import { AccountSlots, PUT_BACK_MS, withAccountShare } from './account-slots';

const ctx: JobContext = {
  signal: new AbortController().signal,
  deadlineAt: null,
  confirmLock: async () => {},
};

/** The two members of a BullMQ job the wrapper uses; `moves` records each put-back's time. */
function job(moveFails = false): { job: Job; moves: number[] } {
  const moves: number[] = [];
  const fake = {
    token: 'token',
    moveToDelayed: async (ts: number) => {
      if (moveFails) throw new Error('Missing lock');
      moves.push(ts);
    },
  };
  return { job: fake as unknown as Job, moves };
}

describe('AccountSlots', () => {
  it('leaves one slot for the others: share = max(1, concurrency - 1)', () => {
    const never = async () => false;
    expect(new AccountSlots({ concurrency: 8, othersWaiting: never }).share).toBe(7);
    expect(new AccountSlots({ concurrency: 1, othersWaiting: never }).share).toBe(1);
  });

  it('asks the queue only at the share, and refuses only when another account waits', async () => {
    const asked: string[] = [];
    let others = false;
    const slots = new AccountSlots({
      concurrency: 3,
      othersWaiting: async (account) => {
        asked.push(account);
        return others;
      },
    });
    expect(await slots.take('a')).toBe(true);
    expect(await slots.take('a')).toBe(true);
    expect(asked).toEqual([]);
    expect(await slots.take('a')).toBe(true);
    others = true;
    expect(await slots.take('a')).toBe(false);
    expect(await slots.take('b')).toBe(true);
    expect(asked).toEqual(['a', 'a']);
    expect(slots.holding('a')).toBe(3);
  });

  it('runs the job when the queue cannot be read', async () => {
    const slots = new AccountSlots({
      concurrency: 2,
      othersWaiting: async () => {
        throw new Error('Connection is closed.');
      },
    });
    expect(await slots.take('a')).toBe(true);
    expect(await slots.take('a')).toBe(true);
  });
});

describe('withAccountShare', () => {
  const atShare = () => new AccountSlots({ concurrency: 2, othersWaiting: async () => true });

  it('gives the slot back when the processor fails', async () => {
    const slots = atShare();
    const run = withAccountShare(
      slots,
      (p: { accountId: string }) => p.accountId,
      async () => {
        throw new Error('boom');
      },
    );
    await expect(run({ accountId: 'a' }, job().job, ctx)).rejects.toThrow('boom');
    expect(slots.holding('a')).toBe(0);
  });

  it('puts a job over the share back without running it, and keeps no slot for it', async () => {
    const slots = atShare();
    await slots.take('a');
    let ran = 0;
    const run = withAccountShare(
      slots,
      (p: { accountId: string }) => p.accountId,
      async () => {
        ran += 1;
        return 'done';
      },
    );
    const { job: j, moves } = job();
    const before = Date.now();
    await expect(run({ accountId: 'a' }, j, ctx)).rejects.toBeInstanceOf(DelayedError);
    expect(ran).toBe(0);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toBeGreaterThanOrEqual(before + PUT_BACK_MS.min);
    expect(slots.holding('a')).toBe(1);
  });

  it('runs the job when it cannot be put back, and gives its slot back after', async () => {
    const slots = atShare();
    await slots.take('a');
    let holdingWhileRunning = 0;
    const run = withAccountShare(
      slots,
      (p: { accountId: string }) => p.accountId,
      async () => {
        holdingWhileRunning = slots.holding('a');
        return 'done';
      },
    );
    await expect(run({ accountId: 'a' }, job(true).job, ctx)).resolves.toBe('done');
    expect(holdingWhileRunning).toBe(2);
    expect(slots.holding('a')).toBe(1);
  });
});
