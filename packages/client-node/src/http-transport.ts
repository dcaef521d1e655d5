/**
 * One HTTP round trip with the API's conventions: bearer auth, JSON in and out, the API's error
 * body turned into ServiceError, a per-request timeout, and retries with backoff where a retry
 * can help (429 honouring Retry-After, 502/503 unless the error code says it is deterministic).
 */
import { abortableSleep } from './abortable-sleep.js';
import { DETERMINISTIC_CODES, ServiceError } from './service-error.js';
import { CLIENT_VERSION } from './version.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: FetchLike;
}

export interface RequestOptions {
  body?: object;
  /** A multipart/form-data body instead of JSON (POST /v1/parse); fetch sets its Content-Type. */
  form?: FormData;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal | undefined;
}

const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 30_000;

/** Delay before retry number `attempt` (0-based): Retry-After when given, else jittered backoff. */
export function retryDelayMs(attempt: number, retryAfter: string | null): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, RETRY_MAX_MS * 2);
  }
  const backoff = Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_MS);
  return Math.round(backoff * (0.8 + Math.random() * 0.4));
}

export function isRetryable(status: number, code: string): boolean {
  if (status === 429) return true;
  return (status === 502 || status === 503) && !DETERMINISTIC_CODES.has(code);
}

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  details?: unknown;
}

/** A response read to its end (inside the request's deadline). */
interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  bytes: Uint8Array;
}

const textOf = (res: RawResponse): string => new TextDecoder().decode(res.bytes);

function toServiceError(res: RawResponse): ServiceError {
  let body: ErrorBody = {};
  try {
    const parsed: unknown = JSON.parse(textOf(res));
    if (parsed && typeof parsed === 'object') body = parsed as ErrorBody;
  } catch {
    // not our error shape (a proxy's HTML page, say): fall back to the status line
  }
  const message =
    typeof body.error === 'string' && body.error ? body.error : `HTTP ${res.status} ${res.statusText}`.trim();
  const code = typeof body.code === 'string' ? body.code : `HTTP_${res.status}`;
  const details =
    body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : undefined;
  return new ServiceError(res.status, message, code, details);
}

function parseJson(res: RawResponse): unknown {
  const text = textOf(res);
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(
      res.status,
      `Expected a JSON answer, got: ${text.slice(0, 200)}`,
      'INVALID_RESPONSE',
    );
  }
}

/** What a billable answer cost (its `X-Credits-Used` / `X-Credits-Remaining` headers). */
export interface CreditsInfo {
  /** Credits the call kept (after refunds); a crawl status: what the crawl has cost so far. */
  used: number;
  /** The account's balance right after the call. */
  remaining: number;
}

/** The credit headers of a response, or null when it has none (a free call). */
export function creditsOf(headers: Headers): CreditsInfo | null {
  const used = headers.get('x-credits-used');
  const remaining = headers.get('x-credits-remaining');
  if (used === null || remaining === null) return null;
  const u = Number(used);
  const r = Number(remaining);
  return Number.isSafeInteger(u) && Number.isSafeInteger(r) ? { used: u, remaining: r } : null;
}

export class HttpTransport {
  /** The credit headers of the latest answer that carried them (errors included). */
  lastCredits: CreditsInfo | null = null;

  constructor(private readonly config: TransportConfig) {}

  get baseUrl(): string {
    return this.config.baseUrl;
  }

  /** One call whose 2xx answer is JSON (every endpoint but the CSV export). */
  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    opts: RequestOptions = {},
  ): Promise<T> {
    return parseJson(await this.roundTrip(method, path, 'application/json', opts)) as T;
  }

  /**
   * One call whose 2xx answer is text (GET /v1/ledger.csv): the body is returned as is. Errors are
   * still the API's JSON error bodies, so they map to ServiceError exactly as in `request`.
   */
  async requestText(method: 'GET', path: string, accept: string, opts: RequestOptions = {}): Promise<string> {
    return textOf(await this.roundTrip(method, path, accept, opts));
  }

  /** One call whose 2xx answer is binary (a screenshot PNG): the body's bytes as they came. */
  async requestBytes(
    method: 'GET',
    path: string,
    accept: string,
    opts: RequestOptions = {},
  ): Promise<Uint8Array> {
    return (await this.roundTrip(method, path, accept, opts)).bytes;
  }

  /** Sends with retries until a 2xx (returned) or a final error (thrown). */
  private async roundTrip(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    accept: string,
    opts: RequestOptions,
  ): Promise<RawResponse> {
    const url = new URL(this.config.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(method, url.toString(), accept, opts);
      if (res.status >= 200 && res.status < 300) return res;
      const err = toServiceError(res);
      if (attempt >= this.config.maxRetries || !isRetryable(err.status, err.code)) throw err;
      await abortableSleep(retryDelayMs(attempt, res.headers.get('retry-after')), opts.signal);
    }
  }

  private async send(
    method: string,
    url: string,
    accept: string,
    opts: RequestOptions,
  ): Promise<RawResponse> {
    const { signal, cancel, timedOut } = this.deadline(opts.signal);
    try {
      const res = await this.config.fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.config.apiKey}`,
          Accept: accept,
          'User-Agent': `wcs-client-node/${CLIENT_VERSION}`,
          ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(opts.body ? { body: JSON.stringify(opts.body) } : opts.form ? { body: opts.form } : {}),
        signal,
      });
      // Read the body inside the deadline too: a server that stalls mid-body is a timeout.
      const bytes = new Uint8Array(await res.arrayBuffer());
      const credits = res.headers ? creditsOf(res.headers) : null;
      if (credits) this.lastCredits = credits;
      return { status: res.status, statusText: res.statusText, headers: res.headers, bytes };
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (timedOut()) {
        throw new ServiceError(
          0,
          `${method} ${new URL(url).pathname} got no answer within ${this.config.timeoutMs} ms`,
          'CLIENT_TIMEOUT',
          undefined,
          { cause: err },
        );
      }
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ServiceError(
        0,
        `Could not reach ${this.config.baseUrl}: ${reason}`,
        'NETWORK_ERROR',
        undefined,
        {
          cause: err,
        },
      );
    } finally {
      cancel();
    }
  }

  /** The caller's signal combined with the per-request timeout (AbortSignal.any needs Node 20). */
  private deadline(outer: AbortSignal | undefined) {
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort(new Error('client timeout'));
    }, this.config.timeoutMs);
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    return {
      signal: controller.signal,
      timedOut: () => expired,
      cancel: () => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onOuterAbort);
      },
    };
  }
}
