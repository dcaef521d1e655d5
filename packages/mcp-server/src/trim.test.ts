import type { CrawledPage, FailedPage } from '@wcs/client-node';
import { trimBatch, trimCrawl, withHttps } from './trim.js';

describe('withHttps', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['example.com/a?b=1', 'https://example.com/a?b=1'],
    ['  example.com/a ', 'https://example.com/a'],
    ['//example.com/a', 'https://example.com/a'],
    ['localhost:8080/x', 'https://localhost:8080/x'],
    ['localhost:8080', 'https://localhost:8080'],
    ['127.0.0.1:3000/x', 'https://127.0.0.1:3000/x'],
    ['http://example.com/a', 'http://example.com/a'],
    ['https://example.com/a', 'https://example.com/a'],
    ['HTTP://EXAMPLE.com', 'HTTP://EXAMPLE.com'],
    ['ftp://example.com/f', 'ftp://example.com/f'],
  ])('%s → %s', (input, expected) => {
    expect(withHttps(input)).toBe(expected);
  });
});

describe('trimCrawl', () => {
  it('keeps only url + markdown per page and url + error + code per failed page', () => {
    const pages: CrawledPage[] = [
      {
        url: 'https://x.com/',
        markdown: '# Home',
        metadata: { title: 'Home', statusCode: 200, sourceURL: 'https://x.com/' },
        html: '<h1>Home</h1>',
      },
      {
        url: 'https://x.com/a',
        markdown: '# A',
        metadata: { title: 'A', statusCode: 200, sourceURL: 'https://x.com/a', verdict: 'content' },
      },
      {
        url: 'https://x.com/account',
        markdown: 'Sign in',
        warning: 'The page is a login wall.',
        metadata: {
          title: 'Sign in',
          statusCode: 200,
          sourceURL: 'https://x.com/account',
          verdict: 'login-wall',
        },
      },
    ];
    const failedPages: FailedPage[] = [
      { url: 'https://x.com/gone', error: 'HTTP 404', code: 'TARGET_HTTP_ERROR', statusCode: 404 },
    ];
    const trimmed = trimCrawl({
      id: 'c1',
      status: 'done',
      stopReason: 'completed',
      total: 3,
      completed: 2,
      failed: 1,
      creditsUsed: 2,
      pages,
      failedPages,
    });
    expect(trimmed).toEqual({
      id: 'c1',
      status: 'done',
      stopReason: 'completed',
      total: 3,
      completed: 2,
      failed: 1,
      creditsUsed: 2,
      pages: [
        { url: 'https://x.com/', markdown: '# Home' },
        { url: 'https://x.com/a', markdown: '# A' },
        // A page that is not the site's content says so: the model must not take it as the text.
        {
          url: 'https://x.com/account',
          markdown: 'Sign in',
          verdict: 'login-wall',
          warning: 'The page is a login wall.',
        },
      ],
      failedPages: [{ url: 'https://x.com/gone', error: 'HTTP 404', code: 'TARGET_HTTP_ERROR' }],
    });
  });

  it('carries the error of a failed crawl and omits an absent stopReason', () => {
    const failed = trimCrawl({
      id: 'c2',
      status: 'failed',
      stopReason: 'error',
      error: 'robots.txt disallows the start URL',
      total: 0,
      completed: 0,
      failed: 0,
      creditsUsed: 0,
      pages: [],
      failedPages: [],
    });
    expect(failed.error).toBe('robots.txt disallows the start URL');
    const running = trimCrawl({ ...failed, status: 'processing', stopReason: undefined, error: undefined });
    expect('stopReason' in running).toBe(false);
    expect('error' in running).toBe(false);
  });
});

describe('trimBatch', () => {
  it('splits done results (url + markdown) from failures (url + error)', () => {
    const trimmed = trimBatch({
      id: 'b1',
      status: 'done',
      total: 3,
      completed: 2,
      failed: 1,
      creditsUsed: 2,
      results: [
        { url: 'https://a.com/', status: 'done', data: { markdown: '# A' } },
        { url: 'https://b.com/', status: 'failed', error: 'Connection refused' },
        { url: 'https://c.com/', status: 'done', data: { markdown: '# C' } },
      ],
    });
    expect(trimmed.results).toEqual([
      { url: 'https://a.com/', markdown: '# A' },
      { url: 'https://c.com/', markdown: '# C' },
    ]);
    for (const r of trimmed.results) expect(Object.keys(r).sort()).toEqual(['markdown', 'url']);
    expect(trimmed.failures).toEqual([{ url: 'https://b.com/', error: 'Connection refused' }]);
    expect(trimmed).toMatchObject({
      id: 'b1',
      status: 'done',
      total: 3,
      completed: 2,
      failed: 1,
      creditsUsed: 2,
    });
  });
});

describe('trimming with formats', () => {
  const metadata = { title: 'T', statusCode: 200, sourceURL: 'https://x.com/' };

  it('keeps url + exactly the formats asked (a screenshot as its URL, null when missing)', () => {
    const batch = trimBatch(
      {
        id: 'b',
        status: 'done',
        total: 1,
        completed: 1,
        failed: 0,
        creditsUsed: 1,
        results: [
          {
            url: 'https://x.com/',
            status: 'done',
            data: { links: ['https://x.com/a'], screenshot: 'http://svc/v1/screenshots/s.png', html: '<p>' },
          } as never,
        ],
      },
      ['links', 'screenshot@fullPage', 'rawHtml'],
    );
    expect(batch.results).toEqual([
      {
        url: 'https://x.com/',
        links: ['https://x.com/a'],
        screenshot: 'http://svc/v1/screenshots/s.png',
        rawHtml: null,
      },
    ]);
  });

  it('without formats, a page that has no markdown shows the format fields it has (status tools)', () => {
    const crawl = trimCrawl({
      id: 'c',
      status: 'done',
      total: 1,
      completed: 1,
      failed: 0,
      creditsUsed: 1,
      pages: [{ url: 'https://x.com/', rawHtml: '<html>', metadata } as never],
      failedPages: [],
    });
    expect(crawl.pages).toEqual([{ url: 'https://x.com/', rawHtml: '<html>' }]);
  });
});
