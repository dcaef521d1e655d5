interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * A group commit, per key: an item whose key has no batch under way goes at once, alone; items of
 * that key handed over meanwhile wait and then go together, at most `maxBatch` a call, instead of
 * queueing one behind the other for the same rows, each with its own round trip. Nothing waits when
 * there is nothing to wait for. A batch that fails goes again item by item, so one item's error is
 * only that item's.
 */
export class GroupCommit<T, R> {
  private readonly keys = new Map<string, Array<Waiting<T, R>>>();

  constructor(
    private readonly opts: {
      /** One item alone. */
      one: (key: string, item: T) => Promise<R>;
      /** Several items of a key together: a result per item, in order. */
      many: (key: string, items: T[]) => Promise<R[]>;
      maxBatch: number;
    },
  ) {}

  submit(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const entry = { item, resolve, reject };
      const waiting = this.keys.get(key);
      if (waiting) {
        waiting.push(entry);
        return;
      }
      this.keys.set(key, []);
      void this.drain(key, [entry]);
    });
  }

  /** `batch`, then whatever of the key arrived meanwhile, until none is left. */
  private async drain(key: string, batch: Array<Waiting<T, R>>): Promise<void> {
    for (let next = batch; next.length > 0; ) {
      await this.commit(key, next);
      next = (this.keys.get(key) ?? []).splice(0, this.opts.maxBatch);
    }
    this.keys.delete(key);
  }

  private async commit(key: string, batch: Array<Waiting<T, R>>): Promise<void> {
    if (batch.length > 1) {
      try {
        const results = await this.opts.many(
          key,
          batch.map((w) => w.item),
        );
        batch.forEach((w, i) => {
          if (i < results.length) w.resolve(results[i] as R);
          else w.reject(new Error('a batch answered fewer results than items'));
        });
        return;
      } catch {
        // Rolled back as a whole: each item again on its own, below.
      }
    }
    for (const w of batch) {
      // Awaited inside try: a function that throws instead of rejecting fails its item, not the drain.
      try {
        w.resolve(await this.opts.one(key, w.item));
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
