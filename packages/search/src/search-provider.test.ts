import { uniqueHits } from './search-provider';

const hit = (url: string) => ({ url, title: ` ${url} `, description: '' });

describe('uniqueHits', () => {
  it('keeps the first hit per URL key; never merges paths that differ by a trailing slash', () => {
    const out = uniqueHits(
      [
        hit('https://Example.com/docs/?b=1&a=2#x'),
        hit('https://example.com/docs/?a=2&b=1&utm_source=feed'),
        hit('https://example.com/docs?a=2&b=1'),
        hit('ftp://example.com/file'),
        hit('not a url'),
        hit('https://example.com/other'),
      ],
      10,
    );
    expect(out.map((h) => h.url)).toEqual([
      'https://Example.com/docs/?b=1&a=2#x',
      'https://example.com/docs?a=2&b=1',
      'https://example.com/other',
    ]);
    expect(out[0]?.title).toBe('https://Example.com/docs/?b=1&a=2#x');
  });

  it('stops at n', () => {
    expect(
      uniqueHits([hit('https://a.com/1'), hit('https://a.com/2'), hit('https://a.com/3')], 2),
    ).toHaveLength(2);
  });
});
