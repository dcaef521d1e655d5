import { identifyUrl, isSameSite, pathDepth, resolveUrl, urlKey } from './normalize-url';

describe('urlKey', () => {
  it.each([
    ['HTTP://Example.COM/A/b', 'http://example.com/A/b'],
    ['https://example.com:443/', 'https://example.com/'],
    ['http://example.com:80/x', 'http://example.com/x'],
    ['http://example.com:8080/x/', 'http://example.com:8080/x/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a/', 'https://example.com/a/'],
    ['https://example.com/a//', 'https://example.com/a//'],
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
    expect(urlKey(input)).toBe(expected);
  });

  it('resolves relative URLs against a base', () => {
    expect(urlKey('../c?x=1#f', 'https://a.com/b/d/e')).toBe('https://a.com/b/c?x=1');
    expect(urlKey('/', 'https://a.com/b')).toBe('https://a.com/');
    expect(urlKey('//cdn.a.com/x', 'https://a.com/')).toBe('https://cdn.a.com/x');
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
    expect(urlKey(input)).toBeNull();
    expect(resolveUrl(input)).toBeNull();
    expect(identifyUrl(input)).toBeNull();
  });

  it('makes equivalent spellings equal', () => {
    const variants = [
      'https://Example.com:443/docs/?b=1&a=2#x',
      'https://example.com/docs/?a=2&b=1',
      'https://example.com/docs/?utm_campaign=z&a=2&b=1',
    ];
    expect(new Set(variants.map((v) => urlKey(v))).size).toBe(1);
  });

  it('never merges paths that differ by a trailing slash (RFC 3986: two resources)', () => {
    expect(urlKey('https://a.com/docs/')).not.toBe(urlKey('https://a.com/docs'));
    expect(urlKey('https://a.com/docs/?x=1')).not.toBe(urlKey('https://a.com/docs?x=1'));
    // The root has one spelling: an empty path is "/".
    expect(urlKey('https://a.com')).toBe(urlKey('https://a.com/'));
  });
});

describe('resolveUrl (what is fetched)', () => {
  it.each([
    ['https://example.com/docs/', 'https://example.com/docs/'],
    ['https://example.com/docs', 'https://example.com/docs'],
    ['HTTPS://Example.COM:443/A/b/#top', 'https://example.com/A/b/'],
    ['https://example.com/a?b=2&utm_source=x&a=1', 'https://example.com/a?b=2&a=1'],
    ['https://example.com/a?gclid=1&fbclid=2&msclkid=3', 'https://example.com/a'],
    ['https://example.com/a?q=a%20b&x', 'https://example.com/a?q=a%20b&x'],
    ['https://example.com', 'https://example.com/'],
  ])('%s -> %s', (input, expected) => {
    expect(resolveUrl(input)).toBe(expected);
  });

  it('resolves against the page as a browser does, keeping the trailing slash', () => {
    expect(resolveUrl('guide/', 'https://a.com/docs/')).toBe('https://a.com/docs/guide/');
    expect(resolveUrl('guide', 'https://a.com/docs')).toBe('https://a.com/guide');
    expect(identifyUrl('./x/?utm_medium=m#f', 'https://A.com/d/')).toEqual({
      url: 'https://a.com/d/x/',
      key: 'https://a.com/d/x/',
    });
  });
});

describe('pathDepth', () => {
  it.each([
    ['https://a.com/docs/a', 'https://a.com/docs/', 1],
    ['https://a.com/docs/a/b', 'https://a.com/docs/', 2],
    ['https://a.com/docs/a/b/', 'https://a.com/docs', 2],
    ['https://a.com/x/y/z', 'https://a.com/', 3],
    ['https://a.com/', 'https://a.com/', 1],
    ['https://a.com/other', 'https://a.com/docs/guide/', 1],
  ])('%s below %s -> %d', (url, start, depth) => {
    expect(pathDepth(url, start)).toBe(depth);
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
