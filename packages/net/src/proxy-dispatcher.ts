/**
 * undici dispatchers that send every connection through an upstream proxy (proxy-tunnel.ts). Each
 * new connection resolves and checks its target with the address policy first, then tunnels:
 * CONNECT for https targets and for http targets too (one path for every proxy kind, SOCKS has no
 * absolute form, and the policy applies per connection the same way; proxies that only allow
 * CONNECT to 443, like Squid's default SSL_ports rule, must allow 80 as well). TLS to the target
 * runs over the tunnel, so the proxy sees only host:port for https.
 */
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { type AddressPolicy, bareHost, isForbiddenAddress } from './address-policy';
import { openCheckedTunnel } from './proxy-tunnel';
import { type ProxyEndpoint, parseProxyUrl } from './proxy-url';

export interface ProxyDispatcherOptions {
  /** Budget of one connection: target check, proxy connect, handshake and TLS. */
  connectTimeoutMs: number;
  /** Addresses the target may not have (undefined = any). Never applied to the proxy itself. */
  isForbidden: AddressPolicy | undefined;
}

/** An undici Agent whose connections all go through `proxy` (a URL or a parsed endpoint). */
export function createProxyDispatcher(proxy: string | ProxyEndpoint, opts: ProxyDispatcherOptions): Agent {
  const endpoint = typeof proxy === 'string' ? parseProxyUrl(proxy) : proxy;
  const tlsOverTunnel = buildConnector({ timeout: opts.connectTimeoutMs });
  const connect: buildConnector.connector = (options, callback) => {
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    openCheckedTunnel({
      proxy: endpoint,
      host: bareHost(options.hostname),
      port,
      timeoutMs: opts.connectTimeoutMs,
      isForbidden: opts.isForbidden,
    }).then(
      (socket) => {
        if (!https) {
          callback(null, socket);
          return;
        }
        tlsOverTunnel({ ...options, httpSocket: socket }, (...args) => {
          if (args[0]) socket.destroy();
          callback(...args);
        });
      },
      (err: Error) => callback(err, null),
    );
  };
  return new Agent({ connect });
}

/**
 * One pooled dispatcher per proxy URL (keep-alive connections stay with their proxy), created on
 * first use, for an engine that rotates through several proxies.
 */
export class ProxyDispatchers {
  private readonly byUrl = new Map<string, Agent>();

  constructor(private readonly opts: ProxyDispatcherOptions) {}

  get(proxyUrl: string): Dispatcher {
    let agent = this.byUrl.get(proxyUrl);
    if (!agent) {
      agent = createProxyDispatcher(proxyUrl, this.opts);
      this.byUrl.set(proxyUrl, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    const agents = [...this.byUrl.values()];
    this.byUrl.clear();
    await Promise.all(agents.map((a) => a.destroy().catch(() => undefined)));
  }
}

/** Connect budget of a one-request proxy dispatcher (also bounded by the request's timeout). */
const ONE_SHOT_PROXY_CONNECT_MS = 10_000;

/**
 * The dispatcher a request goes out on: the caller's own without a proxy; with one, the pooled
 * dispatcher of that proxy, or a one-request dispatcher (`transient`, destroyed by the caller after
 * the request) that checks targets with the caller's policy or, when none is given,
 * isForbiddenAddress (the caller's own connect-time policy is not known here).
 */
export function dispatcherFor(
  proxyUrl: string | undefined,
  opts: {
    dispatcher: Dispatcher;
    proxies?: ProxyDispatchers | undefined;
    isForbidden?: AddressPolicy | undefined;
    timeoutMs: number;
  },
): { dispatcher: Dispatcher; transient?: Dispatcher } {
  if (!proxyUrl) return { dispatcher: opts.dispatcher };
  if (opts.proxies) return { dispatcher: opts.proxies.get(proxyUrl) };
  const transient = createProxyDispatcher(proxyUrl, {
    connectTimeoutMs: Math.min(opts.timeoutMs, ONE_SHOT_PROXY_CONNECT_MS),
    isForbidden: opts.isForbidden ?? isForbiddenAddress,
  });
  return { dispatcher: transient, transient };
}
