/**
 * What this gateway last learned of an account's balance through one API key's charges, so that a
 * request that balance covers can hand its job to the workers while the charge is still being
 * written (runChargedJob's early start): the charge is one statement, but its commit waits for
 * PostgreSQL's WAL flush, and that wait used to sit in front of every interactive job.
 *
 * Only a hint: the charge stays the authority. A hint that was wrong (the balance went elsewhere:
 * another gateway, a batch, a key's own credit limit) costs one job started and cancelled at once
 * with nothing billed, and the key is then held back (the charge first) until a charge of it
 * succeeds again. Claims in flight are counted against the hinted balance, so one gateway never
 * starts more early jobs than the balance it saw covers.
 */
export const BALANCE_HINT_TTL_MS = 30_000;
/** Keys remembered at most; the oldest entry goes first. */
export const BALANCE_HINT_MAX_ENTRIES = 10_000;

interface Hint {
  /** The account's balance as the last charge through this key left it. */
  balance: number;
  /** When that charge answered (the clock of `now`). */
  seenAt: number;
  /** Credits claimed by early starts whose charge has not answered yet. */
  claimed: number;
}

export class BalanceHints {
  private readonly hints = new Map<string, Hint>();

  constructor(private readonly opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {}

  /**
   * True when a recent charge of this key left a balance that covers `amount` on top of the other
   * claims in flight: the amount is then claimed until `settle` or `refused`.
   */
  claim(accountId: string, keyId: string | undefined, amount: number): boolean {
    const id = hintKey(accountId, keyId);
    const hint = this.hints.get(id);
    if (!hint) return false;
    if (this.now() - hint.seenAt > (this.opts.ttlMs ?? BALANCE_HINT_TTL_MS)) {
      if (hint.claimed === 0) this.hints.delete(id);
      return false;
    }
    if (hint.balance - hint.claimed < amount) return false;
    hint.claimed += amount;
    return true;
  }

  /**
   * A charge of this key went through and left `balance` (it includes the charge itself): the
   * hint takes it, and a claim made for this charge (`claimed`) is released.
   */
  charged(accountId: string, keyId: string | undefined, balance: number, claimed = 0): void {
    const id = hintKey(accountId, keyId);
    const hint = this.hints.get(id);
    if (hint) {
      hint.balance = balance;
      hint.seenAt = this.now();
      hint.claimed = Math.max(0, hint.claimed - claimed);
      // Most recently used last: the oldest entry is the first to go.
      this.hints.delete(id);
      this.hints.set(id, hint);
      return;
    }
    if (this.hints.size >= (this.opts.maxEntries ?? BALANCE_HINT_MAX_ENTRIES)) {
      const oldest = this.hints.keys().next();
      if (!oldest.done) this.hints.delete(oldest.value);
    }
    this.hints.set(id, { balance, seenAt: this.now(), claimed: 0 });
  }

  /**
   * A charge of this key did not go through (refused, or it failed): the key's next requests
   * wait for their charge again until one succeeds.
   */
  refused(accountId: string, keyId: string | undefined): void {
    this.hints.delete(hintKey(accountId, keyId));
  }

  get size(): number {
    return this.hints.size;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}

function hintKey(accountId: string, keyId: string | undefined): string {
  return `${accountId}:${keyId ?? ''}`;
}
