/**
 * URL identity for discovery (crawl frontier, map results, search hits) and the same-site rule.
 * Two things are kept apart (RFC 3986 §6):
 * - the URL that is fetched (`resolveUrl`): exactly as the caller sent it, or as a link or sitemap
 *   wrote it, resolved against its page — only the fragment (never sent to a server) and tracking
 *   parameters (which by definition never select content) are dropped;
 * - the key that de-duplicates (`urlKey`): also drops what cannot change which resource a server
 *   returns (case of scheme/host, default port, percent-escape case, order of query parameters)
 *   and tracking parameters. It never touches the path: `/docs/` and `/docs` are two resources
 *   (static hosts and object stores answer 404 for one of them).
 */

const MAX_URL_LENGTH = 8_192;

/** Query parameters that only identify a campaign or click, never content. */
const TRACKING_PARAMS = new Set(['gclid', 'fbclid', 'msclkid', 'dclid', 'yclid', 'mc_cid', 'mc_eid']);

function isTrackingParam(rawKey: string): boolean {
  let key: string;
  try {
    key = decodeURIComponent(rawKey.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    key = rawKey.toLowerCase();
  }
  return key.startsWith('utm_') || TRACKING_PARAMS.has(key);
}

/**
 * RFC 3986 6.2.2: uppercase percent-escapes and decode escaped unreserved characters (%7E -> ~).
 * %2E stays encoded: decoding it could turn a literal segment into a dot segment.
 */
const upperEscapes = (s: string): string =>
  s.replace(/%[0-9a-f]{2}/gi, (m) => {
    const ch = String.fromCharCode(Number.parseInt(m.slice(1), 16));
    return /^[A-Za-z0-9_~-]$/.test(ch) ? ch : m.toUpperCase();
  });

/**
 * Sort `a=1&b=2` segments by key without decoding and re-encoding them (URLSearchParams would turn
 * `?q` into `?q=` and `%20` into `+`). Duplicate keys keep their relative order (it can matter).
 */
function normalizeQuery(search: string): string {
  if (search.length <= 1) return '';
  const parts = search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return { key: upperEscapes(eq === -1 ? p : p.slice(0, eq)), raw: upperEscapes(p) };
    })
    .filter((p) => !isTrackingParam(p.key));
  // Array.prototype.sort is stable (ES2019), so equal keys keep their order.
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return parts.map((p) => p.raw).join('&');
}

function parseHttpUrl(raw: string, base?: string): URL | null {
  const input = raw.trim();
  if (!input || input.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url;
}

/** The query as written, without tracking parameters ("" when none is left). */
function withoutTracking(search: string): string {
  if (search.length <= 1) return '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((p) => p !== '' && !isTrackingParam(p.split('=', 1)[0] ?? ''));
  return kept.length ? `?${kept.join('&')}` : '';
}

function hrefOf(url: URL): string | null {
  if (url.hash !== '') url.hash = '';
  if (url.search.length > 1 && /utm_|clid|clkid|mc_[ce]id/i.test(url.search)) {
    url.search = withoutTracking(url.search);
  }
  const out = url.href;
  return out.length > MAX_URL_LENGTH ? null : out;
}

function keyOf(url: URL): string | null {
  let host = url.host;
  if (url.hostname.endsWith('.')) host = host.replace(/\.(?=:|$)/, '');
  const query = normalizeQuery(url.search);
  const out = `${url.protocol}//${host}${upperEscapes(url.pathname)}${query ? `?${query}` : ''}`;
  return out.length > MAX_URL_LENGTH ? null : out;
}

/**
 * The URL to fetch: `raw` resolved against `base`, WHATWG-serialised (which already lowercases
 * scheme and host and drops the scheme's default port), without its fragment and tracking
 * parameters. Path, trailing slash and the rest of the query stay as written. null for non-http(s),
 * unparsable or overlong URLs and URLs with credentials.
 */
export function resolveUrl(raw: string, base?: string): string | null {
  const url = parseHttpUrl(raw, base);
  return url && hrefOf(url);
}

/**
 * The de-duplication key of a URL: lowercase scheme+host, no fragment, no default port, no
 * trailing dot on the host, uppercase percent-escapes, query parameters sorted, empty "?" dropped,
 * tracking parameters (utm_*, gclid, fbclid, …) removed. The path keeps its trailing slash.
 * null exactly when `resolveUrl` is null.
 */
export function urlKey(raw: string, base?: string): string | null {
  const url = parseHttpUrl(raw, base);
  return url && keyOf(url);
}

/** A discovered URL: what to fetch and what de-duplicates it. */
export interface UrlIdentity {
  url: string;
  key: string;
}

/** `resolveUrl` and `urlKey` of one URL from a single parse. */
export function identifyUrl(raw: string, base?: string): UrlIdentity | null {
  const parsed = parseHttpUrl(raw, base);
  if (!parsed) return null;
  const key = keyOf(parsed);
  const url = hrefOf(parsed);
  return url !== null && key !== null ? { url, key } : null;
}

/**
 * Depth of `url` below `startUrl` by path: the number of path segments beyond the start URL's
 * (`/docs/` is 1 segment, `/docs/a/b` 3, so 2 below it). Used for URLs that were not reached by
 * following links (sitemaps), the meaning peers document for `maxDepth`. Never below 1 for a
 * URL other than the start URL itself, so a `maxDepth: 0` crawl is the start page alone.
 */
export function pathDepth(url: string, startUrl: string): number {
  const segments = (u: string) => new URL(u).pathname.split('/').filter((s) => s !== '').length;
  return Math.max(1, segments(url) - segments(startUrl));
}

function siteHost(hostname: string): string {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  // "www." is the same site as the bare domain (but "www.com" is not "com").
  return h.startsWith('www.') && h.indexOf('.', 4) !== -1 ? h.slice(4) : h;
}

const isIpLiteral = (h: string): boolean => h.startsWith('[') || /^\d+(\.\d+){3}$/.test(h);

function effectivePort(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/**
 * Same-site check: same host (ignoring a leading "www."), or a subdomain of the start host when
 * `allowSubdomains`. Ports must match unless both URLs use their scheme's default port (so
 * http://a.com and https://a.com are one site, 127.0.0.1:3000 and 127.0.0.1:4000 are two).
 */
export function isSameSite(url: string, startUrl: string, allowSubdomains: boolean): boolean {
  let a: URL;
  try {
    a = new URL(url);
  } catch {
    return false;
  }
  return sameSiteAs(startUrl, allowSubdomains)(a);
}

/**
 * `isSameSite` against one start URL, parsed once: a crawl judges ~100 links a page against the
 * same start, and parsing the start again for each was a third of the link filter's time.
 */
export function sameSiteAs(startUrl: string, allowSubdomains: boolean): (url: URL) => boolean {
  let b: URL;
  try {
    b = new URL(startUrl);
  } catch {
    return () => false;
  }
  const pb = effectivePort(b);
  const startDefault = pb === '80' || pb === '443';
  const hb = siteHost(b.hostname);
  return (a) => {
    if (a.protocol !== 'http:' && a.protocol !== 'https:') return false;
    const pa = effectivePort(a);
    if (pa !== pb && !((pa === '80' || pa === '443') && startDefault)) return false;
    const ha = siteHost(a.hostname);
    if (ha === hb) return true;
    if (!allowSubdomains || isIpLiteral(hb) || isIpLiteral(ha)) return false;
    return ha.endsWith(`.${hb}`);
  };
}
