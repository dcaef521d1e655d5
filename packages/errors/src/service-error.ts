/**
 * One error class per failure kind. Each carries a stable `code` (survives queues and HTTP), the
 * HTTP `status` the gateway answers with, and whether retrying the same work could succeed.
 * Clients (Node, Python, MCP) see `{ success: false, error, code }` and expose `status` + message.
 */
export interface ServiceErrorJSON {
  code: string;
  message: string;
  status: number;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export class ServiceError extends Error {
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(
    code: string,
    status: number,
    message: string,
    opts: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.retryable = opts.retryable ?? false;
    if (opts.details) this.details = opts.details;
  }

  toJSON(): ServiceErrorJSON {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

type Opts = { details?: Record<string, unknown>; cause?: unknown };

// ---- request problems (4xx) -------------------------------------------------------------------
export class InvalidJsonError extends ServiceError {
  constructor(message = 'Request body is not valid JSON', o: Opts = {}) {
    super('INVALID_JSON', 400, message, o);
  }
}
export class ValidationError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('VALIDATION_FAILED', 400, message, o);
  }
}
export class InvalidUrlError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('INVALID_URL', 400, message, o);
  }
}
export class UnauthorizedError extends ServiceError {
  constructor(message = 'Missing or invalid API key', o: Opts = {}) {
    super('UNAUTHORIZED', 401, message, o);
  }
}
export class InsufficientCreditsError extends ServiceError {
  constructor(message = 'Insufficient credits', o: Opts = {}) {
    super('INSUFFICIENT_CREDITS', 402, message, o);
  }
}
export class ForbiddenError extends ServiceError {
  constructor(message = 'Forbidden', o: Opts = {}) {
    super('FORBIDDEN', 403, message, o);
  }
}
export class NotFoundError extends ServiceError {
  constructor(message = 'Not found', o: Opts = {}) {
    super('NOT_FOUND', 404, message, o);
  }
}
export class PayloadTooLargeError extends ServiceError {
  constructor(message = 'Request body is too large', o: Opts = {}) {
    super('PAYLOAD_TOO_LARGE', 413, message, o);
  }
}
export class RateLimitedError extends ServiceError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = 'Rate limit exceeded', o: Opts = {}) {
    super('RATE_LIMITED', 429, message, { ...o, details: { retryAfterSeconds, ...o.details } });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

// ---- target problems: the page we were asked for ---------------------------------------------
/** Private, loopback, link-local or otherwise disallowed address (also after a redirect). */
export class TargetForbiddenError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TARGET_FORBIDDEN', 400, message, o);
  }
}
/** The target's domain does not resolve (spec: 400 for extract). */
export class DnsResolutionError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('DNS_RESOLUTION_FAILED', 400, message, o);
  }
}
/** Connection refused/reset by the target. */
export class TargetUnreachableError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TARGET_UNREACHABLE', 502, message, { ...o, retryable: true });
  }
}
export class TlsError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TLS_ERROR', 502, message, o);
  }
}
/** The target answered with a block (403/429/captcha wall) to automated access. */
export class TargetBlockedError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TARGET_BLOCKED', 502, message, o);
  }
}
/** The target answered with an HTTP error status (404, 500, …); the scrape is not billed. */
export class TargetHttpError extends ServiceError {
  constructor(statusCode: number, message?: string, o: Opts = {}) {
    super('TARGET_HTTP_ERROR', 502, message ?? `Target responded with HTTP ${statusCode}`, {
      ...o,
      details: { statusCode, ...o.details },
    });
  }
}
export class TooManyRedirectsError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TOO_MANY_REDIRECTS', 502, message, o);
  }
}
export class UnsupportedContentTypeError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('UNSUPPORTED_CONTENT_TYPE', 415, message, o);
  }
}
export class TargetTooLargeError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('TARGET_TOO_LARGE', 502, message, o);
  }
}
/** Fetch, render or the whole job ran out of time. */
export class TimeoutError extends ServiceError {
  constructor(message = 'Timed out; retry', o: Opts = {}) {
    super('TIMEOUT', 504, message, { ...o, retryable: true });
  }
}

// ---- our own problems ------------------------------------------------------------------------
export class ServiceUnavailableError extends ServiceError {
  constructor(message = 'Service temporarily unavailable', o: Opts = {}) {
    super('UNAVAILABLE', 503, message, { ...o, retryable: true });
  }
}
/**
 * The content pipeline (HTML -> markdown/html/text/json) failed on a page it fetched: our bug,
 * never the caller's, so the work is refunded. Not retryable: the same page fails the same way.
 * `details.url` names the page; the message never carries the cause's internals.
 */
export class ContentProcessingError extends ServiceError {
  constructor(url: string, o: Opts = {}) {
    super('CONTENT_PROCESSING_FAILED', 500, `Could not convert the content of ${url}`, {
      ...o,
      details: { url, ...o.details },
    });
  }
}
export class InternalError extends ServiceError {
  constructor(message = 'Internal error', o: Opts = {}) {
    super('INTERNAL', 500, message, o);
  }
}

// ---- search providers (issue 3) ---------------------------------------------------------------
/**
 * The configured search provider (SearXNG, Brave, …) failed: unreachable, misconfigured, rejected
 * our key, answered garbage or too late. The message names the setting to check (SEARXNG_URL, …).
 */
export class SearchProviderError extends ServiceError {
  constructor(message: string, o: Opts & { retryable?: boolean } = {}) {
    super('SEARCH_PROVIDER_FAILED', 502, message, { ...o, retryable: o.retryable ?? true });
  }
}

// ---- structured extraction (issue 4) ----------------------------------------------------------
/**
 * No language model is configured for extraction (EXTRACT_PROVIDER=anthropic without
 * ANTHROPIC_API_KEY, or openai without OPENAI_BASE_URL). The message names the variable to set.
 */
export class ModelNotConfiguredError extends ServiceError {
  constructor(message: string, o: Opts = {}) {
    super('MODEL_NOT_CONFIGURED', 503, message, o);
  }
}
/**
 * Extraction failed for a reason that is neither the request's nor a timeout: the model's answer
 * stayed invalid after the repair attempt, or the model provider failed (5xx, rejected key, …).
 */
export class ExtractionFailedError extends ServiceError {
  constructor(message: string, o: Opts & { retryable?: boolean } = {}) {
    super('EXTRACTION_FAILED', 500, message, { ...o, retryable: o.retryable ?? false });
  }
}
