import { checkUrl, isForbiddenAddress } from '@wcs/net';
import type { GatewaySettings } from '../deps';

/**
 * URLs the service fetches later, without the caller waiting (a monitor's page, a webhook
 * receiver, a crawl's start): checked against the workers' address policy now, so a private target
 * is refused at creation with the answer a scrape of it gets (400 TARGET_FORBIDDEN, or
 * DNS_RESOLUTION_FAILED) instead of a 201 and failures nobody sees. The lookup has no short
 * budget here (unlike a scrape's early check): a slow resolver must not turn a refusal into a 201
 * for a URL that is stored and fetched later. The workers still check every hop at connect time.
 */
export type FetchPolicy = Pick<GatewaySettings, 'allowPrivateTargets' | 'targetDnsTimeoutMs'>;

export async function assertFetchableLater(url: string, policy: FetchPolicy): Promise<void> {
  if (policy.allowPrivateTargets) return;
  await checkUrl(url, isForbiddenAddress);
}
