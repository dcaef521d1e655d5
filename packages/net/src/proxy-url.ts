/**
 * Upstream proxy URLs (`PROXY_URLS` entries): parsing, validation and the redacted form that is
 * the only form ever printed. A proxy URL may carry credentials; nothing here echoes them.
 */
import { InvalidUrlError } from '@wcs/errors';
import { bareHost } from './address-policy';

export type ProxyScheme = 'http' | 'https' | 'socks5' | 'socks5h';

const DEFAULT_PORTS: Record<ProxyScheme, number> = { http: 80, https: 443, socks5: 1080, socks5h: 1080 };

export interface ProxyEndpoint {
  scheme: ProxyScheme;
  /** Without IPv6 brackets. */
  host: string;
  port: number;
  /** Percent-decoded; undefined when the URL has none. */
  username?: string;
  password?: string;
  /** `host:port` (IPv6 in brackets): how errors and logs name the proxy. */
  label: string;
  /** The URL with its credentials replaced by `***`. */
  redacted: string;
}

function isScheme(s: string): s is ProxyScheme {
  return s in DEFAULT_PORTS;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Parse one proxy URL: scheme http|https|socks5|socks5h, a host, an optional port (the scheme's
 * default otherwise: 80, 443, 1080), optional credentials, nothing else. Errors never contain
 * the URL's credentials (only its redacted form).
 */
export function parseProxyUrl(raw: string): ProxyEndpoint {
  let url: URL;
  try {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) throw new Error('not scheme://');
    url = new URL(raw.trim());
  } catch {
    throw new InvalidUrlError(`Invalid proxy URL: ${redactProxyUrl(raw)}`);
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const redacted = redactProxyUrl(raw);
  if (!isScheme(scheme)) {
    throw new InvalidUrlError(
      `Proxy URL ${redacted} has scheme "${scheme.slice(0, 20)}"; use http, https, socks5 or socks5h`,
    );
  }
  if (!url.hostname) throw new InvalidUrlError(`Proxy URL ${redacted} has no host`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    throw new InvalidUrlError(`Proxy URL ${redacted} must not have a path, query or fragment`);
  }
  const host = bareHost(url.hostname);
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  const label = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    scheme,
    host,
    port,
    ...(url.username ? { username: decode(url.username) } : {}),
    ...(url.password || url.username ? { password: decode(url.password) } : {}),
    label,
    redacted,
  };
}

/**
 * The proxy URL with any credentials replaced by `***` (`http://***:***@proxy:3128`), safe to log.
 * A string that does not parse as a URL loses everything up to its last `@` instead.
 */
export function redactProxyUrl(raw: string): string {
  const text = String(raw).trim();
  try {
    // "user:pass@host" parses as scheme "user:": only scheme://… is read as a URL.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw new Error('not scheme://');
    const url = new URL(text);
    const hasCredentials = url.username !== '' || url.password !== '';
    url.username = '';
    url.password = '';
    const scheme = url.protocol;
    // URL.href of a non-special scheme (socks5:) keeps the host as written.
    const rest = url.href.slice(scheme.length + 2).replace(/\/$/, '');
    return `${scheme}//${hasCredentials ? '***:***@' : ''}${rest}`;
  } catch {
    const at = text.lastIndexOf('@');
    const tail = at >= 0 ? `***@${text.slice(at + 1)}` : text;
    return tail.slice(0, 200);
  }
}

/** Parse a comma-separated list (PROXY_URLS); empty entries are ignored. */
export function parseProxyList(raw: string | undefined): ProxyEndpoint[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(parseProxyUrl);
}
