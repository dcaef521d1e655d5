/**
 * What discovery (robots.txt, sitemaps) needs from @wcs/net: the caller's address-checking
 * dispatcher, our user agent and a budget. Every request goes through net's `openUrl` (policy at
 * connect time on every hop, redirects, decompression, gzip by magic bytes — sitemap.xml.gz is
 * often served as application/octet-stream without Content-Encoding — and typed errors).
 */
import { type Dispatcher, type OpenedResponse, openUrl } from '@wcs/net';

export interface FetchOptions {
  /** From createSafeDispatcher (@wcs/net): every connection's address is checked. */
  dispatcher: Dispatcher;
  userAgent: string;
  /** Budget of one fetch (headers and body). */
  timeoutMs: number;
  /** Cap on decoded bytes. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export const MAX_REDIRECTS = 5;

/** GET `url` through @wcs/net, following up to 5 redirects; any HTTP status resolves. */
export function open(url: string, opts: FetchOptions, accept: string): Promise<OpenedResponse> {
  return openUrl(url, {
    dispatcher: opts.dispatcher,
    userAgent: opts.userAgent,
    accept,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    maxRedirects: MAX_REDIRECTS,
    gunzipByMagic: true,
  });
}
