import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  DnsResolutionError,
  TargetForbiddenError,
  TargetTooLargeError,
  TargetUnreachableError,
  TimeoutError,
  TlsError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from '@wcs/errors';
import { isForbiddenAddress } from '@wcs/net';
import { type FixtureSite, fixtureArticle, startFixtureSite } from '@wcs/testing';
import { FetchEngine } from './fetch-engine';
import { createRenderer } from './renderer';
import { testContext, testOptions } from './test-support/options';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './test-support/self-signed';
import type { Renderer } from './types';

let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  renderer = createRenderer(testOptions());
});
afterAll(async () => {
  await renderer.close();
  await site.close();
});

const fetchPage = (path: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  renderer.render({ url: `${site.url}${path}`, engine: 'fetch', ...extra });

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('fetch engine: content', () => {
  it('fetches an article page with metadata', async () => {
    const res = await fetchPage('/article/2');
    expect(res).toMatchObject({ statusCode: 200, contentType: 'text/html', engine: 'fetch', redirects: [] });
    expect(res.finalUrl).toBe(`${site.url}/article/2`);
    expect(res.body).toContain(fixtureArticle(2).paragraphs[1]);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('decodes latin-1 from the header and from <meta>', async () => {
    expect((await fetchPage('/latin1')).body).toContain('café déjà vu');
    expect((await fetchPage('/latin1-meta')).body).toContain('café déjà vu');
  });

  it('decompresses gzip', async () => {
    expect((await fetchPage('/gzip')).body).toContain(fixtureArticle(0).title);
  });

  it('returns JSON, plain text and sniffed HTML as text', async () => {
    const json = await fetchPage('/json');
    expect(json.contentType).toBe('application/json');
    expect(JSON.parse(json.body)).toMatchObject({ ok: true });
    expect(await fetchPage('/text')).toMatchObject({
      contentType: 'text/plain',
      body: expect.stringContaining('Plain'),
    });
    expect((await fetchPage('/no-content-type')).contentType).toBe('text/html');
    expect((await fetchPage('/robots.txt')).body).toContain('Sitemap:');
    expect((await fetchPage('/sitemap.xml')).contentType).toBe('application/xml');
  });

  it('refuses images with UnsupportedContentTypeError naming the type', async () => {
    const err = await fetchPage('/image.png').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedContentTypeError);
    expect((err as Error).message).toContain('image/png');
  });

  it('returns HTTP error statuses instead of throwing', async () => {
    expect((await fetchPage('/404')).statusCode).toBe(404);
    expect((await fetchPage('/500')).statusCode).toBe(500);
    const blocked = await fetchPage('/403-blocked');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.body).toContain('Access denied');
  });

  it('sends the user agent and caller headers', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const port = await listen(server);
    try {
      await renderer.render({
        url: `http://127.0.0.1:${port}/`,
        engine: 'fetch',
        headers: { 'X-Test': 'yes' },
      });
      expect(seen[0]).toMatchObject({ 'user-agent': 'wcs-renderer-test/1.0', 'x-test': 'yes' });
    } finally {
      server.close();
    }
  });
});

describe('fetch engine: redirects', () => {
  it('follows a redirect chain and reports each hop', async () => {
    const res = await fetchPage('/redirect/3');
    expect(res.statusCode).toBe(200);
    expect(res.redirects).toEqual([`${site.url}/redirect/2`, `${site.url}/redirect/1`, `${site.url}/`]);
    expect(res.finalUrl).toBe(`${site.url}/`);
    expect(res.requestedUrl).toBe(`${site.url}/redirect/3`);
  });

  it('throws TooManyRedirectsError on a loop and beyond maxRedirects', async () => {
    await expect(fetchPage('/redirect-loop')).rejects.toBeInstanceOf(TooManyRedirectsError);
    const strict = createRenderer(testOptions({ maxRedirects: 2 }));
    try {
      await expect(strict.render({ url: `${site.url}/redirect/3` })).rejects.toBeInstanceOf(
        TooManyRedirectsError,
      );
      await expect(strict.render({ url: `${site.url}/redirect/2` })).resolves.toMatchObject({
        statusCode: 200,
      });
    } finally {
      await strict.close();
    }
  });

  it('refuses a redirect to a private address and to file:', async () => {
    // Loopback (the fixture) allowed, everything else private refused: isolates the per-hop check.
    const engine = new FetchEngine({
      ...testOptions({ allowPrivateTargets: false }),
      isForbidden: (ip) => ip !== '127.0.0.1' && isForbiddenAddress(ip),
    });
    try {
      const started = Date.now();
      await expect(
        engine.render({ url: `${site.url}/redirect-to-private` }, testContext()),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
      expect(Date.now() - started).toBeLessThan(2_000); // refused, not a connect attempt to 10.0.0.1
      await expect(
        engine.render({ url: `${site.url}/redirect-to-file` }, testContext()),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
      await expect(engine.render({ url: `${site.url}/redirect/1` }, testContext())).resolves.toMatchObject({
        statusCode: 200,
      });
    } finally {
      await engine.close();
    }
  });
});

describe('fetch engine: SSRF with allowPrivateTargets false', () => {
  it('refuses loopback, private, metadata and file: targets without touching them', async () => {
    const strict = createRenderer(testOptions({ allowPrivateTargets: false }));
    const before = site.accessLog.length;
    try {
      for (const url of [
        `${site.url}/`,
        `http://localhost:${site.port}/`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/',
        'file:///etc/passwd',
      ]) {
        await expect(strict.render({ url })).rejects.toBeInstanceOf(TargetForbiddenError);
      }
      expect(site.accessLog.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

describe('fetch engine: limits and failures', () => {
  it('times out on a trickling body and on a server that never answers', async () => {
    for (const path of ['/slow', '/hang']) {
      const started = Date.now();
      await expect(fetchPage(path, { timeoutMs: 700 })).rejects.toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(3_000);
    }
  });

  it('honours an AbortSignal', async () => {
    const controller = new AbortController();
    const pending = fetchPage('/hang', { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
    await expect(fetchPage('/hang', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('stops at maxBodyBytes, with and without Content-Length', async () => {
    await expect(fetchPage('/huge')).rejects.toBeInstanceOf(TargetTooLargeError);
    const small = createRenderer(testOptions({ maxBodyBytes: 256 * 1024 }));
    try {
      const started = Date.now();
      await expect(small.render({ url: `${site.url}/huge-chunked` })).rejects.toBeInstanceOf(
        TargetTooLargeError,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect(small.render({ url: `${site.url}/` })).resolves.toMatchObject({ statusCode: 200 });
    } finally {
      await small.close();
    }
  });

  it('maps DNS failure, refused and reset connections', async () => {
    await expect(renderer.render({ url: 'http://no-such-host.invalid/' })).rejects.toBeInstanceOf(
      DnsResolutionError,
    );
    const closed = createHttpServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    await expect(renderer.render({ url: `http://127.0.0.1:${port}/` })).rejects.toBeInstanceOf(
      TargetUnreachableError,
    );
    await expect(fetchPage('/reset')).rejects.toBeInstanceOf(TargetUnreachableError);
  });

  it('maps an untrusted certificate to TlsError', async () => {
    const server = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) =>
      res.end('hi'),
    );
    const port = await listen(server as unknown as Server);
    try {
      await expect(renderer.render({ url: `https://127.0.0.1:${port}/` })).rejects.toBeInstanceOf(TlsError);
    } finally {
      server.close();
    }
  });
});
