import { BalanceHints } from './balance-hints';

describe('BalanceHints', () => {
  const account = '5b1d3a8e-0000-4000-8000-000000000001';
  const key = 'k1';

  it('knows nothing before a charge of the key', () => {
    expect(new BalanceHints().claim(account, key, 1)).toBe(false);
  });

  it('claims against the balance a charge left, counting the claims in flight', () => {
    const hints = new BalanceHints();
    hints.charged(account, key, 3);
    expect(hints.claim(account, key, 2)).toBe(true);
    expect(hints.claim(account, key, 2)).toBe(false);
    expect(hints.claim(account, key, 1)).toBe(true);
    expect(hints.claim(account, key, 1)).toBe(false);
    // The first claim's charge answered: the balance it left replaces the estimate, its claim ends.
    hints.charged(account, key, 1, 2);
    expect(hints.claim(account, key, 1)).toBe(false);
    hints.charged(account, key, 5, 1);
    expect(hints.claim(account, key, 5)).toBe(true);
  });

  it('is per key: another key of the account knows nothing', () => {
    const hints = new BalanceHints();
    hints.charged(account, key, 100);
    expect(hints.claim(account, 'k2', 1)).toBe(false);
    expect(hints.claim(account, undefined, 1)).toBe(false);
  });

  it('forgets a key whose charge was refused until one succeeds again', () => {
    const hints = new BalanceHints();
    hints.charged(account, key, 100);
    hints.refused(account, key);
    expect(hints.claim(account, key, 1)).toBe(false);
    hints.charged(account, key, 100);
    expect(hints.claim(account, key, 1)).toBe(true);
  });

  it('trusts a balance for ttlMs only', () => {
    let now = 0;
    const hints = new BalanceHints({ ttlMs: 1_000, now: () => now });
    hints.charged(account, key, 100);
    now = 1_000;
    expect(hints.claim(account, key, 1)).toBe(true);
    now = 1_001;
    expect(hints.claim(account, key, 1)).toBe(false);
  });

  it('holds at most maxEntries keys, dropping the least recently charged', () => {
    const hints = new BalanceHints({ maxEntries: 2 });
    hints.charged(account, 'a', 10);
    hints.charged(account, 'b', 10);
    hints.charged(account, 'a', 10);
    hints.charged(account, 'c', 10);
    expect(hints.size).toBe(2);
    expect(hints.claim(account, 'b', 1)).toBe(false);
    expect(hints.claim(account, 'a', 1)).toBe(true);
    expect(hints.claim(account, 'c', 1)).toBe(true);
  });
});
