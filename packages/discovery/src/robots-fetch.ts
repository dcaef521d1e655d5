/**
 * Fetch and parse an origin's robots.txt. A missing file (any 4xx) allows everything; a server
 * error or a network failure also allows everything but is reported in `error`, so callers can
 * log it (RFC 9309 would stop crawling on 5xx; we prefer a visible, working crawl).
 */
import { decodeBody, describeError, readBody } from '@wcs/net';
import { type FetchOptions, open } from './http-fetch';
import { allowAllRobots, MAX_ROBOTS_BYTES, parseRobots, type Robots, userAgentToken } from './robots';

export const ROBOTS_TIMEOUT_MS = 10_000;

export interface RobotsFetchResult {
  robots: Robots;
  /** The file's text when it was served with a 2xx status, else null. */
  text: string | null;
  /** HTTP status of the final response; absent on network errors. */
  statusCode?: number;
  /** Set when the file could not be read (5xx, network, timeout); everything is then allowed. */
  error?: string;
}

/**
 * `origin` may be any URL of the site ("https://a.com", "https://a.com/some/page"): only its origin
 * is used. The user-agent token for group matching comes from `opts.userAgent` (see userAgentToken).
 */
export async function fetchRobots(origin: string, opts: FetchOptions): Promise<RobotsFetchResult> {
  let robotsUrl: string;
  try {
    robotsUrl = new URL('/robots.txt', new URL(origin).origin).href;
  } catch {
    return { robots: allowAllRobots(), text: null, error: `invalid origin ${origin}` };
  }
  const timeoutMs = Math.min(opts.timeoutMs, ROBOTS_TIMEOUT_MS);
  const maxBytes = Math.min(opts.maxBytes ?? MAX_ROBOTS_BYTES, MAX_ROBOTS_BYTES);
  try {
    const res = await open(robotsUrl, { ...opts, timeoutMs }, 'text/plain,*/*;q=0.5');
    if (res.statusCode >= 200 && res.statusCode < 300) {
      const bytes = await readBody(res, { maxBytes, overflow: 'truncate' });
      const text = decodeBody(bytes, res.contentType || 'text/plain; charset=utf-8').text;
      const robots = parseRobots(text, res.url, userAgentToken(opts.userAgent));
      return { robots, text, statusCode: res.statusCode };
    }
    res.close();
    if (res.statusCode >= 400 && res.statusCode < 500) {
      return { robots: allowAllRobots(), text: null, statusCode: res.statusCode };
    }
    return {
      robots: allowAllRobots(),
      text: null,
      statusCode: res.statusCode,
      error: `robots.txt answered HTTP ${res.statusCode}`,
    };
  } catch (err) {
    return { robots: allowAllRobots(), text: null, error: `robots.txt: ${describeError(err)}` };
  }
}
