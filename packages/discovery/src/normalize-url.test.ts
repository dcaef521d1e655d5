import { isSameSite, normalizeUrl } from './normalize-url';

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://Example.COM/A/b', 'http://example.com/A/b'],
    ['https://example.com:443/', 'https://example.com/'],
    ['http://example.com:80/x', 'http://example.com/x'],
    ['http://example.com:8080/x/', 'http://example.com:8080/x'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a/', 'https://example.com/a'],
    ['https://example.com/a//', 'https://example.com/a'],
    ['https://example.com/#top', 'https://example.com/'],
    ['https://example.com/a?#frag', 'https://example.com/a'],
    ['https://example.com/a?', 'https://example.com/a'],
    ['https://example.com/a?b=2&a=1', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?z=1&a=2&a=1', 'https://example.com/a?a=2&a=1&z=1'],
    ['https://example.com/a?q', 'https://example.com/a?q'],
    ['https://example.com/a?q=a%20b', 'https://example.com/a?q=a%20b'],
    ['https://example.com/a?utm_source=x&id=3&utm_medium=y', 'https://example.com/a?id=3'],
    ['https://example.com/a?gclid=1&fbclid=2', 'https://example.com/a'],
    ['https://example.com/%7euser/a%2fb', 'https://example.com/~user/a%2Fb'],
    ['https://example.com./x', 'https://example.com/x'],
    ['  https://example.com/x  ', 'https://example.com/x'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('resolves relative URLs against a base', () => {
    expect(normalizeUrl('../c?x=1#f', 'https://a.com/b/d/e')).toBe('https://a.com/b/c?x=1');
    expect(normalizeUrl('/', 'https://a.com/b')).toBe('https://a.com/');
    expect(normalizeUrl('//cdn.a.com/x', 'https://a.com/')).toBe('https://cdn.a.com/x');
  });

  it.each([
    ['mailto:x@a.com'],
    ['javascript:alert(1)'],
    ['ftp://a.com/x'],
    ['data:text/html,hi'],
    ['not a url'],
    ['https://user:pw@a.com/'],
    [''],
    [`https://a.com/${'x'.repeat(9000)}`],
  ])('rejects %s', (input) => {
    expect(normalizeUrl(input)).toBeNull();
  });

  it('makes equivalent spellings equal', () => {
    const variants = [
      'https://Example.com:443/docs/?b=1&a=2#x',
      'https://example.com/docs?a=2&b=1',
      'https://example.com/docs/?utm_campaign=z&a=2&b=1',
    ];
    expect(new Set(variants.map((v) => normalizeUrl(v))).size).toBe(1);
  });
});

describe('isSameSite', () => {
  it.each([
    ['https://a.com/x', 'https://a.com/', false, true],
    ['https://www.a.com/x', 'https://a.com/', false, true],
    ['https://a.com/x', 'https://www.a.com/', false, true],
    ['http://a.com/x', 'https://a.com/', false, true],
    ['https://blog.a.com/x', 'https://a.com/', false, false],
    ['https://blog.a.com/x', 'https://a.com/', true, true],
    ['https://blog.a.com/x', 'https://www.a.com/', true, true],
    ['https://x.blog.a.com/', 'https://a.com/', true, true],
    ['https://evila.com/', 'https://a.com/', true, false],
    ['https://a.com.evil.net/', 'https://a.com/', true, false],
    ['https://b.com/', 'https://a.com/', true, false],
    ['http://127.0.0.1:3000/a', 'http://127.0.0.1:3000/', false, true],
    ['http://127.0.0.1:4000/a', 'http://127.0.0.1:3000/', true, false],
    ['http://1.127.0.0.1/', 'http://127.0.0.1/', true, false],
    ['mailto:a@a.com', 'https://a.com/', true, false],
    ['garbage', 'https://a.com/', true, false],
  ])('%s vs %s (subdomains %s) -> %s', (url, start, subs, expected) => {
    expect(isSameSite(url, start, subs)).toBe(expected);
  });
});
