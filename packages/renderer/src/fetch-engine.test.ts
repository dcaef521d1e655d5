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
    const refused: string[] = [];
    const engine = new FetchEngine({
      ...testOptions({ allowPrivateTargets: false }),
      isForbidden: (ip) => {
        const forbidden = ip !== '127.0.0.1' && isForbiddenAddress(ip);
        if (forbidden) refused.push(ip);
        return forbidden;
      },
    });
    try {
      await expect(
        engine.render({ url: `${site.url}/redirect-to-private` }, testContext()),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
      // Refused by the policy at the hop, not a connect attempt to 10.0.0.1 (that would end in
      // TargetUnreachable or TIMEOUT).
      expect(refused).toContain('10.0.0.1');
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
      const pending = fetchPage(path, { timeoutMs: 700 });
      await expect(pending).rejects.toBeInstanceOf(TimeoutError);
      // The request's own budget ended it: the message names what was left of its 700 ms when the
      // request was sent (a millisecond may have gone to the checks before it), not another timeout.
      const message = await pending.catch((err: Error) => err.message);
      const named = Number(/(?:timed out after|took longer than) (\d+) ms/.exec(String(message))?.[1]);
      expect(named).toBeGreaterThan(600);
      expect(named).toBeLessThanOrEqual(700);
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
      const cut = small.render({ url: `${site.url}/huge-chunked` });
      await expect(cut).rejects.toBeInstanceOf(TargetTooLargeError);
      // Stopped by the streaming cap it names, not after reading the 50 MB.
      await expect(cut).rejects.toMatchObject({ details: { maxBodyBytes: 256 * 1024 } });
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

describe('fetch engine: content decided by the bytes', () => {
  const PNG = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
  ]);
  const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
  const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), Buffer.alloc(2048, 7)]);
  const RANDOM = Buffer.alloc(1_500_000);
  for (let i = 0, x = 12345; i < RANDOM.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    RANDOM[i] = x >>> 24;
  }
  const LATIN1 = Buffer.from(
    '<html><body><p>caf\xe9 d\xe9j\xe0 vu \x93quoted\x94</p></body></html>',
    'latin1',
  );
  const SJIS = Buffer.from([0x3c, 0x70, 0x3e, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x3c, 0x2f, 0x70, 0x3e]);
  const bodies: Record<string, [Buffer, string | undefined]> = {
    '/png-as-html': [PNG, 'text/html; charset=utf-8'],
    '/pdf-as-html': [PDF, 'text/html'],
    '/zip-as-text': [ZIP, 'text/plain'],
    '/random-as-html': [RANDOM, 'text/html'],
    '/random-untyped': [RANDOM, undefined],
    '/unknown-charset': [LATIN1, 'text/html; charset=x-made-up'],
    '/wrong-charset': [LATIN1, 'text/html; charset=utf-8'],
    '/sjis-undeclared': [SJIS, 'text/html'],
  };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      const entry = bodies[req.url ?? ''];
      if (!entry) return void res.writeHead(404).end();
      const [body, type] = entry;
      res.writeHead(200, type ? { 'content-type': type } : {});
      res.end(body);
    });
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.each(['/png-as-html', '/zip-as-text', '/random-as-html', '/random-untyped'])(
    '%s is 415 UNSUPPORTED_CONTENT_TYPE',
    async (path) => {
      const err = await renderer.render({ url: `${base}${path}`, engine: 'fetch' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnsupportedContentTypeError);
      expect((err as UnsupportedContentTypeError).status).toBe(415);
    },
  );

  it('a PDF served as HTML is a document (renderer-documents.test.ts has the rest)', async () => {
    const res = await renderer.render({ url: `${base}/pdf-as-html`, engine: 'fetch' });
    expect(res).toMatchObject({ contentType: 'application/pdf', body: '', documentKind: 'pdf' });
    expect(res.bytes?.equals(PDF)).toBe(true);
  });

  it('names the detected type next to the declared one', async () => {
    const err = await renderer
      .render({ url: `${base}/png-as-html`, engine: 'fetch' })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('Unsupported content type: image/png (declared text/html)');
  });

  it('text with wrong, unknown or undeclared charsets passes', async () => {
    const unknown = await renderer.render({ url: `${base}/unknown-charset`, engine: 'fetch' });
    expect(unknown.contentType).toBe('text/html');
    expect(unknown.body).toContain('<p>caf');
    const wrong = await renderer.render({ url: `${base}/wrong-charset`, engine: 'fetch' });
    expect(wrong.body).toContain('vu'); // mojibake for the accents, but text
    const sjis = await renderer.render({ url: `${base}/sjis-undeclared`, engine: 'fetch' });
    expect(sjis.contentType).toBe('text/html');
  });
});
