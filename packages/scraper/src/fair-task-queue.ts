/**
 * Who gets the content pool's next free thread. One FIFO queue per account, served round-robin
 * (the account served goes to the back of the ring), so one account's pile of pages never sits in
 * front of another account's page. And a hold cap: while another account has work waiting, an
 * account that already holds max(1, threads − 1) threads gets no further one — a free thread goes
 * to the one waiting. Alone, an account may use every thread (a single-account install loses
 * nothing). Threads are never taken away: a running page ends within its budget.
 */
export interface FairEntry {
  readonly account: string;
}

export class FairTaskQueue<E extends FairEntry> {
  private readonly queues = new Map<string, E[]>();
  /** Accounts with queued work, next to serve first. */
  private ring: string[] = [];
  private readonly held = new Map<string, number>();
  private runningCount = 0;

  constructor(readonly threads: number) {}

  /** Threads one account may hold while another account has work waiting. */
  get holdCap(): number {
    return Math.max(1, this.threads - 1);
  }

  get running(): number {
    return this.runningCount;
  }

  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Threads held by one account now. */
  heldBy(account: string): number {
    return this.held.get(account) ?? 0;
  }

  push(entry: E): void {
    const q = this.queues.get(entry.account);
    if (q) {
      q.push(entry);
      return;
    }
    this.queues.set(entry.account, [entry]);
    this.ring.push(entry.account);
  }

  /** Drop a queued entry (its caller gave up); false when it is not queued (already taken). */
  remove(entry: E): boolean {
    const q = this.queues.get(entry.account);
    const i = q?.indexOf(entry) ?? -1;
    if (!q || i < 0) return false;
    q.splice(i, 1);
    if (q.length === 0) this.forget(entry.account);
    return true;
  }

  /**
   * The entry that may start now (its account then holds one more thread), or undefined when every
   * thread is busy or nothing is queued. Call `release` with its account when it ends.
   */
  take(): E | undefined {
    if (this.runningCount >= this.threads || this.ring.length === 0) return undefined;
    const othersWait = this.ring.length > 1;
    // Work-conserving: when every waiting account is at its cap, the thread still goes to one.
    const account = this.ring.find((a) => !othersWait || this.heldBy(a) < this.holdCap) ?? this.ring[0]!;
    const q = this.queues.get(account)!;
    const entry = q.shift()!;
    this.ring = this.ring.filter((a) => a !== account);
    if (q.length > 0) this.ring.push(account);
    else this.queues.delete(account);
    this.held.set(account, this.heldBy(account) + 1);
    this.runningCount++;
    return entry;
  }

  /** Every queued entry, removed (the pool is closing). */
  drain(): E[] {
    const all = this.ring.flatMap((a) => this.queues.get(a) ?? []);
    this.queues.clear();
    this.ring = [];
    return all;
  }

  release(account: string): void {
    const n = this.heldBy(account) - 1;
    if (n > 0) this.held.set(account, n);
    else this.held.delete(account);
    this.runningCount = Math.max(0, this.runningCount - 1);
  }

  private forget(account: string): void {
    this.queues.delete(account);
    this.ring = this.ring.filter((a) => a !== account);
  }
}
