import { toFirecrawlDocument } from './document.compat';

describe('toFirecrawlDocument', () => {
  const doc = {
    markdown: '# T',
    html: '<h1>T</h1>',
    text: 'T',
    screenshot: 'http://h/v1/screenshots/x.png',
    actions: {
      screenshots: ['http://h/v1/screenshots/y.png'],
      javascriptReturns: [{ type: 'number', value: 2 }],
    },
    warning: 'cut',
    metadata: {
      title: 'T',
      description: null,
      statusCode: 200,
      sourceURL: 'http://h/a',
      finalUrl: 'http://h/b',
      contentType: 'text/html',
      cacheState: 'hit' as const,
      cachedAt: '2026-01-01T00:00:00.000Z',
      pages: 3,
    },
  };

  it('renames the native fields and drops the native-only ones (text)', () => {
    expect(toFirecrawlDocument(doc, { creditsUsed: 1, scrapeId: 'r1' })).toEqual({
      markdown: '# T',
      html: '<h1>T</h1>',
      screenshot: 'http://h/v1/screenshots/x.png',
      actions: {
        screenshots: ['http://h/v1/screenshots/y.png'],
        javascriptReturns: [{ type: 'number', value: 2 }],
        scrapes: [],
        pdfs: [],
      },
      warning: 'cut',
      metadata: {
        title: 'T',
        sourceURL: 'http://h/a',
        url: 'http://h/b',
        statusCode: 200,
        contentType: 'text/html',
        cacheState: 'hit',
        cachedAt: '2026-01-01T00:00:00.000Z',
        creditsUsed: 1,
        scrapeId: 'r1',
        numPages: 3,
        proxyUsed: 'basic',
      },
    });
  });

  it('keeps only the wanted formats and adds json and the error when given', () => {
    const out = toFirecrawlDocument(doc, { wanted: ['json'], json: { a: 1 }, error: 'boom' });
    expect(out.markdown).toBeUndefined();
    expect(out.html).toBeUndefined();
    expect(out.json).toEqual({ a: 1 });
    expect(out.metadata.error).toBe('boom');
    expect(out.metadata.url).toBe('http://h/b');
  });
});
