import { RefillPacer, refillEvery } from './refill-pacer';

describe('RefillPacer', () => {
  it('tops up at once for a crawl it has not topped up, and after every page once a top-up came back short', () => {
    const pacer = new RefillPacer(4);
    expect(pacer.due('c')).toBe(true);
    pacer.toppedUp('c', 3, 10); // the frontier ran dry
    for (let i = 0; i < 5; i++) expect(pacer.due('c')).toBe(true);
  });

  it('while the frontier outruns the window, tops up once every N pages', () => {
    const pacer = new RefillPacer(4);
    pacer.toppedUp('c', 10, 10);
    expect([1, 2, 3, 4].map(() => pacer.due('c'))).toEqual([false, false, false, true]);
    pacer.toppedUp('c', 0, 0); // the window was full: nothing wanted, nothing short
    expect([1, 2, 3, 4].map(() => pacer.due('c'))).toEqual([false, false, false, true]);
    // Another crawl has its own count; a forgotten crawl starts over.
    expect(pacer.due('d')).toBe(true);
    pacer.forget('c');
    expect(pacer.due('c')).toBe(true);
  });

  it('once short, a page that added no rows tops up only every N pages; one that added rows at once', () => {
    const pacer = new RefillPacer(4);
    pacer.toppedUp('c', 3, 10);
    expect([1, 2, 3, 4].map(() => pacer.due('c', true))).toEqual([false, false, false, true]);
    pacer.toppedUp('c', 0, 10);
    expect(pacer.due('c', true)).toBe(false);
    expect(pacer.due('c', false)).toBe(true);
    // A crawl not topped up yet here is topped up at once, quiet or not.
    expect(pacer.due('d', true)).toBe(true);
  });

  it('paces by at most a 64th of the window: small windows are topped up after every page', () => {
    expect(refillEvery(1_000)).toBe(8);
    expect(refillEvery(256)).toBe(4);
    expect(refillEvery(100)).toBe(1);
    expect(refillEvery(1)).toBe(1);
    const pacer = new RefillPacer(refillEvery(100));
    pacer.toppedUp('c', 5, 5);
    expect(pacer.due('c')).toBe(true);
  });
});
