import http from 'node:http';
import net from 'node:net';
import { type GuardedProxy, SlotUpstreams, startGuardedProxy } from './browser-proxy';

// Without an error listener on a CONNECT socket, the reset is an uncaught 'read ECONNRESET' and
// jest fails the whole suite ("Test suite failed to run"), as renderer-documents did when Chromium
// reset a refused tunnel while closing.
let proxy: GuardedProxy;
let port: number;
const upstreams = new SlotUpstreams();
const slot = upstreams.register();
const credentials = Buffer.from(`${slot.username}:${slot.password}`).toString('base64');

beforeAll(async () => {
  proxy = await startGuardedProxy({
    isForbidden: (ip) => ip === '10.0.0.1',
    connectTimeoutMs: 1_000,
    upstreams,
  });
  port = Number(new URL(proxy.server).port);
});
afterAll(() => proxy.close());

/** Send a CONNECT, read the proxy's status line, then reset the connection (RST, as Chromium does). */
async function connectThenReset(target: string, auth: boolean): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const authorization = auth ? `Proxy-Authorization: Basic ${credentials}\r\n` : '';
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${authorization}\r\n`);
  const line = await new Promise<string>((resolve) =>
    socket.once('data', (d: Buffer) => resolve(d.toString('latin1').split('\r\n')[0] ?? '')),
  );
  const closed = new Promise((r) => socket.once('close', r));
  socket.resetAndDestroy();
  await closed;
  return line;
}

/** Resolves once the proxy answers a fresh connection: by then it has read the reset above. */
async function proxyAnswers(): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  socket.write('GET http://example.test/ HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n');
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? '';
}

describe('guarded proxy: a client that resets after a refusal', () => {
  it.each([
    ['without credentials (407)', 'example.test:443', false, /^HTTP\/1\.1 407 /],
    ['to a forbidden address (403)', '10.0.0.1:443', true, /^HTTP\/1\.1 403 /],
  ])('CONNECT %s: the proxy survives the reset', async (_name, target, auth, status) => {
    expect(await connectThenReset(target, auth)).toMatch(status);
    expect(await proxyAnswers()).toMatch(/^HTTP\/1\.1 407 /);
  });
});

describe('guarded proxy: a slow answer', () => {
  it('a page slower than the connect timeout to answer still comes through (the timeout bounds the connect)', async () => {
    const slow = http.createServer((_req, res) => {
      setTimeout(() => res.end('late answer'), 2_500);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/slow`;
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: target,
            headers: { 'proxy-authorization': `Basic ${credentials}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer).toBe('200 late answer');
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});

/** One request through the proxy: its status and body. */
function viaProxy(target: string, method = 'GET', body?: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: {
          'proxy-authorization': `Basic ${credentials}`,
          ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('guarded proxy: a kept-alive connection the site closed as it was reused', () => {
  // The site answers the first request of a connection and resets the connection on the next,
  // before any answer: what a keep-alive timeout firing just as the proxy reuses the socket does.
  let site: http.Server;
  let base: string;
  const connections: net.Socket[] = [];
  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const served = (req.socket as net.Socket & { served?: number }).served ?? 0;
      (req.socket as net.Socket & { served?: number }).served = served + 1;
      if (served > 0) {
        req.socket.resetAndDestroy();
        return;
      }
      res.end(`fresh ${req.method}`);
    });
    site.on('connection', (s) => connections.push(s));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
  });

  it('a GET goes again on a new connection and gets its answer', async () => {
    const before = connections.length;
    expect(await viaProxy(`${base}/a`)).toBe('200 fresh GET');
    expect(await viaProxy(`${base}/b`)).toBe('200 fresh GET');
    // The second request reused the first connection (reset), then went on a new one.
    expect(connections.length - before).toBe(2);
  });

  it('a POST with a body is not sent twice: the reset is a 502 naming it', async () => {
    expect(await viaProxy(`${base}/c`)).toBe('200 fresh GET');
    const answer = await viaProxy(`${base}/d`, 'POST', 'form=1');
    expect(answer).toMatch(/^502 Refused by renderer proxy: ECONNRESET/);
  });
});
