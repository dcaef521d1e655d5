/**
 * A TCP tunnel to host:port through an upstream proxy: HTTP CONNECT over http:// or https://
 * proxies, or SOCKS5 (the `socks` package) with optional username/password. Both engines use it:
 * the fetch engine's proxy dispatcher and the browser's guarded proxy.
 *
 * The address policy applies to the target, before the proxy hears of it: `openCheckedTunnel`
 * resolves the target and refuses a forbidden address first. The proxy's own address is never
 * checked (operators run proxies on their private network). Trade-off: for CONNECT and socks5h
 * the proxy resolves the name again, so a DNS answer that changes between our check and the
 * proxy's lookup (rebinding) is not seen by us — the proxy's network decides what that name
 * reaches. We keep the name because geo proxies must resolve it where they are (CDNs answer per
 * location). socks5:// (as in curl) resolves locally and sends the checked address, closing that gap.
 */
import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import {
  DnsResolutionError,
  TargetForbiddenError,
  TargetUnreachableError,
  TimeoutError,
  TlsError,
} from '@wcs/errors';
import { SocksClient } from 'socks';
import { type AddressPolicy, bareHost, createSafeLookup } from './address-policy';
import type { ProxyEndpoint } from './proxy-url';

export interface TunnelOptions {
  proxy: ProxyEndpoint;
  /** Target host name or IP address (IPv6 with or without brackets). */
  host: string;
  port: number;
  /** Budget of connecting to the proxy and its handshake together. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const MAX_CONNECT_RESPONSE_BYTES = 16 * 1024;

function proxyError(
  proxy: ProxyEndpoint,
  message: string,
  reason: string,
  extra: Record<string, unknown> = {},
): TargetUnreachableError {
  // No `cause`: a library error may carry the proxy's options (socks keeps its password there).
  return new TargetUnreachableError(message, { details: { proxy: proxy.label, reason, ...extra } });
}

function hostPort(host: string, port: number): string {
  const bare = bareHost(host);
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

/** A socket to the proxy itself (TLS for https:// proxies), connected. */
function connectToProxy(proxy: ProxyEndpoint, timeoutMs: number, signal?: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      proxy.scheme === 'https'
        ? tls.connect({
            host: proxy.host,
            port: proxy.port,
            ...(net.isIP(proxy.host) ? {} : { servername: proxy.host }),
            ALPNProtocols: ['http/1.1'],
          })
        : net.connect({ host: proxy.host, port: proxy.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new TimeoutError(`Could not connect to proxy ${proxy.label} within ${timeoutMs} ms`, {
          details: { proxy: proxy.label, reason: 'timeout' },
        }),
      );
    }, timeoutMs);
    const onAbort = () => {
      socket.destroy();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    socket.once(proxy.scheme === 'https' ? 'secureConnect' : 'connect', () => {
      done();
      resolve(socket);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      done();
      socket.destroy();
      const code = err.code ?? 'EPROXY';
      if (/^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code)) {
        reject(
          new TlsError(`TLS error with proxy ${proxy.label} (${code})`, {
            details: { proxy: proxy.label, errorCode: code },
          }),
        );
        return;
      }
      reject(
        proxyError(proxy, `Could not connect to proxy ${proxy.label} (${code})`, 'connect', {
          errorCode: code,
        }),
      );
    });
  });
}

/** Send CONNECT and read the proxy's answer; bytes after the header stay on the socket. */
function httpConnect(socket: net.Socket, o: TunnelOptions): Promise<void> {
  const target = hostPort(o.host, o.port);
  const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
  if (o.proxy.username !== undefined) {
    const token = Buffer.from(`${o.proxy.username}:${o.proxy.password ?? ''}`).toString('base64');
    lines.push(`Proxy-Authorization: Basic ${token}`);
  }
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    // Paused-mode reads ('readable' + read()): no data is emitted to nobody once we stop listening,
    // and the socket is left neither flowing nor paused for whoever reads the tunnel next.
    const cleanup = () => {
      socket.removeListener('readable', onReadable);
      socket.removeListener('close', onClose);
      socket.removeListener('error', onClose);
    };
    const onClose = () => {
      cleanup();
      reject(
        proxyError(
          o.proxy,
          `Proxy ${o.proxy.label} closed the connection before answering CONNECT`,
          'closed',
        ),
      );
    };
    const onReadable = () => {
      for (let chunk = socket.read() as Buffer | null; chunk; chunk = socket.read() as Buffer | null) {
        buf = Buffer.concat([buf, chunk]);
      }
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buf.length > MAX_CONNECT_RESPONSE_BYTES) {
          cleanup();
          reject(proxyError(o.proxy, `Proxy ${o.proxy.label} sent an oversized CONNECT answer`, 'protocol'));
        }
        return;
      }
      cleanup();
      const statusLine = buf.subarray(0, buf.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const rest = buf.subarray(end + 4);
      if (status >= 200 && status < 300) {
        if (rest.length > 0) socket.unshift(rest);
        resolve();
        return;
      }
      if (status === 407) {
        reject(
          proxyError(
            o.proxy,
            o.proxy.username === undefined
              ? `Proxy ${o.proxy.label} requires credentials (407 Proxy Authentication Required)`
              : `Proxy ${o.proxy.label} refused the credentials (407 Proxy Authentication Required)`,
            'auth',
            { proxyStatus: 407 },
          ),
        );
        return;
      }
      reject(
        proxyError(
          o.proxy,
          status
            ? `Proxy ${o.proxy.label} refused the tunnel to ${target} (HTTP ${status})`
            : `Proxy ${o.proxy.label} did not answer CONNECT with HTTP`,
          status ? 'refused' : 'protocol',
          status ? { proxyStatus: status } : {},
        ),
      );
    };
    socket.on('readable', onReadable);
    socket.once('close', onClose);
    socket.once('error', onClose);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

async function socksConnect(socket: net.Socket, o: TunnelOptions, timeoutMs: number): Promise<void> {
  const target = hostPort(o.host, o.port);
  try {
    await SocksClient.createConnection({
      command: 'connect',
      existing_socket: socket,
      timeout: Math.max(1, timeoutMs),
      destination: { host: bareHost(o.host), port: o.port },
      proxy: {
        host: o.proxy.host,
        port: o.proxy.port,
        type: 5,
        ...(o.proxy.username !== undefined
          ? { userId: o.proxy.username, password: o.proxy.password ?? '' }
          : {}),
      },
    });
  } catch (err) {
    // Only the library's fixed message is kept: its error object holds the options (password).
    const msg = err instanceof Error ? err.message.slice(0, 200) : 'unknown error';
    if (/Authentication failed|no accepted authentication type/i.test(msg)) {
      throw proxyError(o.proxy, `SOCKS proxy ${o.proxy.label} refused the credentials`, 'auth');
    }
    if (/timed out/i.test(msg)) {
      throw new TimeoutError(`SOCKS proxy ${o.proxy.label} did not open a tunnel to ${target} in time`, {
        details: { proxy: o.proxy.label, reason: 'timeout' },
      });
    }
    if (/rejected connection/i.test(msg)) {
      throw proxyError(
        o.proxy,
        `SOCKS proxy ${o.proxy.label} refused the connection to ${target} (${msg})`,
        'refused',
      );
    }
    throw proxyError(o.proxy, `SOCKS proxy ${o.proxy.label} failed: ${msg}`, 'protocol');
  }
}

/**
 * Open a tunnel through `proxy` to host:port; resolves with the socket carrying the target's
 * bytes. Errors are typed and name the proxy by host:port only: TargetUnreachableError (refused
 * connection, 407, SOCKS refusal; `details.reason`), TimeoutError, TlsError (https:// proxies).
 */
export async function openTunnel(o: TunnelOptions): Promise<net.Socket> {
  const deadline = Date.now() + o.timeoutMs;
  const socket = await connectToProxy(o.proxy, o.timeoutMs, o.signal);
  const left = () => Math.max(1, deadline - Date.now());
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    socket.destroy();
  }, left());
  const onAbort = () => socket.destroy();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (o.proxy.scheme === 'socks5' || o.proxy.scheme === 'socks5h') await socksConnect(socket, o, left());
    else await httpConnect(socket, o);
    return socket;
  } catch (err) {
    socket.destroy();
    // Our timer or the caller's abort closed the socket: say so, not "closed by the proxy".
    if (o.signal?.aborted) throw o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted');
    if (timedOut)
      throw new TimeoutError(`Proxy ${o.proxy.label} did not open a tunnel within ${o.timeoutMs} ms`, {
        details: { proxy: o.proxy.label, reason: 'timeout' },
      });
    throw err;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

function forbiddenTarget(host: string, address?: string): TargetForbiddenError {
  const via = address && address !== host ? ` (resolves to ${address})` : '';
  return new TargetForbiddenError(`Target host ${host}${via} is a private or reserved address`, {
    details: { host, ...(address ? { address } : {}) },
  });
}

/**
 * Resolve `host` and refuse it when any address is forbidden (`isForbidden` undefined = every
 * address allowed). Returns the address to connect to.
 */
export function resolveAllowedTarget(host: string, isForbidden: AddressPolicy | undefined): Promise<string> {
  const bare = bareHost(host);
  if (net.isIP(bare)) {
    if (isForbidden?.(bare)) return Promise.reject(forbiddenTarget(bare));
    return Promise.resolve(bare);
  }
  const lookup = isForbidden ? createSafeLookup(isForbidden) : dns.lookup;
  return new Promise((resolve, reject) => {
    lookup(bare, { all: false }, (err, address) => {
      if (err) {
        if (err instanceof TargetForbiddenError) reject(err);
        else
          reject(
            new DnsResolutionError(`Could not resolve host ${bare} (${err.code ?? 'UNKNOWN'})`, {
              details: { host: bare },
            }),
          );
        return;
      }
      resolve(String(address));
    });
  });
}

/**
 * The address policy, then the tunnel: the target is resolved and checked before the proxy is
 * contacted (a forbidden target never reaches it). socks5:// is sent the checked address;
 * CONNECT and socks5h:// are sent the name (see the file comment for why and the trade-off).
 */
export async function openCheckedTunnel(
  o: TunnelOptions & { isForbidden: AddressPolicy | undefined },
): Promise<net.Socket> {
  const deadline = Date.now() + o.timeoutMs;
  const localResolve = o.proxy.scheme === 'socks5';
  let host = bareHost(o.host);
  if (o.isForbidden || localResolve) {
    const address = await withDeadline(resolveAllowedTarget(host, o.isForbidden), o.timeoutMs, host);
    if (localResolve) host = address;
  }
  if (o.signal?.aborted) throw o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted');
  return openTunnel({ ...o, host, timeoutMs: Math.max(1, deadline - Date.now()) });
}

function withDeadline<T>(p: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new TimeoutError(`Resolving ${host} took longer than ${ms} ms`, {
              details: { host, reason: 'dns' },
            }),
          ),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
