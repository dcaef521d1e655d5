/**
 * Local forward proxies for tests, recording everything that passes through them: an HTTP proxy
 * (CONNECT tunnels and absolute-form requests, optional Basic proxy auth) and a SOCKS5 proxy
 * (CONNECT, optional username/password). Targets are reached without any address policy: these
 * stand in for an operator's proxy, and only ever run on 127.0.0.1.
 */
import http from 'node:http';
import net from 'node:net';
import { type ListeningServer, listenLocal } from './local-server';

export interface ProxyRecord {
  /** 'connect' (HTTP CONNECT), 'http' (absolute-form request) or 'socks5'. */
  kind: 'connect' | 'http' | 'socks5';
  /** host:port asked for (IPv6 in brackets), as the client sent it. */
  target: string;
  /** CONNECT, GET, … ('CONNECT' for SOCKS5 too). */
  method: string;
  /** Absolute-form only: the request URL. */
  url?: string;
  /** Credentials were sent (Proxy-Authorization / SOCKS5 user-pass). */
  authPresented: boolean;
  /** They matched (always true when the proxy needs none). */
  authorized: boolean;
}

export interface ForwardProxy extends ListeningServer {
  /** The proxy URL with its credentials when it has some (http://user:pass@127.0.0.1:port). */
  proxyUrl: string;
  records: ProxyRecord[];
}

export interface ProxyAuth {
  username: string;
  password: string;
}

function withCredentials(scheme: string, port: number, auth?: ProxyAuth): string {
  const cred = auth ? `${encodeURIComponent(auth.username)}:${encodeURIComponent(auth.password)}@` : '';
  return `${scheme}://${cred}127.0.0.1:${port}`;
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(target);
  return { host: m?.[1] ?? target, port: m?.[2] ? Number(m[2]) : defaultPort };
}

export interface ForwardProxyOptions {
  auth?: ProxyAuth;
  /**
   * The local address the proxy connects to targets from (e.g. 127.0.0.2, any of 127/8 on Linux):
   * a fixture site tells requests through the proxy from direct ones by it.
   */
  egressAddress?: string;
}

/** An HTTP forward proxy: CONNECT and absolute-form requests, Basic proxy auth when `auth` is set. */
export async function startForwardProxy(opts: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const egress = opts.egressAddress ? { localAddress: opts.egressAddress } : {};
  const records: ProxyRecord[] = [];
  const expected = opts.auth
    ? `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`
    : undefined;
  const check = (req: http.IncomingMessage) => {
    const header = req.headers['proxy-authorization'];
    return { authPresented: header !== undefined, authorized: expected === undefined || header === expected };
  };
  const CHALLENGE =
    'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n';

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form only');
      return;
    }
    const auth = check(req);
    records.push({ kind: 'http', target: url.host, method: req.method ?? 'GET', url: url.href, ...auth });
    if (!auth.authorized) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        ...egress,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    const auth = check(req);
    records.push({ kind: 'connect', target, method: 'CONNECT', ...auth });
    client.on('error', () => undefined);
    if (!auth.authorized) {
      client.end(CHALLENGE);
      return;
    }
    const { host, port } = splitHostPort(target, 443);
    const upstream = net.connect({ host, port, ...egress });
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (!upstream.readableDidRead && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  });
  const listening = await listenLocal(server);
  return { ...listening, proxyUrl: withCredentials('http', listening.port, opts.auth), records };
}

const SOCKS_VERSION = 5;

/** A SOCKS5 proxy (CONNECT only); username/password auth (RFC 1929) when `auth` is set. */
export async function startSocks5Proxy(
  opts: { auth?: ProxyAuth; scheme?: 'socks5' | 'socks5h' } = {},
): Promise<ForwardProxy> {
  const records: ProxyRecord[] = [];
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'done' = 'greeting';
    let authPresented = false;
    let authorized = opts.auth === undefined;
    const fail = (reply: Buffer) => {
      stage = 'done';
      client.end(reply);
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buf.length < 2 || buf.length < 2 + (buf[1] ?? 0)) return;
          if (buf[0] !== SOCKS_VERSION) return fail(Buffer.from([SOCKS_VERSION, 0xff]));
          const methods = [...buf.subarray(2, 2 + (buf[1] ?? 0))];
          buf = buf.subarray(2 + (buf[1] ?? 0));
          const wanted = opts.auth ? 0x02 : 0x00;
          if (!methods.includes(wanted)) return fail(Buffer.from([SOCKS_VERSION, 0xff]));
          client.write(Buffer.from([SOCKS_VERSION, wanted]));
          stage = opts.auth ? 'auth' : 'request';
        } else if (stage === 'auth') {
          const ulen = buf[1];
          if (ulen === undefined || buf.length < 3 + ulen) return;
          const plen = buf[2 + ulen];
          if (plen === undefined || buf.length < 3 + ulen + plen) return;
          const username = buf.subarray(2, 2 + ulen).toString('utf8');
          const password = buf.subarray(3 + ulen, 3 + ulen + plen).toString('utf8');
          buf = buf.subarray(3 + ulen + plen);
          authPresented = true;
          authorized = username === opts.auth?.username && password === opts.auth?.password;
          if (!authorized) {
            records.push({ kind: 'socks5', target: '', method: 'AUTH', authPresented, authorized });
            return fail(Buffer.from([0x01, 0x01]));
          }
          client.write(Buffer.from([0x01, 0x00]));
          stage = 'request';
        } else if (stage === 'request') {
          if (buf.length < 5) return;
          const atyp = buf[3];
          let host: string;
          let at: number;
          if (atyp === 0x01) {
            if (buf.length < 10) return;
            host = [...buf.subarray(4, 8)].join('.');
            at = 8;
          } else if (atyp === 0x03) {
            const len = buf[4] ?? 0;
            if (buf.length < 5 + len + 2) return;
            host = buf.subarray(5, 5 + len).toString('utf8');
            at = 5 + len;
          } else if (atyp === 0x04) {
            if (buf.length < 22) return;
            const parts: string[] = [];
            for (let i = 0; i < 16; i += 2) parts.push(buf.readUInt16BE(4 + i).toString(16));
            host = parts.join(':');
            at = 20;
          } else return fail(Buffer.from([SOCKS_VERSION, 0x08, 0, 1, 0, 0, 0, 0, 0, 0]));
          const port = buf.readUInt16BE(at);
          const rest = buf.subarray(at + 2);
          stage = 'done';
          client.removeListener('data', onData);
          client.pause();
          const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
          records.push({ kind: 'socks5', target, method: 'CONNECT', authPresented, authorized });
          if (buf[1] !== 0x01) return fail(Buffer.from([SOCKS_VERSION, 0x07, 0, 1, 0, 0, 0, 0, 0, 0]));
          const upstream = net.connect({ host, port });
          upstream.once('connect', () => {
            client.write(Buffer.from([SOCKS_VERSION, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]));
            if (rest.length) upstream.write(rest);
            upstream.pipe(client);
            client.pipe(upstream);
          });
          upstream.on('error', () => {
            if (!upstream.readableDidRead && client.writable)
              client.end(Buffer.from([SOCKS_VERSION, 0x05, 0, 1, 0, 0, 0, 0, 0, 0]));
            else client.destroy();
          });
          client.on('close', () => upstream.destroy());
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
  const listening = await listenLocal(server as unknown as http.Server);
  return {
    ...listening,
    proxyUrl: withCredentials(opts.scheme ?? 'socks5', listening.port, opts.auth),
    records,
  };
}
