/**
 * One announcement in Redis for the pages of an account that a process announces close together
 * (within `shareMs` of the first): a crawl announces a page every few milliseconds, and a mark per
 * page cost each page a Redis script of its own (~0.5 ms of CPU across the worker and Redis, about
 * a tenth of a small page's crawl). The mark is counted: it goes once the last page holding it is
 * written or dropped, and a page announced after that makes a new one, so a search still waits
 * for every page announced before it started. What sharing adds to a search's wait: the pages
 * announced in the `shareMs` after the mark it waits for was made, which it would not have waited
 * for with a mark each — at most what it waits for anyway, bounded by its own limit.
 */
import type { PendingIndexWriter, PendingMark } from './pending-index';

interface OpenMark {
  /** performance.now() when it was asked for: pages join it until `shareMs` after. */
  since: number;
  marked: Promise<PendingMark | undefined>;
  holders: number;
}

export class SharedMarks {
  /** The mark each account's next page joins, while it is young enough and held. */
  private readonly open = new Map<string, OpenMark>();
  private readonly byMark = new Map<PendingMark, OpenMark>();

  constructor(
    private readonly pending: PendingIndexWriter,
    private readonly shareMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** A mark for one more page of the account: resolves once it is in Redis, undefined if it failed. */
  async take(accountId: string): Promise<PendingMark | undefined> {
    const now = performance.now();
    let open = this.open.get(accountId);
    if (!open || now - open.since > this.shareMs) {
      const made: OpenMark = {
        since: now,
        holders: 0,
        marked: this.pending.add(accountId).catch((err: unknown) => {
          this.onError(err);
          return undefined;
        }),
      };
      open = made;
      this.open.set(accountId, made);
      // A failed announcement is not shared: the next page tries again.
      void made.marked.then((mark) => {
        if (mark) this.byMark.set(mark, made);
        else if (this.open.get(accountId) === made) this.open.delete(accountId);
      });
    }
    open.holders++;
    const mark = await open.marked;
    if (!mark) open.holders--;
    return mark;
  }

  /**
   * The pages holding these marks are written or given up (a mark once per page): the marks no page
   * holds any more, to be removed from Redis. Such a mark is closed first, so no page joins it after.
   */
  release(marks: readonly PendingMark[]): PendingMark[] {
    const last: PendingMark[] = [];
    for (const mark of marks) {
      const open = this.byMark.get(mark);
      if (!open) {
        last.push(mark);
        continue;
      }
      open.holders--;
      if (open.holders > 0) continue;
      this.byMark.delete(mark);
      if (this.open.get(mark.accountId) === open) this.open.delete(mark.accountId);
      last.push(mark);
    }
    return last;
  }
}
