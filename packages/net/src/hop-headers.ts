/**
 * The headers of each hop of one request. Two sources, kept apart because they travel differently:
 * - the service's own (user agent, Accept, Accept-Encoding, and what the caller asked for through
 *   options rather than headers, such as `location`'s Accept-Language): on every hop;
 * - the caller's (`RequestOptions.headers` and `cookies`): on hops to the target's origin only —
 *   the origin of the URL the caller asked for, not of wherever a redirect leads — where they
 *   override the service's own. With `headersScope: 'all'` they go to every origin, except the
 *   credentials (Authorization, Cookie), which never leave the target's origin.
 * A hop back to the target's origin (A → B → A) gets them again: it is the origin they were meant for.
 */

export type HeadersScope = 'origin' | 'all';

// undici rejects these as request headers; the others are framing we control.
const DROPPED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);
/** Never to another origin than the target's, whatever the scope (the fetch spec's rule, and ours). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
]);

export interface HopHeadersInput {
  /** The service's own headers, names lowercased. */
  own: Record<string, string>;
  /** The caller's headers, any case. */
  caller?: Record<string, string> | undefined;
  /** The caller's cookies, sent as one Cookie header (after any Cookie header of theirs). */
  cookies?: Record<string, string> | undefined;
  scope?: HeadersScope | undefined;
}

export class HopHeaders {
  private readonly own: Record<string, string>;
  private readonly caller: Record<string, string> = {};
  private readonly scope: HeadersScope;
  private bodyDropped = false;

  constructor(
    /** The origin of the URL the caller asked for. */
    private readonly targetOrigin: string,
    input: HopHeadersInput,
  ) {
    this.own = { ...input.own };
    this.scope = input.scope ?? 'origin';
    for (const [k, v] of Object.entries(input.caller ?? {})) {
      const key = k.toLowerCase();
      if (!DROPPED_HEADERS.has(key)) this.caller[key] = v;
    }
    const cookies = Object.entries(input.cookies ?? {});
    if (cookies.length > 0) {
      const jar = cookies.map(([k, v]) => `${k}=${v}`).join('; ');
      this.caller.cookie = this.caller.cookie ? `${this.caller.cookie}; ${jar}` : jar;
    }
  }

  /** The request became a GET without a body (303, or 301/302 after a POST): no Content-Type. */
  dropBody(): void {
    this.bodyDropped = true;
  }

  /** The headers for a hop to `url`. */
  for(url: URL): Record<string, string> {
    const headers = { ...this.own };
    const home = url.origin === this.targetOrigin;
    for (const [k, v] of Object.entries(this.caller)) {
      if (home || (this.scope === 'all' && !CREDENTIAL_HEADERS.has(k))) headers[k] = v;
    }
    if (this.bodyDropped) delete headers['content-type'];
    return headers;
  }
}
