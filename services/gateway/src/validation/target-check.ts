import { isForbiddenAddress, precheckTarget } from '@wcs/net';
import type { GatewayDeps } from '../deps';

/**
 * The target of a charged request (scrape, map, extract), checked before anything is reserved: a
 * host that does not resolve, or (without ALLOW_PRIVATE_TARGETS) resolves to a private address,
 * is the worker's own 400 (DNS_RESOLUTION_FAILED, TARGET_FORBIDDEN) without a charge and a refund
 * in the ledger. A lookup slower than TARGET_DNS_TIMEOUT_MS decides nothing: the request goes on
 * and the worker, which checks every hop again at connect time, decides.
 */
export async function checkTargetBeforeCharge(
  deps: Pick<GatewayDeps, 'settings' | 'logger' | 'targetAddresses'>,
  url: string,
): Promise<void> {
  const cache = deps.targetAddresses;
  const outcome = await precheckTarget(url, {
    isForbidden: deps.settings.allowPrivateTargets ? undefined : isForbiddenAddress,
    timeoutMs: deps.settings.targetDnsTimeoutMs,
    ...(cache ? { lookup: (host: string) => cache.resolve(host) } : {}),
  });
  if (outcome === 'dns-timeout') {
    deps.logger.debug({ host: new URL(url).hostname }, 'target DNS lookup timed out; left to the worker');
  }
}
