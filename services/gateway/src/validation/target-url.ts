import { InvalidUrlError } from '@wcs/errors';

const MAX_URL_LENGTH = 8_192;

/**
 * Validate a target URL and return it normalised. `prependHttps` turns a bare domain
 * (`example.com/a`) into `https://example.com/a` — every endpoint but batch scrape does this.
 * Only http(s) is accepted; private-address checks happen when the URL is fetched (every hop).
 */
export function normalizeTargetUrl(raw: string, opts: { prependHttps: boolean; field?: string }): string {
  const field = opts.field ?? 'url';
  const input = raw.trim();
  if (!input) throw new InvalidUrlError(`${field}: URL is empty`);
  if (input.length > MAX_URL_LENGTH)
    throw new InvalidUrlError(`${field}: URL is longer than ${MAX_URL_LENGTH} characters`);
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(input) && !/^[^/:]+:\d+(\/|$)/.test(input);
  const candidate = !hasScheme && opts.prependHttps ? `https://${input.replace(/^\/\//, '')}` : input;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new InvalidUrlError(`${field}: "${truncate(input)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(`${field}: only http and https URLs are supported (got ${url.protocol})`);
  }
  if (
    !url.hostname ||
    (!url.hostname.includes('.') && url.hostname !== 'localhost' && !url.hostname.startsWith('['))
  ) {
    throw new InvalidUrlError(`${field}: "${truncate(input)}" has no valid host name`);
  }
  if (url.username || url.password)
    throw new InvalidUrlError(`${field}: URLs with credentials are not accepted`);
  return url.toString();
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
