/**
 * URL normalisation for de-duplication (crawl frontier, map results) and the same-site rule.
 * Conservative on purpose: only rewrites that cannot change which resource a server returns
 * (case of scheme/host, default port, fragment, percent-escape case, order of query parameters),
 * plus two documented choices: no trailing slash (except the root) and no tracking parameters.
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

/**
 * Normalise for de-duplication: lowercase scheme+host, drop fragment, drop default port, remove
 * trailing slash except root ("/a/" -> "/a"), sort query params, drop empty "?"; strip common
 * tracking params (utm_*, gclid, fbclid, …). Returns null for non-http(s), unparsable, overlong
 * URLs and URLs with credentials.
 */
export function normalizeUrl(raw: string, base?: string): string | null {
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
  // WHATWG URL already lowercases scheme and host and drops the scheme's default port.
  let host = url.host;
  if (url.hostname.endsWith('.')) host = host.replace(/\.(?=:|$)/, '');
  let path = upperEscapes(url.pathname).replace(/\/+$/, '');
  if (path === '') path = '/';
  const query = normalizeQuery(url.search);
  const out = `${url.protocol}//${host}${path}${query ? `?${query}` : ''}`;
  return out.length > MAX_URL_LENGTH ? null : out;
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
  let b: URL;
  try {
    a = new URL(url);
    b = new URL(startUrl);
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' && a.protocol !== 'https:') return false;
  const pa = effectivePort(a);
  const pb = effectivePort(b);
  const bothDefault = (pa === '80' || pa === '443') && (pb === '80' || pb === '443');
  if (pa !== pb && !bothDefault) return false;
  const ha = siteHost(a.hostname);
  const hb = siteHost(b.hostname);
  if (ha === hb) return true;
  if (!allowSubdomains || isIpLiteral(hb) || isIpLiteral(ha)) return false;
  return ha.endsWith(`.${hb}`);
}
