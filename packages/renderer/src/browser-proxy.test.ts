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
