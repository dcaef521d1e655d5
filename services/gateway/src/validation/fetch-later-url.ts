import { checkUrl, isForbiddenAddress } from '@wcs/net';

/**
 * URLs the service fetches later, without the caller waiting (a monitor's page, a webhook
 * receiver): checked against the workers' address policy now, so a private target is refused at
 * creation with the answer a scrape of it gets (400 TARGET_FORBIDDEN, or DNS_RESOLUTION_FAILED)
 * instead of a 201 and failures nobody sees. The workers still check every hop at connect time.
 */
export async function assertFetchableLater(
  url: string,
  opts: { allowPrivateTargets: boolean },
): Promise<void> {
  if (opts.allowPrivateTargets) return;
  await checkUrl(url, isForbiddenAddress);
}
