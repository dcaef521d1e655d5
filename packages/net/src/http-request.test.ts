import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import {
  DnsResolutionError,
  TargetForbiddenError,
  TargetTooLargeError,
  TargetUnreachableError,
  TimeoutError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from '@wcs/errors';
import type { Dispatcher } from 'undici';
import { type AddressPolicy, createGuardedAgent, isForbiddenAddress } from './address-policy';
import { openUrl, readBody } from './http-request';

/** 127.0.0.1 is the test server; every other non-public address (127.0.0.2, 10/8, …) stays refused. */
const onlyLoopback1: AddressPolicy = (ip) => ip !== '127.0.0.1' && isForbiddenAddress(ip);

type Route = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Server {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function serve(routes: Record<string, Route>): Promise<Server> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push(`${req.headers.host} ${req.method} ${req.url}`);
      const route = routes[req.url ?? ''];
      if (!route) {
        res.writeHead(404).end('no');
        return;
      }
      route(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const redirect =
  (to: (port: number) => string, status = 302): Route =>
  (req, res) =>
    res.writeHead(status, { location: to(Number(req.headers.host?.split(':')[1])) }).end();

const zeros = Buffer.alloc(1024 * 1024); // 1 MiB of zeros: ~1 KiB gzipped

describe('openUrl / readBody', () => {
  const awayHeaders: http.IncomingHttpHeaders[] = [];
  /** The client port of each request to the socket-recording routes. */
  const sockets: number[] = [];
  let server: Server;
  let agent: Dispatcher;
  let connectOnly: Dispatcher;

  beforeAll(async () => {
    server = await serve({
      '/ok': (_q, s) => s.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello'),
      '/to-private': redirect((port) => `http://127.0.0.2:${port}/ok`),
      '/to-rebind': redirect((port) => `http://multi.test:${port}/ok`),
      '/to-ok': redirect(() => '/ok', 301),
      '/loop': redirect(() => '/loop'),
      '/gzip-bomb': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
          .end(zlib.gzipSync(zeros)),
      '/br-bomb': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
          .end(zlib.brotliCompressSync(zeros)),
      '/deflate-bomb': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' })
          .end(zlib.deflateSync(zeros)),
      '/gzip-gzip-bomb': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, gzip' })
          .end(zlib.gzipSync(zlib.gzipSync(zeros))),
      '/gzip-then-br': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, br' })
          .end(zlib.brotliCompressSync(zlib.gzipSync('two layers'))),
      '/deflate-ok': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' })
          .end(zlib.deflateSync('zlib wrapped')),
      '/duplicated-header': (_q, s) => {
        // Two Content-Encoding header lines: undici joins them, as HTTP says a list is.
        s.setHeader('content-encoding', ['gzip', 'gzip']);
        s.writeHead(200, { 'content-type': 'text/plain' }).end(zlib.gzipSync(zlib.gzipSync('twice')));
      },
      '/four-layers': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, gzip, gzip, gzip' })
          .end('x'),
      '/unknown-encoding': (_q, s) =>
        s.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zz-packed' }).end('x'),
      '/gz-no-header': (_q, s) =>
        s.writeHead(200, { 'content-type': 'application/octet-stream' }).end(zlib.gzipSync('inside')),
      '/declared-big': (_q, s) => {
        s.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(10_000_000) });
        s.write('x');
      },
      '/hang': () => undefined,
      '/not-modified': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(304, { etag: '"v1"' }).end();
      },
      '/no-content': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(204).end();
      },
      '/whose-socket': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1' }).end('x');
      },
      // Its body is still on its way when the client lets go of it.
      '/still-sending': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' }).write('x');
      },
      '/chunked': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(200, { 'content-type': 'text/plain' }).end('x');
      },
      // Redirects with a body (as servers send them), all of it at once, or part of it.
      '/moved-small': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        const body = '<html><body>Moved <a href="/landing">here</a></body></html>';
        s.writeHead(301, { location: '/landing', 'content-length': String(body.length) }).end(body);
      },
      '/moved-slow': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(302, { location: '/landing', 'content-length': '5000' }).write('<html>');
      },
      '/landing': (q, s) => {
        sockets.push(q.socket.remotePort ?? 0);
        s.writeHead(200, { 'content-type': 'text/plain', 'content-length': '7' }).end('landing');
      },
      '/echo': (q, s, body) =>
        s
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: q.method, body, headers: q.headers })),
      '/post-redirect': (_q, s) => s.writeHead(303, { location: '/echo' }).end(),
      '/cross-origin': redirect((port) => `http://localhost:${port}/echo`),
      '/same-origin': redirect(() => '/echo'),
      // 127.0.0.1 → localhost (another origin, recorded) → back to 127.0.0.1.
      '/away-and-back': redirect((port) => `http://localhost:${port}/away`),
      '/away': (q, s) => {
        awayHeaders.push(q.headers);
        redirect((port) => `http://127.0.0.1:${port}/echo`)(q, s, '');
      },
    });
    agent = createGuardedAgent(2_000, onlyLoopback1);
    connectOnly = createGuardedAgent(2_000, onlyLoopback1);
  });
  afterAll(async () => {
    await Promise.all([agent.close(), connectOnly.close(), server.close()]);
  });
  const afterCleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(afterCleanup.splice(0).map((f) => f()));
  });

  const base = { timeoutMs: 5_000 };

  it('follows redirects and reports the hops', async () => {
    const res = await openUrl(`${server.url}/to-ok`, {
      ...base,
      dispatcher: agent,
      isForbidden: onlyLoopback1,
    });
    expect([res.statusCode, res.url, res.redirects, res.mime]).toEqual([
      200,
      `${server.url}/ok`,
      [`${server.url}/ok`],
      'text/plain',
    ]);
    expect((await readBody(res, { maxBytes: 100 })).toString()).toBe('hello');
  });

  /** Opens each path, closes it unread; whether each body ended (read to its end) or was destroyed. */
  async function closeUnread(paths: string[], dispatcher: Dispatcher): Promise<Record<string, boolean>> {
    const ended: Record<string, boolean> = {};
    for (const path of paths) {
      const res = await openUrl(`${server.url}${path}`, { ...base, dispatcher });
      ended[path] = false;
      res.body.on('end', () => {
        ended[path] = true;
      });
      const closed = new Promise((resolve) => res.body.on('close', resolve));
      res.close();
      await closed;
    }
    return ended;
  }

  it('closes a 304, a 204 or a body that has all arrived by reading it to its end (no abort), and its connection serves the next request', async () => {
    const own = createGuardedAgent(2_000, onlyLoopback1);
    afterCleanup.push(() => own.close());
    sockets.length = 0;
    const ended = await closeUnread(['/not-modified', '/no-content', '/whose-socket', '/landing'], own);
    expect(ended).toEqual({
      '/not-modified': true,
      '/no-content': true,
      '/whose-socket': true,
      '/landing': true,
    });
    expect(sockets).toHaveLength(4);
    expect(new Set(sockets).size).toBe(1);
  });

  it('destroys a body still on its way or of unknown length (nothing waits on the sender), and the next request takes a new connection', async () => {
    const own = createGuardedAgent(2_000, onlyLoopback1);
    afterCleanup.push(() => own.close());
    sockets.length = 0;
    // A body destroyed unread closes without ending (undici builds an abort error for it).
    const ended = await closeUnread(['/still-sending', '/chunked', '/landing'], own);
    expect(ended).toEqual({ '/still-sending': false, '/chunked': false, '/landing': true });
    expect(new Set(sockets).size).toBe(3);
  });

  it("follows a redirect on the same connection when the redirect's body has all arrived, on a new one otherwise", async () => {
    const own = createGuardedAgent(2_000, onlyLoopback1);
    afterCleanup.push(() => own.close());
    for (const [from, connections] of [
      ['/moved-small', 1],
      ['/moved-slow', 2],
    ] as const) {
      sockets.length = 0;
      const res = await openUrl(`${server.url}${from}`, { ...base, dispatcher: own });
      expect(res.url).toBe(`${server.url}/landing`);
      expect((await readBody(res, { maxBytes: 100 })).toString()).toBe('landing');
      expect({ from, connections: new Set(sockets).size }).toEqual({ from, connections });
    }
  });

  describe('address policy on every hop', () => {
    it('refuses a redirect to a forbidden address up front, before connecting', async () => {
      const before = server.hits.length;
      await expect(
        openUrl(`${server.url}/to-private`, { ...base, dispatcher: agent, isForbidden: onlyLoopback1 }),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
      expect(server.hits.slice(before)).toEqual([`127.0.0.1:${server.port} GET /to-private`]);
    });

    it('refuses the hop at connect time when only the dispatcher checks', async () => {
      const before = server.hits.length;
      await expect(
        openUrl(`${server.url}/to-private`, { ...base, dispatcher: connectOnly }),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
      expect(server.hits.length - before).toBe(1);
    });

    it('refuses a host when any one of its resolved addresses is forbidden (up front and at connect)', async () => {
      const answers = [
        { address: '127.0.0.1', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ];
      jest.spyOn(dns.promises, 'lookup').mockResolvedValue(answers as unknown as dns.LookupAddress);
      const upFront = openUrl(`${server.url}/to-rebind`, {
        ...base,
        dispatcher: agent,
        isForbidden: onlyLoopback1,
      });
      await expect(upFront).rejects.toBeInstanceOf(TargetForbiddenError);
      await expect(upFront).rejects.toThrow(/10\.0\.0\.1/);

      jest
        .spyOn(dns, 'lookup')
        .mockImplementation(((_host: string, _opts: unknown, cb: (err: null, a: typeof answers) => void) =>
          cb(null, answers)) as unknown as typeof dns.lookup);
      const atConnect = openUrl(`${server.url}/to-rebind`, { ...base, dispatcher: connectOnly });
      await expect(atConnect).rejects.toBeInstanceOf(TargetForbiddenError);
      await expect(atConnect).rejects.toThrow(/10\.0\.0\.1/);
    });

    it('refuses non-http schemes and credentials', async () => {
      await expect(openUrl('file:///etc/passwd', { ...base, dispatcher: agent })).rejects.toBeInstanceOf(
        TargetForbiddenError,
      );
      await expect(
        openUrl(`http://u:p@127.0.0.1:${server.port}/ok`, { ...base, dispatcher: agent }),
      ).rejects.toBeInstanceOf(TargetForbiddenError);
    });
  });

  describe('byte caps after decompression', () => {
    it.each(['/gzip-bomb', '/br-bomb'])(
      '%s: a small compressed body that inflates past the cap is refused',
      async (path) => {
        const res = await openUrl(`${server.url}${path}`, { ...base, dispatcher: agent });
        await expect(readBody(res, { maxBytes: 64 * 1024 })).rejects.toBeInstanceOf(TargetTooLargeError);
      },
    );

    it.each(['/deflate-bomb', '/gzip-gzip-bomb', '/duplicated-header'])(
      '%s: every layer is undone and the decoded bytes are capped',
      async (path) => {
        const res = await openUrl(`${server.url}${path}`, { ...base, dispatcher: agent });
        if (path === '/duplicated-header') {
          expect((await readBody(res, { maxBytes: 1024 })).toString()).toBe('twice');
          return;
        }
        await expect(readBody(res, { maxBytes: 64 * 1024 })).rejects.toBeInstanceOf(TargetTooLargeError);
      },
    );

    it('decodes stacked and zlib-wrapped encodings', async () => {
      const read = async (path: string) =>
        (
          await readBody(await openUrl(`${server.url}${path}`, { ...base, dispatcher: agent }), {
            maxBytes: 1024,
          })
        ).toString();
      expect(await read('/gzip-then-br')).toBe('two layers');
      expect(await read('/deflate-ok')).toBe('zlib wrapped');
    });

    it.each(['/four-layers', '/unknown-encoding'])('%s: refused 415 before reading', async (path) => {
      await expect(openUrl(`${server.url}${path}`, { ...base, dispatcher: agent })).rejects.toBeInstanceOf(
        UnsupportedContentTypeError,
      );
    });

    it('onHead sees the first bytes and can refuse the body without the typed error being remapped', async () => {
      const res = await openUrl(`${server.url}/gzip-bomb`, { ...base, dispatcher: agent });
      const refusal = new UnsupportedContentTypeError('nope');
      let seen = 0;
      await expect(
        readBody(res, {
          maxBytes: 2 * 1024 * 1024,
          onHead: (head) => {
            seen = head.length;
            throw refusal;
          },
        }),
      ).rejects.toBe(refusal);
      expect(seen).toBeGreaterThanOrEqual(1024);
    });

    it('truncates at the cap when asked, counting decoded bytes', async () => {
      const res = await openUrl(`${server.url}/gzip-bomb`, { ...base, dispatcher: agent });
      const bytes = await readBody(res, { maxBytes: 64 * 1024, overflow: 'truncate' });
      expect(bytes.length).toBe(64 * 1024);
      const whole = await readBody(await openUrl(`${server.url}/gzip-bomb`, { ...base, dispatcher: agent }), {
        maxBytes: 2 * 1024 * 1024,
      });
      expect(whole.length).toBe(zeros.length);
    });

    it('refuses a declared Content-Length above maxBytes before reading', async () => {
      await expect(
        openUrl(`${server.url}/declared-big`, { ...base, dispatcher: agent, maxBytes: 1000 }),
      ).rejects.toBeInstanceOf(TargetTooLargeError);
    });

    it('gunzips by magic bytes only when asked', async () => {
      const plain = await openUrl(`${server.url}/gz-no-header`, { ...base, dispatcher: agent });
      expect((await readBody(plain, { maxBytes: 1000 }))[0]).toBe(0x1f);
      const magic = await openUrl(`${server.url}/gz-no-header`, {
        ...base,
        dispatcher: agent,
        gunzipByMagic: true,
      });
      expect((await readBody(magic, { maxBytes: 1000 })).toString()).toBe('inside');
    });
  });

  describe('typed errors', () => {
    it('TooManyRedirectsError past maxRedirects', async () => {
      await expect(
        openUrl(`${server.url}/loop`, { ...base, dispatcher: agent, maxRedirects: 3 }),
      ).rejects.toBeInstanceOf(TooManyRedirectsError);
    });

    it('TimeoutError for a silent server, within the budget', async () => {
      const err = await openUrl(`${server.url}/hang`, { timeoutMs: 300, dispatcher: agent }).catch((e) => e);
      // The request's own budget ended it: the error names it.
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as Error).message).toMatch(/timed out after 300 ms/);
    });

    it('TargetUnreachableError for a refused connection', async () => {
      const dead = await serve({});
      await dead.close();
      const err = await openUrl(`${dead.url}/`, { ...base, dispatcher: agent }).catch((e) => e);
      expect(err).toBeInstanceOf(TargetUnreachableError);
      expect((err as Error).message).toMatch(/ECONNREFUSED/);
    });

    it('DnsResolutionError for a name that does not resolve', async () => {
      jest
        .spyOn(dns.promises, 'lookup')
        .mockRejectedValue(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      await expect(
        openUrl('http://nowhere.test/', { ...base, dispatcher: agent, isForbidden: onlyLoopback1 }),
      ).rejects.toBeInstanceOf(DnsResolutionError);
    });

    it("a caller abort rejects with the caller's reason", async () => {
      const controller = new AbortController();
      const pending = openUrl(`${server.url}/hang`, {
        ...base,
        dispatcher: agent,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error('caller gave up')), 50);
      await expect(pending).rejects.toThrow('caller gave up');
    });
  });

  describe('request options', () => {
    it('POSTs a body with headers and cookies; manual mode returns a 3xx as it is', async () => {
      const manual = await openUrl(`${server.url}/post-redirect`, {
        ...base,
        dispatcher: agent,
        method: 'POST',
        body: '{}',
        redirect: 'manual',
      });
      expect(manual.statusCode).toBe(303);
      manual.close();

      const res = await openUrl(`${server.url}/echo`, {
        ...base,
        dispatcher: agent,
        method: 'POST',
        body: '{"a":1}',
        userAgent: 'test-agent/1',
        request: {
          headers: { 'content-type': 'application/json', Host: 'evil' },
          cookies: { a: '1', b: '2' },
        },
      });
      const echo = JSON.parse((await readBody(res, { maxBytes: 10_000 })).toString());
      expect(echo).toMatchObject({
        method: 'POST',
        body: '{"a":1}',
        headers: {
          'user-agent': 'test-agent/1',
          cookie: 'a=1; b=2',
          host: `127.0.0.1:${server.port}`,
          'accept-encoding': 'gzip, deflate, br',
        },
      });
    });

    it('a 303 turns a POST into a GET; credentials are dropped on a cross-origin hop', async () => {
      const res = await openUrl(`${server.url}/post-redirect`, {
        ...base,
        dispatcher: agent,
        method: 'POST',
        body: 'x',
      });
      expect(JSON.parse((await readBody(res, { maxBytes: 10_000 })).toString())).toMatchObject({
        method: 'GET',
        body: '',
      });
      const open = createGuardedAgent(2_000, undefined);
      afterCleanup.push(() => open.close());
      const cross = await openUrl(`${server.url}/cross-origin`, {
        ...base,
        dispatcher: open,
        request: { headers: { authorization: 'Bearer s' }, cookies: { sid: '1' } },
      });
      const echo = JSON.parse((await readBody(cross, { maxBytes: 10_000 })).toString());
      expect(echo.headers.authorization).toBeUndefined();
      expect(echo.headers.cookie).toBeUndefined();
    });

    it("sends the caller's headers to the target's origin only; ours to every hop", async () => {
      const open = createGuardedAgent(2_000, undefined);
      afterCleanup.push(() => open.close());
      const echoOf = async (path: string, scope?: 'origin' | 'all') => {
        const res = await openUrl(`${server.url}${path}`, {
          ...base,
          dispatcher: open,
          userAgent: 'ours/1',
          defaultHeaders: { 'Accept-Language': 'de-DE' },
          request: {
            headers: { 'X-Api-Key': 'k1', Authorization: 'Bearer s', 'accept-language': 'fr' },
            cookies: { sid: '1' },
            ...(scope ? { headersScope: scope } : {}),
          },
        });
        return JSON.parse((await readBody(res, { maxBytes: 10_000 })).toString()).headers as Record<
          string,
          string
        >;
      };
      const caller = {
        'x-api-key': 'k1',
        authorization: 'Bearer s',
        cookie: 'sid=1',
        'accept-language': 'fr',
      };
      expect(await echoOf('/same-origin')).toMatchObject(caller);

      const away = await echoOf('/cross-origin');
      expect(away.host).toBe(`localhost:${server.port}`);
      expect(away['x-api-key']).toBeUndefined();
      expect(away.authorization).toBeUndefined();
      expect(away.cookie).toBeUndefined();
      // The service's own headers stay: the Accept-Language of an option, the user agent.
      expect(away).toMatchObject({ 'accept-language': 'de-DE', 'user-agent': 'ours/1' });

      // Back on the target's origin after a hop elsewhere: they are the target's again.
      awayHeaders.length = 0;
      expect(await echoOf('/away-and-back')).toMatchObject(caller);
      expect(awayHeaders).toHaveLength(1);
      expect(awayHeaders[0]?.['x-api-key']).toBeUndefined();

      // headersScope 'all': every header everywhere, but credentials never leave the target's origin.
      const all = await echoOf('/cross-origin', 'all');
      expect(all).toMatchObject({ 'x-api-key': 'k1', 'accept-language': 'fr' });
      expect(all.authorization).toBeUndefined();
      expect(all.cookie).toBeUndefined();
    });

    it('sends a request with a proxy through it, never direct (a dead proxy fails, naming only host:port)', async () => {
      const hitsBefore = server.hits.length;
      const err = await openUrl(`${server.url}/ok`, {
        ...base,
        dispatcher: agent,
        isForbidden: onlyLoopback1,
        request: { proxy: 'http://user:s3cret@127.0.0.1:1' },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetUnreachableError);
      expect((err as Error).message).toBe('Could not connect to proxy 127.0.0.1:1 (ECONNREFUSED)');
      expect(JSON.stringify(err)).not.toContain('s3cret');
      expect(server.hits.length).toBe(hitsBefore);
    });
  });
});
