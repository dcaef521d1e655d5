import { ValidationError } from '@wcs/errors';
import { compilePathRules } from './path-rules';

const U = (p: string) => `https://example.com${p}`;

describe('compilePathRules', () => {
  it('passes everything without rules', () => {
    const pass = compilePathRules({});
    expect(pass(U('/'))).toBe(true);
    expect(pass(U('/anything?x=1'))).toBe(true);
  });

  it('tests unanchored regexes against pathname + query, never the host', () => {
    const pass = compilePathRules({ includePaths: ['/blog/.*'] });
    expect(pass(U('/blog/post-1'))).toBe(true);
    expect(pass(U('/en/blog/post-1'))).toBe(true); // unanchored: matches anywhere in the path
    expect(pass(U('/blog'))).toBe(false); // "/blog/.*" needs the slash after blog
    expect(pass(U('/about'))).toBe(false);
    expect(pass('https://blog.example.com/about')).toBe(false); // the host is not part of it
  });

  it('anchors only when the pattern does', () => {
    const pass = compilePathRules({ includePaths: ['^/docs/'] });
    expect(pass(U('/docs/intro'))).toBe(true);
    expect(pass(U('/v2/docs/intro'))).toBe(false);
    const exact = compilePathRules({ includePaths: ['^/pricing$'] });
    expect(exact(U('/pricing'))).toBe(true);
    expect(exact(U('/pricing?plan=pro'))).toBe(false); // the query string is part of the target
  });

  it('sees the query string', () => {
    const pass = compilePathRules({ excludePaths: ['[?&]page=\\d+', '\\?sort='] });
    expect(pass(U('/list'))).toBe(true);
    expect(pass(U('/list?page=2'))).toBe(false);
    expect(pass(U('/list?a=1&page=3'))).toBe(false);
    expect(pass(U('/list?sort=asc'))).toBe(false);
    expect(pass(U('/list?pages=x'))).toBe(true);
  });

  it('exclude wins over include', () => {
    const pass = compilePathRules({ includePaths: ['^/blog/'], excludePaths: ['/drafts/', '\\.pdf$'] });
    expect(pass(U('/blog/a'))).toBe(true);
    expect(pass(U('/blog/drafts/a'))).toBe(false);
    expect(pass(U('/blog/report.pdf'))).toBe(false);
    expect(pass(U('/shop/a'))).toBe(false);
  });

  it('is case-sensitive and sees the percent-encoded path', () => {
    const pass = compilePathRules({ includePaths: ['/caf%C3%A9'] });
    expect(pass(U('/café'))).toBe(true);
    expect(compilePathRules({ includePaths: ['/Blog'] })(U('/blog'))).toBe(false);
    expect(compilePathRules({ includePaths: ['(?:)'] })('not a url')).toBe(false);
  });

  it('names the invalid pattern', () => {
    expect(() => compilePathRules({ includePaths: ['/ok', '/bad(['] })).toThrow(ValidationError);
    expect(() => compilePathRules({ includePaths: ['/ok', '/bad(['] })).toThrow(
      /^includePaths\.1: invalid regular expression "\/bad\(\["/,
    );
    expect(() => compilePathRules({ excludePaths: ['*'] })).toThrow(/^excludePaths\.0: /);
  });

  it('refuses catastrophic or oversized rule sets', () => {
    expect(() => compilePathRules({ includePaths: ['(a+)+$'] })).toThrow(/nests quantifiers/);
    expect(() => compilePathRules({ excludePaths: ['^/(\\w*)*x'] })).toThrow(/nests quantifiers/);
    expect(() => compilePathRules({ includePaths: [`/${'a'.repeat(200)}`] })).toThrow(/longer than 200/);
    const many = Array.from({ length: 21 }, (_, i) => `/p${i}`);
    expect(() => compilePathRules({ includePaths: many.slice(0, 11), excludePaths: many.slice(11) })).toThrow(
      /at most 20 patterns/,
    );
    expect(() => compilePathRules({ includePaths: [''] })).toThrow(/non-empty/);
  });
});
