import { FairTaskQueue } from './fair-task-queue';

interface E {
  account: string;
  id: string;
}
const e = (account: string, id: string): E => ({ account, id });

/** Take until nothing may start; the ids started, in order. */
function drain(q: FairTaskQueue<E>): string[] {
  const out: string[] = [];
  for (let x = q.take(); x; x = q.take()) out.push(x.id);
  return out;
}

describe('FairTaskQueue', () => {
  it('alone, an account uses every thread, FIFO', () => {
    const q = new FairTaskQueue<E>(3);
    for (const id of ['a1', 'a2', 'a3', 'a4']) q.push(e('A', id));
    expect(drain(q)).toEqual(['a1', 'a2', 'a3']);
    expect(q.heldBy('A')).toBe(3);
    q.release('A');
    expect(drain(q)).toEqual(['a4']);
  });

  it('serves waiting accounts round-robin, FIFO within each', () => {
    const q = new FairTaskQueue<E>(1);
    for (const id of ['a1', 'a2', 'a3']) q.push(e('A', id));
    for (const id of ['b1', 'b2']) q.push(e('B', id));
    q.push(e('C', 'c1'));
    const order: string[] = [];
    for (let x = q.take(); x; x = q.take()) {
      order.push(x.id);
      q.release(x.account);
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('the next free thread goes to the account that waits, not to the one that holds them all', () => {
    const q = new FairTaskQueue<E>(2);
    for (const id of ['a1', 'a2', 'a3', 'a4']) q.push(e('A', id));
    expect(drain(q)).toEqual(['a1', 'a2']);
    q.push(e('B', 'b1'));
    expect(drain(q)).toEqual([]); // no thread free: nothing is taken away
    q.release('A');
    expect(drain(q)).toEqual(['b1']);
  });

  it(`while another account waits, one account holds at most max(1, threads - 1)`, () => {
    const q = new FairTaskQueue<E>(3);
    expect(q.holdCap).toBe(2);
    for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) q.push(e('A', id));
    expect(drain(q)).toEqual(['a1', 'a2', 'a3']);
    for (const id of ['b1', 'b2']) q.push(e('B', id));
    q.release('A');
    expect(drain(q)).toEqual(['b1']);
    // b1 ends; A is served next in the ring but holds 2 = the cap while B waits: b2 starts.
    q.release('B');
    expect(drain(q)).toEqual(['b2']);
    expect(q.heldBy('A')).toBe(2);
    // Once B waits no more, A may fill the threads again.
    q.release('B');
    expect(drain(q)).toEqual(['a4']);
    expect(q.heldBy('A')).toBe(3);
  });

  it('with one or two threads the cap is one: two accounts share two threads one each', () => {
    expect(new FairTaskQueue<E>(1).holdCap).toBe(1);
    const q = new FairTaskQueue<E>(2);
    q.push(e('A', 'a1'));
    q.push(e('A', 'a2'));
    q.push(e('B', 'b1'));
    q.push(e('B', 'b2'));
    expect(drain(q)).toEqual(['a1', 'b1']);
  });

  it('a removed entry is not started; removing a started one says so', () => {
    const q = new FairTaskQueue<E>(1);
    const a1 = e('A', 'a1');
    const a2 = e('A', 'a2');
    q.push(a1);
    q.push(a2);
    expect(q.take()).toBe(a1);
    expect(q.remove(a1)).toBe(false);
    expect(q.remove(a2)).toBe(true);
    expect(q.queued).toBe(0);
    q.release('A');
    expect(q.take()).toBeUndefined();
    expect(q.running).toBe(0);
  });

  it('drain hands back every queued entry and leaves nothing to take', () => {
    const q = new FairTaskQueue<E>(1);
    for (const x of [e('A', 'a1'), e('B', 'b1'), e('A', 'a2')]) q.push(x);
    expect(q.take()?.id).toBe('a1');
    expect(
      q
        .drain()
        .map((x) => x.id)
        .sort(),
    ).toEqual(['a2', 'b1']);
    q.release('A');
    expect(q.take()).toBeUndefined();
    expect(q.queued).toBe(0);
  });
});
