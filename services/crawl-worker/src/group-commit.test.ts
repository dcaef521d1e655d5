import { GroupCommit } from './group-commit';

/** A store of numbers that records its calls; `fail` makes a call with that item throw. */
function recorder(fail = -1) {
  const calls: string[] = [];
  const group = new GroupCommit<number, number>({
    one: async (key, n) => {
      calls.push(`${key}:one(${n})`);
      if (n === fail) throw new Error(`bad ${n}`);
      return n * 10;
    },
    many: async (key, ns) => {
      calls.push(`${key}:many(${ns.join(',')})`);
      if (ns.includes(fail)) throw new Error(`bad batch`);
      return ns.map((n) => n * 10);
    },
    maxBatch: 3,
  });
  return { group, calls };
}

describe('GroupCommit', () => {
  it('goes at once when nothing is under way; what arrives meanwhile goes together, per key, maxBatch at a time', async () => {
    const { group, calls } = recorder();
    const results = await Promise.all([
      group.submit('a', 1),
      group.submit('a', 2),
      group.submit('b', 7),
      group.submit('a', 3),
      group.submit('a', 4),
      group.submit('a', 5),
    ]);
    expect(results).toEqual([10, 20, 70, 30, 40, 50]);
    expect(calls).toEqual(['a:one(1)', 'b:one(7)', 'a:many(2,3,4)', 'a:one(5)']);
    // Drained: the next item goes alone again.
    expect(await group.submit('a', 6)).toBe(60);
    expect(calls.at(-1)).toBe('a:one(6)');
  });

  it('a failed batch goes again item by item: only the bad item fails', async () => {
    const { group, calls } = recorder(3);
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => group.submit('k', n)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([
      10,
      20,
      'failed',
      40,
    ]);
    expect(calls).toEqual(['k:one(1)', 'k:many(2,3,4)', 'k:one(2)', 'k:one(3)', 'k:one(4)']);
  });

  it('an item whose call throws instead of rejecting fails alone; the key drains on', async () => {
    const group = new GroupCommit<number, number>({
      one: (_key, n) => {
        if (n === 2) throw new Error('thrown, not rejected');
        return Promise.resolve(n);
      },
      many: () => {
        throw new Error('batch thrown');
      },
      maxBatch: 8,
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => group.submit('k', n)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await group.submit('k', 4)).toBe(4);
  });
});
