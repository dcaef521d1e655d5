import type { BlockSignal, RawAnswer } from './verdict.types';

/**
 * A bot wall recognised from the raw answer alone (status, headers, the head of the markup), cheap
 * enough to run on every fetch: the scraper's escalation ladder reads it before converting.
 * General signals only (vendor headers and challenge markup), never a list of sites.
 */
export function detectBlock(answer: RawAnswer): BlockSignal | undefined {
  const h = answer.headers;
  if (h['cf-mitigated'] === 'challenge') return { reason: 'challenge', vendor: 'cloudflare' };
  if (answer.statusCode === 429) return { reason: 'rate-limited' };
  if (answer.statusCode === 401 || answer.statusCode === 403 || answer.statusCode === 451)
    return { reason: 'access-denied' };
  return undefined;
}
