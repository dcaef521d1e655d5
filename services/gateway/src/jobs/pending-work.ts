/**
 * Request work that must settle before the gateway closes the database: a request cut at the
 * drain deadline still has a handler waiting on its job, and once the queues close that handler
 * refunds its charge — which needs PostgreSQL. `settle()` waits for those, up to a bound.
 */
export class PendingWork {
  private readonly pending = new Set<Promise<void>>();

  get size(): number {
    return this.pending.size;
  }

  /** Starts a piece of work; call the returned function (once) when it has settled. */
  begin(): () => void {
    let release = () => {};
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.pending.add(settled);
    return () => {
      this.pending.delete(settled);
      release();
    };
  }

  /** Wait until everything tracked has settled or `timeoutMs` passed; returns how many are left. */
  async settle(timeoutMs: number): Promise<number> {
    if (this.pending.size === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.pending),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return this.pending.size;
  }
}
