/**
 * A content-pipeline failure fails the scrape job (the gateway refunds it) and is logged with the
 * URL. The seam: conversion runs in the content pool's worker threads (@wcs/scraper), out of jest's
 * module registry, so the page's conversion is replaced there for pages carrying a marker.
 */
import { ContentProcessingError, TargetHttpError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import type { Renderer, RenderResult } from '@wcs/renderer';
import { ContentPool } from '@wcs/scraper';
import { logOwnFailure, scrapeProcessor } from './scrape.processor';

jest.mock('@wcs/scraper', () => {
  const actual = jest.requireActual('@wcs/scraper');
  return {
    ...actual,
    scrapeDocument: async (tools: { renderer: Renderer }, req: { url: string }) => {
      const page = await tools.renderer.render({ url: req.url });
      if (page.body.includes('x-test-explode')) throw new ContentProcessingError(req.url);
      return actual.scrapeDocument(tools, req);
    },
  };
});

const page = (url: string, body: string): RenderResult => ({
  requestedUrl: url,
  finalUrl: url,
  statusCode: 200,
  contentType: 'text/html',
  body,
  engine: 'fetch',
  headers: {},
  redirects: [],
  elapsedMs: 1,
});
const renderer = (body: string): Renderer => ({
  features: { browser: false, proxies: false, proxyMode: 'auto' },
  render: async (req) => page(req.url, body),
  checkTarget: async () => undefined,
  close: async () => undefined,
});
const fakeLogger = () => {
  const errors: Array<[Record<string, unknown>, string | undefined]> = [];
  return {
    errors,
    logger: { error: (o: Record<string, unknown>, m?: string) => errors.push([o, m]) } as unknown as Logger,
  };
};
const payload = (url: string) => ({
  url,
  format: 'markdown' as const,
  onlyMainContent: true,
  engine: 'fetch' as const,
  timeoutMs: 5000,
  accountId: 'acc',
  requestId: 'req',
});

describe('scrape processor: content pipeline failures', () => {
  it('rejects with CONTENT_PROCESSING_FAILED and logs the URL', async () => {
    const { errors, logger } = fakeLogger();
    const run = scrapeProcessor(
      {
        renderer: renderer('<html><head><meta name="x-test-explode"></head><body><p>x</p></body></html>'),
        pool: new ContentPool({ threads: 0, idleTimeoutMs: 300, taskTimeoutMs: 5_000, heapMb: 256 }),
      },
      undefined,
      logger,
    );
    const url = 'https://example.com/broken';
    const ctx = { signal: new AbortController().signal, deadlineAt: null, confirmLock: async () => {} };
    await expect(run(payload(url) as never, {} as never, ctx)).rejects.toBeInstanceOf(ContentProcessingError);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatchObject({ url, code: 'CONTENT_PROCESSING_FAILED' });
  });

  it('logs our own failures only: a target error is not ours', () => {
    const { errors, logger } = fakeLogger();
    logOwnFailure(logger, 'https://example.com/404', new TargetHttpError(404));
    expect(errors).toHaveLength(0);
    logOwnFailure(logger, 'https://example.com/x', new ContentProcessingError('https://example.com/x'));
    expect(errors).toHaveLength(1);
  });
});
