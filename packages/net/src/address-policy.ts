/**
 * SSRF guard: which addresses we may connect to, checked (1) up front on every URL/redirect hop and
 * (2) again at connect time inside the undici connector, so a DNS answer that changes between the
 * check and the connect (DNS rebinding) cannot reach a private address.
 */
import dns from 'node:dns';
import net from 'node:net';
import { DnsResolutionError, InvalidUrlError, TargetForbiddenError } from '@wcs/errors';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import type { AddressCache } from './address-cache';

/** True for anything that is not a public unicast address (or is not an IP at all). */
export function isForbiddenAddress(ip: string): boolean {
  let host = ip.trim();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  host = host.split('%')[0] ?? ''; // drop an IPv6 zone id (fe80::1%eth0)
  if (!ipaddr.isValid(host)) return true;
  // process() turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into plain IPv4 so its range is judged.
  const addr = ipaddr.process(host);
  // Allow-list rather than deny-list: loopback, private, linkLocal, carrierGradeNat, unspecified,
  // multicast, broadcast, reserved, uniqueLocal, 6to4/teredo/NAT64 (embed IPv4), … are all refused.
  return addr.range() !== 'unicast';
}

/** Hostname without IPv6 brackets (URL.hostname keeps them). */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** Syntax-only checks: absolute http(s) URL without credentials. */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidUrlError(`Invalid URL: ${String(raw).slice(0, 200)}`);
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    throw new TargetForbiddenError(`URL scheme "${url.protocol}" is not allowed; only http and https`);
  }
  if (url.username || url.password) {
    throw new TargetForbiddenError('URLs with embedded credentials are not allowed');
  }
  if (!url.hostname) throw new InvalidUrlError('URL has no host');
  return url;
}

/** The refusal of a private or reserved address (`address` = what the name resolved to). */
export function forbiddenAddressError(host: string, address?: string): TargetForbiddenError {
  const via = address && address !== host ? ` (resolves to ${address})` : '';
  return new TargetForbiddenError(`Target host ${host}${via} is a private or reserved address`, {
    details: { host, ...(address ? { address } : {}) },
  });
}

export function dnsError(host: string, err: unknown): DnsResolutionError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
  return new DnsResolutionError(`Could not resolve host ${host} (${code})`, {
    cause: err,
    details: { host },
  });
}

/** Which resolved addresses are refused; isForbiddenAddress except in tests. */
export type AddressPolicy = (ip: string) => boolean;

/**
 * Scheme + credentials + DNS check. With allowPrivateTargets the DNS step is skipped (resolution
 * errors then surface at connect time). Reused by the webhook dispatcher.
 */
export function assertAllowedUrl(url: string, opts: { allowPrivateTargets: boolean }): Promise<URL> {
  return checkUrl(url, opts.allowPrivateTargets ? undefined : isForbiddenAddress);
}

/**
 * assertAllowedUrl with an explicit policy (undefined = allow every address). `cache` answers the
 * lookup from its recent answers (each address still judged here).
 */
export async function checkUrl(
  url: string,
  isForbidden: AddressPolicy | undefined,
  cache?: AddressCache,
): Promise<URL> {
  const parsed = parseTargetUrl(url);
  if (!isForbidden) return parsed;
  const host = bareHost(parsed.hostname);
  if (net.isIP(host)) {
    if (isForbidden(host)) throw forbiddenAddressError(host);
    return parsed;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await (cache
      ? cache.resolve(host)
      : dns.promises.lookup(host, { all: true, verbatim: true }));
  } catch (err) {
    throw dnsError(host, err);
  }
  if (addresses.length === 0)
    throw dnsError(host, Object.assign(new Error('no addresses'), { code: 'ENODATA' }));
  // Any forbidden answer refuses the host: the connect may pick any of them.
  const bad = addresses.find((a) => isForbidden(a.address));
  if (bad) throw forbiddenAddressError(host, bad.address);
  return parsed;
}

/**
 * net/tls `lookup` that refuses hostnames resolving to forbidden addresses (runs at connect time).
 * With `cache`, a name resolved in the last seconds is not asked for again (its addresses are
 * judged all the same).
 */
export function createSafeLookup(
  isForbidden: AddressPolicy = isForbiddenAddress,
  cache?: AddressCache,
): net.LookupFunction {
  const lookupAll = (
    hostname: string,
    options: dns.LookupOptions,
    done: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ): void => {
    if (!cache) {
      dns.lookup(hostname, { ...options, all: true }, done);
      return;
    }
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    cache.resolve(hostname).then(
      (all) => done(null, family ? all.filter((a) => a.family === family) : all),
      (err: NodeJS.ErrnoException) => done(err, []),
    );
  };
  return (hostname, options, callback) =>
    lookupAll(hostname, options, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => isForbidden(a.address));
      if (bad) return callback(forbiddenAddressError(hostname, bad.address), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
}

/**
 * undici connector with the safe lookup. IP literals never go through `lookup` in net.connect, so
 * they are checked here before connecting.
 */
export function createSafeConnector(
  connectTimeoutMs: number,
  isForbidden: AddressPolicy = isForbiddenAddress,
  cache?: AddressCache,
): buildConnector.connector {
  const base = buildConnector({ timeout: connectTimeoutMs, lookup: createSafeLookup(isForbidden, cache) });
  return (options, callback) => {
    const host = bareHost(options.hostname);
    if (net.isIP(host) && isForbidden(host)) {
      callback(forbiddenAddressError(host), null);
      return;
    }
    base(options, callback);
  };
}

/** A fetch-only undici dispatcher with the SSRF-safe lookup, for other outbound HTTP (webhooks, robots.txt). */
export function createSafeDispatcher(opts: {
  allowPrivateTargets: boolean;
  connectTimeoutMs: number;
}): Dispatcher {
  return createGuardedAgent(opts.connectTimeoutMs, opts.allowPrivateTargets ? undefined : isForbiddenAddress);
}

/**
 * undici Agent refusing addresses matched by `isForbidden` (undefined = no restriction); with
 * `cache`, its connect-time lookups share recent answers (address-cache.ts).
 */
export function createGuardedAgent(
  connectTimeoutMs: number,
  isForbidden: AddressPolicy | undefined,
  cache?: AddressCache,
): Agent {
  if (!isForbidden) return new Agent({ connect: { timeout: connectTimeoutMs } });
  return new Agent({ connect: createSafeConnector(connectTimeoutMs, isForbidden, cache) });
}
