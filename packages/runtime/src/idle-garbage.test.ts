import { collectIdleGarbage } from './idle-garbage';

const MB = 2 ** 20;

/** ~`mb` MB of small objects that live long enough to reach the old generation, then are dropped. */
function makeGarbage(mb: number): void {
  let junk: Array<{ a: number; b: string }[]> | undefined = [];
  for (let i = 0; i < mb * 64; i++) junk.push(Array.from({ length: 200 }, (_, k) => ({ a: k, b: `x${k}` })));
  junk = undefined;
}

/** The next collection, or an error after `ms`. */
function nextCollection(
  start: (onCollect: (c: { heapBefore: number; heapAfter: number }) => void) => () => void,
  ms: number,
): Promise<{ heapBefore: number; heapAfter: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no collection within ${ms} ms`));
    }, ms);
    const stop = start((c) => {
      clearTimeout(timer);
      stop();
      resolve(c);
    });
  });
}

describe('collectIdleGarbage', () => {
  it('returns start-up garbage to the system with the first collection', async () => {
    makeGarbage(40);
    const c = await nextCollection((onCollect) => collectIdleGarbage({ firstAfterMs: 10, onCollect }), 5_000);
    expect(c.heapBefore - c.heapAfter).toBeGreaterThan(10 * MB);
  });

  it('collects again once an idle period follows growth; never while the event loop is busy', async () => {
    const seen: Array<{ heapBefore: number; heapAfter: number }> = [];
    const stop = collectIdleGarbage({
      firstAfterMs: 10,
      everyMs: 100,
      minGrowthBytes: MB,
      onCollect: (c) => seen.push(c),
    });
    try {
      const deadline = Date.now() + 5_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toHaveLength(1);
      // Busy for 8 periods, growing all along: the loop is never idle, so no collection.
      const busyUntil = Date.now() + 800;
      while (Date.now() < busyUntil) {
        makeGarbage(2);
        await new Promise((r) => setImmediate(r));
      }
      expect(seen).toHaveLength(1);
      // Then idle, with garbage left over from the busy time: the next period collects it.
      makeGarbage(10);
      const idleDeadline = Date.now() + 5_000;
      while (seen.length === 1 && Date.now() < idleDeadline) await new Promise((r) => setTimeout(r, 20));
      expect(seen.length).toBeGreaterThanOrEqual(2);
      const second = seen[1] as { heapBefore: number; heapAfter: number };
      expect(second.heapBefore - second.heapAfter).toBeGreaterThan(5 * MB);
    } finally {
      stop();
    }
  });
});
