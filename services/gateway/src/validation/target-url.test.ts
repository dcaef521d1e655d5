import { normalizeTargetUrl } from './target-url';

describe('normalizeTargetUrl', () => {
  it('prepends https:// to bare domains when asked', () => {
    expect(normalizeTargetUrl('example.com', { prependHttps: true })).toBe('https://example.com/');
    expect(normalizeTargetUrl('example.com/a?b=1', { prependHttps: true })).toBe('https://example.com/a?b=1');
    expect(normalizeTargetUrl('example.com:8080/x', { prependHttps: true })).toBe(
      'https://example.com:8080/x',
    );
    expect(normalizeTargetUrl('  http://example.com  ', { prependHttps: true })).toBe('http://example.com/');
  });

  it('leaves bare domains invalid when not asked (batch scrape)', () => {
    expect(() => normalizeTargetUrl('example.com', { prependHttps: false })).toThrow(/not a valid URL/);
  });

  it('refuses non-http schemes, credentials, hostless and absurd URLs with the field name', () => {
    for (const bad of ['file:///etc/passwd', 'ftp://x.org/', 'javascript:alert(1)', 'data:text/html,hi']) {
      expect(() => normalizeTargetUrl(bad, { prependHttps: true, field: 'urls.2' })).toThrow(/^urls\.2: /);
    }
    expect(() => normalizeTargetUrl('https://user:pw@example.com/', { prependHttps: true })).toThrow(
      /credentials/,
    );
    expect(() => normalizeTargetUrl('http://intranet/', { prependHttps: true })).toThrow(/host/);
    expect(() => normalizeTargetUrl('', { prependHttps: true })).toThrow(/empty/);
    expect(() =>
      normalizeTargetUrl(`https://example.com/${'a'.repeat(9000)}`, { prependHttps: true }),
    ).toThrow(/longer/);
  });

  it('keeps localhost and IP literals (the SSRF guard decides on them at fetch time)', () => {
    expect(normalizeTargetUrl('http://localhost:3000/', { prependHttps: true })).toBe(
      'http://localhost:3000/',
    );
    expect(normalizeTargetUrl('http://[::1]/', { prependHttps: true })).toBe('http://[::1]/');
    expect(normalizeTargetUrl('10.0.0.1', { prependHttps: true })).toBe('https://10.0.0.1/');
  });
});
