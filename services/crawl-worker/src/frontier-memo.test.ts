import { FrontierMemo } from './frontier-memo';

describe('FrontierMemo', () => {
  it('remembers keys per crawl', () => {
    const memo = new FrontierMemo();
    expect(memo.known('c1')).toBeUndefined();
    memo.remember('c1', ['a', 'b', 'a']);
    memo.remember('c2', ['a']);
    expect([...(memo.known('c1') ?? [])].sort()).toEqual(['a', 'b']);
    expect([...(memo.known('c2') ?? [])]).toEqual(['a']);
    expect(memo.size).toBe(3);
    memo.forget('c1');
    expect(memo.known('c1')).toBeUndefined();
    expect(memo.size).toBe(1);
  });

  it('stays within maxKeys: the crawl used least recently goes first, a crawl alone stops growing', () => {
    const memo = new FrontierMemo(4);
    memo.remember('old', ['o1', 'o2']);
    memo.remember('used', ['u1']);
    memo.known('old'); // now `used` is the least recently used
    memo.remember('new', ['n1', 'n2']);
    expect(memo.known('used')).toBeUndefined();
    expect(memo.known('old')?.size).toBe(2);
    expect(memo.size).toBe(4);
    memo.remember('big', ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
    // Every other crawl was forgotten to make room; then `big` kept what fits.
    expect(memo.known('old')).toBeUndefined();
    expect(memo.known('new')).toBeUndefined();
    expect(memo.known('big')?.size).toBe(4);
    expect(memo.size).toBe(4);
  });
});
