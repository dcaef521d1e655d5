/**
 * Which screenshot URLs the client may fetch with its key: only those under its own base URL
 * (same scheme, host and port, below the base path). A document could hold any URL, and the key
 * must never go to another server.
 */
import { ServiceError } from './service-error.js';

/** The path (with query) of `url` relative to `baseUrl`, or a ServiceError when it lies elsewhere. */
export function screenshotPath(baseUrl: string, url: string): string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ServiceError(0, 'Not a screenshot URL: expected an absolute URL', 'INVALID_SCREENSHOT_URL');
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (target.origin !== base.origin || !target.pathname.startsWith(`${prefix}/`)) {
    throw new ServiceError(
      0,
      `Refusing to send the API key to ${target.origin}: screenshot URLs must be under ${baseUrl}`,
      'INVALID_SCREENSHOT_URL',
    );
  }
  return target.pathname.slice(prefix.length) + target.search;
}
