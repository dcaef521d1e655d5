import { SearchProviderError } from '@wcs/errors';

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

function networkCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

async function readCapped(res: Response, describe: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new SearchProviderError(`${describe} answered more than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET an operator-configured provider URL (not a user target, so no SSRF guard: SearXNG usually
 * lives on a private address). Network failures and timeouts become SearchProviderError naming
 * the provider; HTTP statuses are left to the caller, which knows what they mean.
 */
export async function providerGet(url: URL, r: ProviderRequest): Promise<ProviderResponse> {
  const timeout = AbortSignal.timeout(r.timeoutMs);
  const signal = r.signal ? AbortSignal.any([r.signal, timeout]) : timeout;
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json', ...r.headers },
      signal,
      redirect: 'follow',
    });
    const text = await readCapped(res, r.describe);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
  } catch (err) {
    if (err instanceof SearchProviderError) throw err;
    if (signal.aborted) {
      const why = timeout.aborted
        ? `did not answer within ${r.timeoutMs} ms`
        : 'was cancelled (search time budget)';
      throw new SearchProviderError(`${r.describe} ${why}`, { cause: err });
    }
    throw new SearchProviderError(`${r.describe} is unreachable (${networkCode(err)})`, { cause: err });
  }
}

/** A short, single-line excerpt of an unexpected body for error messages. */
export function excerpt(text: string, max = 160): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
