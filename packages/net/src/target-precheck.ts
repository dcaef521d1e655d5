import dns from 'node:dns';
import net from 'node:net';
import {
  type AddressPolicy,
  bareHost,
  dnsError,
  forbiddenAddressError,
  parseTargetUrl,
} from './address-policy';

/** `dns.promises.lookup(host, { all: true, verbatim: true })`, replaceable so a test can stall it. */
export type LookupAll = (host: string) => Promise<dns.LookupAddress[]>;

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * `checked`: the URL passed everything this check does. `dns-timeout`: the name did not resolve
 * within the budget, so nothing was decided (the fetch's own check will).
 */
export type PrecheckOutcome = 'checked' | 'dns-timeout';

/**
 * An early check of a URL that a worker will fetch, for a caller that wants to refuse before it
 * does anything costly (the gateway, before it charges): scheme and credentials, then the host —
 * an IP literal judged by `isForbidden`, a name resolved within `timeoutMs` and every address
 * judged (undefined = any address; the name must still resolve). Throws what the fetch would
 * (InvalidUrlError, TargetForbiddenError, DnsResolutionError). It is not the guard: the fetch
 * checks every hop again at connect time, which is what stops DNS rebinding.
 */
export async function precheckTarget(
  url: string,
  opts: { isForbidden: AddressPolicy | undefined; timeoutMs: number; lookup?: LookupAll },
): Promise<PrecheckOutcome> {
  const parsed = parseTargetUrl(url);
  const host = bareHost(parsed.hostname);
  if (net.isIP(host)) {
    if (opts.isForbidden?.(host)) throw forbiddenAddressError(host);
    return 'checked';
  }
  const lookup = opts.lookup ?? systemLookup;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'dns-timeout'>((resolve) => {
    timer = setTimeout(() => resolve('dns-timeout'), opts.timeoutMs);
  });
  // getaddrinfo cannot be cancelled: a lookup past the budget finishes unobserved.
  const answer = lookup(host).then(
    (addresses) => ({ addresses }),
    (err: unknown) => ({ err }),
  );
  let outcome: Awaited<typeof answer> | 'dns-timeout';
  try {
    outcome = await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'dns-timeout') return outcome;
  if ('err' in outcome) throw dnsError(host, outcome.err);
  if (outcome.addresses.length === 0)
    throw dnsError(host, Object.assign(new Error('no addresses'), { code: 'ENODATA' }));
  // Any forbidden answer refuses the host: the connect may pick any of them.
  const bad = opts.isForbidden ? outcome.addresses.find((a) => opts.isForbidden?.(a.address)) : undefined;
  if (bad) throw forbiddenAddressError(host, bad.address);
  return 'checked';
}
