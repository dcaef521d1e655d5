/**
 * A local forward proxy that every Chromium connection goes through when private targets are not
 * allowed. Playwright's page.route only sees the first request of a redirect chain, so redirect
 * hops, iframes and WebSockets would otherwise reach private hosts; here each connection is checked
 * at connect time with the same safe lookup as the fetch engine (which also defeats DNS rebinding).
 */
import http from 'node:http';
import net from 'node:net';
import { type AddressPolicy, bareHost, createSafeLookup } from '@wcs/net';
import type { RendererLogger } from './types';

/** Response header the proxy adds to its own error answers: the failure code (FORBIDDEN, ENOTFOUND, …). */
export const PROXY_ERROR_HEADER = 'x-wcs-proxy-error';

export interface ProxyFailure {
  host: string;
  code: string;
  at: number;
}

export interface GuardedProxy {
  /** e.g. http://127.0.0.1:34567 */
  server: string;
  /** The most recent failure since `since` (epoch ms), to explain a tunnel error Chromium reports. */
  lastFailureSince(since: number): ProxyFailure | undefined;
  close(): Promise<void>;
}

const HOP_BY_HOP = [
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
];

export async function startGuardedProxy(opts: {
  isForbidden: AddressPolicy;
  connectTimeoutMs: number;
  logger?: RendererLogger;
}): Promise<GuardedProxy> {
  const lookup = createSafeLookup(opts.isForbidden);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const sockets = new Set<net.Socket>();
  const failures: ProxyFailure[] = [];

  const failureCode = (err: unknown): string => {
    if ((err as { code?: unknown }).code === 'TARGET_FORBIDDEN') return 'FORBIDDEN';
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? code : 'EPROXY';
  };
  const record = (host: string, code: string) => {
    failures.push({ host, code, at: Date.now() });
    if (failures.length > 50) failures.shift();
    opts.logger?.debug({ host, code }, 'browser proxy refused or failed a connection');
  };
  /** IP literals skip `lookup` in net.connect, so they are checked here. */
  const literalForbidden = (host: string) => net.isIP(host) !== 0 && opts.isForbidden(host);

  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { [PROXY_ERROR_HEADER]: 'EBADURL' }).end();
      return;
    }
    const host = bareHost(target.hostname);
    const fail = (code: string, status: number) => {
      record(host, code);
      if (!res.headersSent)
        res.writeHead(status, { [PROXY_ERROR_HEADER]: code, 'content-type': 'text/plain' });
      res.end(`Refused by renderer proxy: ${code}`);
    };
    if (target.protocol !== 'http:') return fail('FORBIDDEN', 403);
    if (literalForbidden(host)) return fail('FORBIDDEN', 403);
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = http.request(
      {
        agent,
        hostname: host,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
        lookup,
        timeout: opts.connectTimeoutMs,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('timeout', () =>
      upstream.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    upstream.on('error', (err) => {
      const code = failureCode(err);
      fail(code, code === 'FORBIDDEN' ? 403 : 502);
    });
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });

  // HTTPS and WebSocket tunnels.
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [rawHost = '', rawPort = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    const host = bareHost(rawHost);
    const refuse = (code: string) => {
      record(host, code);
      client.end(
        `HTTP/1.1 ${code === 'FORBIDDEN' ? '403 Forbidden' : '502 Bad Gateway'}\r\n${PROXY_ERROR_HEADER}: ${code}\r\n\r\n`,
      );
    };
    if (literalForbidden(host)) return refuse('FORBIDDEN');
    const upstream = net.connect({ host, port: Number(rawPort), lookup, timeout: opts.connectTimeoutMs });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () =>
      upstream.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    upstream.on('error', (err) => {
      if (client.writable && !upstream.readableDidRead) refuse(failureCode(err));
      else client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    lastFailureSince: (since) => [...failures].reverse().find((f) => f.at >= since),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        agent.destroy();
      }),
  };
}
