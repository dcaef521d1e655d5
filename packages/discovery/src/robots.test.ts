import { createSafeDispatcher } from '@wcs/net';
import type { Dispatcher } from 'undici';
import { parseRobots, userAgentToken } from './robots';
import { fetchRobots } from './robots-fetch';
import { type LocalServer, send, startLocalServer } from './test-support/local-server';

const R = 'https://example.com/robots.txt';
const U = (p: string) => `https://example.com${p}`;

describe('parseRobots', () => {
  const text = [
    '# comment line',
    'User-agent: *',
    'Disallow: /private/',
    'Disallow: /*.pdf$',
    'Allow: /private/public-*',
    'Disallow: /search?',
    'Crawl-delay: 2.5',
    '',
    'User-agent: OtherBot',
    'User-agent: webcontentservice',
    'Disallow: /no-wcs/',
    'Allow: /no-wcs/but-this',
    'Crawl-delay: 120',
    '',
    'User-agent: BadBot',
    'Disallow: /',
    '',
    'Sitemap: https://example.com/sitemap_index.xml',
    'Sitemap: /relative-sitemap.xml',
    'Sitemap: https://example.com/sitemap_index.xml',
  ].join('\n');

  it('uses the * group for an unnamed agent: longest match, allow wins ties, wildcards, $', () => {
    const r = parseRobots(text, R, 'somebot');
    expect(r.isAllowed(U('/'))).toBe(true);
    expect(r.isAllowed(U('/private/x'))).toBe(false);
    expect(r.isAllowed(U('/private/public-page'))).toBe(true);
    expect(r.isAllowed(U('/docs/a.pdf'))).toBe(false);
    expect(r.isAllowed(U('/docs/a.pdf?x=1'))).toBe(true); // $ anchors the end of path+query
    expect(r.isAllowed(U('/search?q=1'))).toBe(false);
    expect(r.isAllowed(U('/search'))).toBe(true);
    expect(r.isAllowed(U('/no-wcs/x'))).toBe(true);
    expect(r.crawlDelayMs).toBe(2500);
  });

  it('uses our own group (case-insensitive, shared with another agent) instead of *', () => {
    const r = parseRobots(text, R, 'WebContentService');
    expect(r.isAllowed(U('/no-wcs/x'))).toBe(false);
    expect(r.isAllowed(U('/no-wcs/but-this/1'))).toBe(true);
    expect(r.isAllowed(U('/private/x'))).toBe(true); // * rules do not apply to a named agent
    expect(r.crawlDelayMs).toBe(60_000); // capped
    expect(parseRobots(text, R, 'badbot').isAllowed(U('/anything'))).toBe(false);
    expect(parseRobots(text, R, 'badbot').isAllowed(U('/robots.txt'))).toBe(true);
  });

  it('collects absolute, de-duplicated Sitemap lines', () => {
    expect(parseRobots(text, R, 'x').sitemaps).toEqual([
      'https://example.com/sitemap_index.xml',
      'https://example.com/relative-sitemap.xml',
    ]);
  });

  it('handles empty Disallow, rules before any group, CRLF, BOM and garbage', () => {
    const r = parseRobots('\uFEFFDisallow: /x\r\nUser-agent: *\r\nDisallow:\r\nnonsense\r\n', R, 'a');
    expect(r.isAllowed(U('/x'))).toBe(true);
    expect(r.crawlDelayMs).toBeNull();
    expect(parseRobots('', R, 'a').isAllowed(U('/a'))).toBe(true);
  });

  it('matches percent-encoded and non-ASCII paths the same way', () => {
    const r = parseRobots('User-agent: *\nDisallow: /café\nDisallow: /a%3cb\n', R, 'a');
    expect(r.isAllowed(U('/caf%C3%A9/menu'))).toBe(false);
    expect(r.isAllowed(U('/café'))).toBe(false);
    expect(r.isAllowed(U('/a%3Cb'))).toBe(false);
    expect(r.isAllowed(U('/cafe'))).toBe(true);
  });

  it('merges several groups naming the same agent', () => {
    const r = parseRobots(
      'User-agent: a\nDisallow: /one\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: a\nDisallow: /two\n',
      R,
      'a',
    );
    expect(r.isAllowed(U('/one'))).toBe(false);
    expect(r.isAllowed(U('/two'))).toBe(false);
    expect(r.isAllowed(U('/b'))).toBe(true);
  });

  it('derives the product token from a user-agent string', () => {
    expect(userAgentToken('Mozilla/5.0 (compatible; WebContentService/0.1; +https://x.invalid/bot)')).toBe(
      'webcontentservice',
    );
    expect(userAgentToken('MyCrawler/2.0')).toBe('mycrawler');
  });
});

describe('fetchRobots', () => {
  let server: LocalServer;
  let dispatcher: Dispatcher;
  const ua = 'Mozilla/5.0 (compatible; WebContentService/0.1)';
  const opts = () => ({ dispatcher, userAgent: ua, timeoutMs: 5_000 });

  beforeAll(async () => {
    dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    server = await startLocalServer({
      '/robots.txt': send('User-agent: *\nDisallow: /x\nSitemap: /s.xml\n'),
    });
  });
  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  it('fetches and parses an origin robots.txt', async () => {
    const res = await fetchRobots(`${server.url}/some/page`, opts());
    expect(res.statusCode).toBe(200);
    expect(res.text).toContain('Disallow: /x');
    expect(res.robots.isAllowed(`${server.url}/x/1`)).toBe(false);
    expect(res.robots.sitemaps).toEqual([`${server.url}/s.xml`]);
    expect(res.error).toBeUndefined();
  });

  it('allows everything on 4xx (quietly), 5xx and network errors (reported)', async () => {
    const s404 = await startLocalServer({});
    const s500 = await startLocalServer({ '/robots.txt': send('oops', 'text/plain', 503) });
    const redirected = await startLocalServer({
      '/robots.txt': (_q, res) => {
        res.writeHead(301, { location: `${server.url}/robots.txt` });
        res.end();
      },
    });
    try {
      const a = await fetchRobots(s404.url, opts());
      expect([a.statusCode, a.text, a.error, a.robots.isAllowed(`${s404.url}/x`)]).toEqual([
        404,
        null,
        undefined,
        true,
      ]);
      const b = await fetchRobots(s500.url, opts());
      expect(b.robots.isAllowed(`${s500.url}/x`)).toBe(true);
      expect(b.error).toMatch(/HTTP 503/);
      const c = await fetchRobots(redirected.url, opts());
      expect(c.robots.isAllowed(`${redirected.url}/x`)).toBe(false); // followed the redirect
    } finally {
      await Promise.all([s404.close(), s500.close(), redirected.close()]);
    }
    const closedPort = await startLocalServer({});
    const deadUrl = closedPort.url;
    await closedPort.close();
    const d = await fetchRobots(deadUrl, opts());
    expect(d.robots.isAllowed(`${deadUrl}/x`)).toBe(true);
    expect(d.error).toMatch(/ECONNREFUSED/);
  });

  it('reports a private target refused by the SSRF-safe dispatcher', async () => {
    const strict = createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 2_000 });
    const before = server.log.length;
    try {
      const res = await fetchRobots(server.url, { ...opts(), dispatcher: strict });
      expect(res.text).toBeNull();
      expect(res.error).toMatch(/private or reserved/);
      expect(server.log.length).toBe(before); // refused before connecting
    } finally {
      await strict.close();
    }
  });

  it('times out a hanging server within its budget', async () => {
    const hang = await startLocalServer({ '/robots.txt': () => undefined });
    try {
      const res = await fetchRobots(hang.url, { ...opts(), timeoutMs: 300 });
      expect(res.error).toMatch(/timed out after 300 ms/); // its own budget ended it
    } finally {
      await hang.close();
    }
  });
});
