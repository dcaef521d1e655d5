import type { ScrapeResponse } from '@wcs/client-node';
import { formatKeys, pageOptionsOf } from './page-option-inputs.js';
import { pickFormat, pickFormats } from './scrape.tools.js';

describe('page option inputs', () => {
  it('pageOptionsOf keeps only what the call gave', () => {
    expect(pageOptionsOf({})).toEqual({});
    expect(pageOptionsOf({ formats: ['links'], headers: { a: 'b' }, mobile: false, maxAge: 0 })).toEqual({
      formats: ['links'],
      headers: { a: 'b' },
      mobile: false,
      maxAge: 0,
    });
  });

  it('formatKeys folds both screenshot formats into `screenshot`', () => {
    expect(formatKeys(['screenshot', 'screenshot@fullPage', 'links'])).toEqual(['screenshot', 'links']);
  });
});

describe('service_scrape answers', () => {
  const response: ScrapeResponse = {
    success: true,
    data: {
      links: ['https://x.com/a'],
      screenshot: 'http://svc/v1/screenshots/s.png',
      actions: { screenshots: [], javascriptReturns: [{ type: 'number', value: 2 }] },
      metadata: { title: 'T', statusCode: 200, sourceURL: 'https://x.com/' },
    },
  };

  it('with formats: each format (a screenshot as its URL), metadata, action outputs', () => {
    expect(pickFormats(response, ['links', 'screenshot', 'rawHtml'])).toEqual({
      links: ['https://x.com/a'],
      screenshot: 'http://svc/v1/screenshots/s.png',
      rawHtml: null,
      metadata: response.data.metadata,
      actions: response.data.actions,
    });
  });

  it('without formats: the one format asked, metadata, action outputs', () => {
    expect(Object.keys(pickFormat(response, 'markdown')).sort()).toEqual(['actions', 'markdown', 'metadata']);
  });
});
