import { randomUUID } from 'node:crypto';
import { TargetForbiddenError } from '@wcs/errors';
import { type ConditionalSite, startConditionalSite } from '@wcs/testing';
import { createRenderer } from './renderer';
import { testOptions } from './test-support/options';
import type { Renderer } from './types';

// Conditional revalidation (`revalidate`): both engines send the validators with the main document
// and answer a 304 as `notModified`, reading no body.

const MARKER = `--wcs-test-run=${randomUUID()}`;

let site: ConditionalSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startConditionalSite({ pages: 3, script: true });
  renderer = createRenderer(
    testOptions({
      // The first browser render launches Chromium: generous on a loaded machine.
      fetchTimeoutMs: 30_000,
      browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 1, args: [MARKER] },
    }),
  );
});
afterAll(async () => {
  await renderer.close();
  await site.close();
});
beforeEach(() => {
  site.setIgnoreValidators(false);
  site.override('/page/2', undefined);
  site.resetCounts();
});

describe.each(['fetch', 'browser'] as const)('%s engine', (engine) => {
  it('sends If-None-Match and If-Modified-Since and returns a 304 as notModified, no body read', async () => {
    const first = await renderer.render({ url: `${site.url}/page/0`, engine });
    expect(first.statusCode).toBe(200);
    expect(first.notModified).toBeUndefined();
    const etag = first.headers.etag;
    const lastModified = first.headers['last-modified'];
    expect(etag).toBe(site.validators(0).etag);
    site.resetCounts();

    const again = await renderer.render({
      url: `${site.url}/page/0`,
      engine,
      revalidate: { etag, lastModified },
    });
    expect(again.notModified).toBe(true);
    expect(again.statusCode).toBe(304);
    // The browser's conditional question is the fetch engine's (Chromium aborts a 304 navigation).
    expect(again.engine).toBe('fetch');
    expect(again.body).toBe('');
    expect(again.finalUrl).toBe(`${site.url}/page/0`);
    // The main document only: the page was not loaded, so no subresource was asked for either.
    expect(site.counts()).toEqual({ requests: 1, notModified: 1, ok: 0, bodyBytes: 0 });
    expect(site.requests[0]).toMatchObject({
      path: '/page/0',
      ifNoneMatch: etag,
      ifModifiedSince: lastModified,
    });
  });

  it('revalidates with Last-Modified alone', async () => {
    const { lastModified } = site.validators(1);
    const res = await renderer.render({ url: `${site.url}/page/1`, engine, revalidate: { lastModified } });
    expect(res.notModified).toBe(true);
    expect(site.counts().bodyBytes).toBe(0);
  });

  it('a changed page (stale ETag) comes back whole, as an ordinary 200', async () => {
    const stale = site.validators(1);
    site.change(1);
    const res = await renderer.render({
      url: `${site.url}/page/1`,
      engine,
      revalidate: { etag: stale.etag },
    });
    expect(res.statusCode).toBe(200);
    expect(res.notModified).toBeUndefined();
    expect(res.body).toContain('of page 1.</p>');
    expect(res.headers.etag).toBe(site.validators(1).etag);
    expect(res.headers.etag).not.toBe(stale.etag);
    expect(site.counts().bodyBytes).toBeGreaterThan(1000);
  });

  it('a server that ignores the validators answers 200: the normal path', async () => {
    site.setIgnoreValidators(true);
    const res = await renderer.render({ url: `${site.url}/page/0`, engine, revalidate: site.validators(0) });
    expect(res.statusCode).toBe(200);
    expect(res.notModified).toBeUndefined();
    expect(res.body).toContain('Version 0 of page 0');
  });

  it('a 304 to a request that sent no validators is no notModified (the caller refuses it)', async () => {
    site.override('/page/2', { status: 304 });
    if (engine === 'fetch') {
      const res = await renderer.render({ url: `${site.url}/page/2`, engine });
      expect(res.statusCode).toBe(304);
      expect(res.notModified).toBeUndefined();
      expect(res.body).toBe('');
    } else {
      // Chromium aborts a navigation answered 304: an error, never an empty page.
      await expect(renderer.render({ url: `${site.url}/page/2`, engine })).rejects.toMatchObject({
        code: 'TARGET_UNREACHABLE',
      });
    }
  });

  it('still refuses a private target whatever the validators', async () => {
    const strict = createRenderer(
      testOptions({
        allowPrivateTargets: false,
        browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 1, args: [MARKER] },
      }),
    );
    try {
      await expect(
        strict.render({ url: `${site.url}/page/0`, engine, revalidate: site.validators(0) }),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
    } finally {
      await strict.close();
    }
    expect(site.counts().requests).toBe(0);
  });
});

it('browser: a changed page is asked once conditionally (closed unread), then rendered as always', async () => {
  const stale = site.validators(0);
  site.change(0);
  const res = await renderer.render({ url: `${site.url}/page/0`, engine: 'browser', revalidate: stale });
  expect(res.statusCode).toBe(200);
  expect(res.engine).toBe('browser');
  expect(res.body).toContain('of page 0.</p>');
  expect(res.body).toContain('data-app="1"');
  const pages = site.requests.filter((r) => r.path === '/page/0');
  expect(pages.map((r) => r.ifNoneMatch)).toEqual([stale.etag, undefined]);
  // Subresources never carry the page's validators.
  const script = site.requests.find((r) => r.path === '/app.js');
  expect(script).toBeDefined();
  expect(script?.ifNoneMatch).toBeUndefined();
});

it('browser: actions or a screenshot make the render unconditional (a copy has no outputs of them)', async () => {
  const res = await renderer.render({
    url: `${site.url}/page/1`,
    engine: 'browser',
    screenshot: 'viewport',
    revalidate: site.validators(1),
  });
  expect(res.statusCode).toBe(200);
  expect(res.screenshot).toBeDefined();
  expect(site.requests.filter((r) => r.path === '/page/1').map((r) => r.ifNoneMatch)).toEqual([undefined]);
});

it.each(['fetch', 'browser'] as const)(
  '%s: the validators follow a redirect to the page they belong to',
  async (engine) => {
    site.override('/moved', { status: 301, headers: { location: '/page/1' } });
    try {
      const res = await renderer.render({ url: `${site.url}/moved`, engine, revalidate: site.validators(1) });
      expect(res.notModified).toBe(true);
      expect(res.finalUrl).toBe(`${site.url}/page/1`);
      expect(res.redirects).toEqual([`${site.url}/page/1`]);
      expect(site.counts()).toMatchObject({ notModified: 1, bodyBytes: 0 });
    } finally {
      site.override('/moved', undefined);
    }
  },
);
