import { SearchProviderError, TargetTooLargeError, TimeoutError } from '@wcs/errors';
import { createGuardedAgent, decodeBody, openUrl, readBody } from '@wcs/net';

/** Largest provider answer we read (a SearXNG page is ~10–50 kB; anything huge is a wrong URL). */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface ProviderResponse {
  status: number;
  contentType: string;
  text: string;
  /** Parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface ProviderRequest {
  headers?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Who we are talking to, for messages: "SearXNG at SEARXNG_URL=http://searxng:8080". */
  describe: string;
}

/**
 * GET an operator-configured provider URL through @wcs/net (not a user target, so no address
 * policy: SearXNG usually lives on a private address). Network failures, timeouts and oversized
 * answers become SearchProviderError naming the provider; HTTP statuses are left to the caller,
 * which knows what they mean.
 */
export async function providerGet(url: URL, r: ProviderRequest): Promise<ProviderResponse> {
  // One request per search: a dispatcher of its own, closed with it (no address restriction).
  const dispatcher = createGuardedAgent(r.timeoutMs, undefined);
  try {
    const res = await openUrl(url.href, {
      dispatcher,
      accept: 'application/json',
      request: { headers: r.headers ?? {} },
      timeoutMs: r.timeoutMs,
      signal: r.signal,
    });
    const text = decodeBody(
      await readBody(res, { maxBytes: MAX_RESPONSE_BYTES }),
      res.contentType || undefined,
    ).text;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, contentType: res.contentType, text, json };
  } catch (err) {
    if (err instanceof TargetTooLargeError)
      throw new SearchProviderError(`${r.describe} answered more than ${MAX_RESPONSE_BYTES} bytes`, {
        cause: err,
      });
    if (r.signal?.aborted)
      throw new SearchProviderError(`${r.describe} was cancelled (search time budget)`, { cause: err });
    if (err instanceof TimeoutError)
      throw new SearchProviderError(`${r.describe} did not answer within ${r.timeoutMs} ms`, { cause: err });
    throw new SearchProviderError(`${r.describe} is unreachable (${networkCode(err)})`, { cause: err });
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** The low-level code net kept in details (ECONNREFUSED, ENOTFOUND…), else the message. */
function networkCode(err: unknown): string {
  const code = (err as { details?: { errorCode?: unknown } } | null)?.details?.errorCode;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
}

/** A short, single-line excerpt of an unexpected body for error messages. */
export function excerpt(text: string, max = 160): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
