/**
 * A local forward proxy that every Chromium connection goes through when private targets are not
 * allowed. Playwright's page.route only sees the first request of a redirect chain, so redirect
 * hops, iframes and WebSockets would otherwise reach private hosts; here each connection is checked
 * at connect time with the same safe lookup as the fetch engine (which also defeats DNS rebinding).
 *
 * Upstream proxies: each pooled slot's browser context authenticates to this proxy as its own
 * user (SlotUpstreams hands out the credentials; Chromium answers our 407 challenge with them), so
 * every connection is known to belong to one slot, and goes to the upstream chosen for that slot's
 * current render (`useUpstream`) after the target has passed the address policy here.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { ServiceError, ServiceUnavailableError, TargetForbiddenError, TimeoutError } from '@wcs/errors';
import {
  type AddressPolicy,
  bareHost,
  createSafeLookup,
  openCheckedTunnel,
  type ProxyEndpoint,
  parseProxyUrl,
} from '@wcs/net';
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

interface SlotRoute {
  password: Buffer;
  upstream: ProxyEndpoint | undefined;
  /** Client connections that carried this slot's credentials (closed when its upstream changes). */
  sockets: Set<net.Socket>;
}

/**
 * Which upstream each browser slot uses, keyed by the proxy username its context sends. One
 * process-wide instance (`sharedSlotUpstreams`) serves every pool and guarded proxy by default;
 * usernames are random, so pools never see each other's slots.
 */
export class SlotUpstreams {
  private readonly slots = new Map<string, SlotRoute>();

  /** Fresh credentials for one browser context (direct until `use`). */
  register(): { username: string; password: string } {
    const username = `slot-${randomUUID()}`;
    const password = randomBytes(18).toString('base64url');
    this.slots.set(username, { password: Buffer.from(password), upstream: undefined, sockets: new Set() });
    return { username, password };
  }

  /**
   * Send the slot's connections to `proxyUrl` (undefined = direct). When that changes, the slot's
   * open connections are closed, so a kept-alive tunnel cannot carry the next render elsewhere.
   */
  use(username: string, proxyUrl: string | undefined): void {
    const route = this.slots.get(username);
    if (!route) throw new ServiceUnavailableError('Browser slot is no longer registered with the proxy');
    const next = proxyUrl ? parseProxyUrl(proxyUrl) : undefined;
    const same =
      next?.scheme === route.upstream?.scheme &&
      next?.host === route.upstream?.host &&
      next?.port === route.upstream?.port &&
      next?.username === route.upstream?.username &&
      next?.password === route.upstream?.password;
    route.upstream = next;
    if (same) return;
    for (const s of route.sockets) s.destroy();
    route.sockets.clear();
  }

  forget(username: string): void {
    const route = this.slots.get(username);
    if (!route) return;
    for (const s of route.sockets) s.destroy();
    this.slots.delete(username);
  }

  /** The slot a Proxy-Authorization header names, when its password matches. */
  identify(header: string | undefined): { username: string; route: SlotRoute } | undefined {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m?.[1]) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const username = decoded.slice(0, colon);
    const route = this.slots.get(username);
    const given = Buffer.from(decoded.slice(colon + 1));
    if (!route || given.length !== route.password.length || !timingSafeEqual(given, route.password))
      return undefined;
    return { username, route };
  }

  attach(route: SlotRoute, socket: net.Socket): void {
    if (route.sockets.has(socket)) return;
    route.sockets.add(socket);
    socket.once('close', () => route.sockets.delete(socket));
  }
}

export const sharedSlotUpstreams = new SlotUpstreams();

const CHALLENGE_HEADERS = { 'proxy-authenticate': 'Basic realm="wcs-renderer"', connection: 'close' };

/** The failure code recorded (and sent in PROXY_ERROR_HEADER) for an upstream tunnel error. */
function upstreamFailureCode(err: unknown): string {
  if (err instanceof TargetForbiddenError) return 'FORBIDDEN';
  if (err instanceof TimeoutError) return 'ETIMEDOUT';
  if (err instanceof ServiceError) {
    if (err.code === 'DNS_RESOLUTION_FAILED') return 'ENOTFOUND';
    const reason = err.details?.reason;
    if (reason === 'auth') return 'PROXY_AUTH_FAILED';
    if (reason === 'refused') return 'PROXY_REFUSED';
    return 'PROXY_FAILED';
  }
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'PROXY_FAILED';
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

/** Methods a proxy may send again when a reused connection reset before any answer (RFC 9110 §9.2.2). */
const REPLAYABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

const hasBody = (req: http.IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

export async function startGuardedProxy(opts: {
  isForbidden: AddressPolicy;
  connectTimeoutMs: number;
  logger?: RendererLogger;
  /** Slot credentials and upstreams (default sharedSlotUpstreams, as BrowserPool's default). */
  upstreams?: SlotUpstreams;
}): Promise<GuardedProxy> {
  const upstreams = opts.upstreams ?? sharedSlotUpstreams;
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

  /** The upstream of an authenticated slot; undefined after answering 407 (unknown or missing credentials). */
  const slotOf = (header: string | undefined, socket: net.Socket) => {
    const slot = upstreams.identify(header);
    if (slot) upstreams.attach(slot.route, socket);
    return slot;
  };

  const server = http.createServer((req, res) => {
    const slot = slotOf(req.headers['proxy-authorization'], req.socket);
    if (!slot) {
      req.resume();
      res.writeHead(407, CHALLENGE_HEADERS).end();
      return;
    }
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
    const port = Number(target.port || 80);
    const onResponse = (up: http.IncomingMessage) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    };
    const via = slot.route.upstream;
    if (via) {
      // Through the slot's upstream: a tunnel to host:port (policy checked first), one per request.
      req.pause();
      openCheckedTunnel({
        proxy: via,
        host,
        port,
        timeoutMs: opts.connectTimeoutMs,
        isForbidden: opts.isForbidden,
      })
        .then((tunnel) => {
          if (res.destroyed) {
            tunnel.destroy();
            return;
          }
          const upstream = http.request(
            {
              createConnection: () => tunnel,
              host,
              port,
              path: `${target.pathname}${target.search}`,
              method: req.method,
              headers,
            },
            onResponse,
          );
          upstream.on('error', () => fail('PROXY_FAILED', 502));
          req.pipe(upstream);
          req.resume();
          res.on('close', () => upstream.destroy());
        })
        .catch((err: unknown) => {
          const code = upstreamFailureCode(err);
          fail(code, code === 'FORBIDDEN' ? 403 : 502);
        });
      return;
    }
    // A bodiless idempotent request may go again once: a pooled keep-alive socket that the site
    // closed just as it was reused resets before any answer (Node's documented race; the fix its
    // docs give is this retry), and the page would fail with ECONNRESET for nothing.
    const replayable = REPLAYABLE.has(req.method ?? '') && !hasBody(req);
    const send = (replay: boolean) => {
      const upstream = http.request(
        {
          agent,
          hostname: host,
          port,
          path: `${target.pathname}${target.search}`,
          method: req.method,
          headers,
          lookup,
          timeout: opts.connectTimeoutMs,
        },
        onResponse,
      );
      // `timeout` bounds the connect only: left on, it is an idle timeout that cut a page slower than
      // it to answer (or a held request) with a 502; the render's budget bounds the rest.
      upstream.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => upstream.setTimeout(0));
        else upstream.setTimeout(0);
      });
      upstream.on('timeout', () =>
        upstream.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      );
      upstream.on('error', (err) => {
        const code = failureCode(err);
        const stale = code === 'ECONNRESET' || code === 'EPIPE';
        if (!replay && replayable && stale && upstream.reusedSocket && !res.headersSent && !res.destroyed)
          return send(true);
        fail(code, code === 'FORBIDDEN' ? 403 : 502);
      });
      if (replay) upstream.end();
      else req.pipe(upstream);
      res.on('close', () => upstream.destroy());
    };
    send(false);
  });

  // HTTPS and WebSocket tunnels.
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    // The server drops its own error handler before 'connect': without one, a client that resets
    // after a refusal (Chromium closing, or retrying a 407 on a new connection) is an uncaught
    // 'read ECONNRESET' that takes down the process.
    client.on('error', () => client.destroy());
    const [rawHost = '', rawPort = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    const host = bareHost(rawHost);
    const refuse = (code: string) => {
      record(host, code);
      client.end(
        `HTTP/1.1 ${code === 'FORBIDDEN' ? '403 Forbidden' : '502 Bad Gateway'}\r\n${PROXY_ERROR_HEADER}: ${code}\r\n\r\n`,
      );
    };
    const slot = slotOf(req.headers['proxy-authorization'], client);
    if (!slot) {
      client.end(
        `HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${CHALLENGE_HEADERS['proxy-authenticate']}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    if (literalForbidden(host)) return refuse('FORBIDDEN');
    const via = slot.route.upstream;
    if (via) {
      openCheckedTunnel({
        proxy: via,
        host,
        port: Number(rawPort),
        timeoutMs: opts.connectTimeoutMs,
        isForbidden: opts.isForbidden,
      }).then(
        (tunnel) => {
          if (client.destroyed) {
            tunnel.destroy();
            return;
          }
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) tunnel.write(head);
          tunnel.on('error', () => client.destroy());
          tunnel.pipe(client);
          client.pipe(tunnel);
          client.on('close', () => tunnel.destroy());
        },
        (err: unknown) => {
          if (client.writable) refuse(upstreamFailureCode(err));
        },
      );
      return;
    }
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
