/**
 * One error class per failure kind. Each carries a stable `code` (survives queues and HTTP), the
 * HTTP `status` the gateway answers with, and whether retrying the same work could succeed.
 * Clients (Node, Python, MCP) see `{ success: false, error, code }` and expose `status` + message.
 *
 * A kind is a subclass declared here with `static readonly code`: that is all `decodeError` needs
 * to give it back as the same class after a queue (wire.ts builds its registry from this
 * module's exports). Keep every field in `code`/`status`/`message`/`retryable`/`details` (derive
 * others from them, like `RateLimitedError.retryAfterSeconds`): decoding does not call the
 * subclass's constructor.
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

  /**
   * The failure is the caller's own doing and the work was done for them (their options spent the
   * budget they were given): billed like a success instead of refunded. Declared by the kind (a
   * getter on its class), so it survives the wire with the class.
   */
  get billed(): boolean {
    return false;
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
  static readonly code = 'INVALID_JSON';
  constructor(message = 'Request body is not valid JSON', o: Opts = {}) {
    super(InvalidJsonError.code, 400, message, o);
  }
}
export class ValidationError extends ServiceError {
  static readonly code = 'VALIDATION_FAILED';
  constructor(message: string, o: Opts = {}) {
    super(ValidationError.code, 400, message, o);
  }
}
/** The client did not send its whole request (headers and body) within the gateway's time. */
export class RequestTimeoutError extends ServiceError {
  static readonly code = 'REQUEST_TIMEOUT';
  constructor(message = 'The request (headers and body) was not received in time', o: Opts = {}) {
    super(RequestTimeoutError.code, 408, message, o);
  }
}
export class InvalidUrlError extends ServiceError {
  static readonly code = 'INVALID_URL';
  constructor(message: string, o: Opts = {}) {
    super(InvalidUrlError.code, 400, message, o);
  }
}
export class UnauthorizedError extends ServiceError {
  static readonly code = 'UNAUTHORIZED';
  constructor(message = 'Missing or invalid API key', o: Opts = {}) {
    super(UnauthorizedError.code, 401, message, o);
  }
}
export class InsufficientCreditsError extends ServiceError {
  static readonly code = 'INSUFFICIENT_CREDITS';
  constructor(message = 'Insufficient credits', o: Opts = {}) {
    super(InsufficientCreditsError.code, 402, message, o);
  }
}
/**
 * The API key's own daily or monthly credit limit would be passed (the account may still have
 * credits). `details`: period ('day' | 'month', UTC), limit, spent, required, resetsAt (ISO time).
 */
export class KeyBudgetExceededError extends ServiceError {
  static readonly code = 'KEY_BUDGET_EXCEEDED';
  constructor(message = "This API key's credit limit would be passed", o: Opts = {}) {
    super(KeyBudgetExceededError.code, 402, message, o);
  }
}
export class ForbiddenError extends ServiceError {
  static readonly code = 'FORBIDDEN';
  constructor(message = 'Forbidden', o: Opts = {}) {
    super(ForbiddenError.code, 403, message, o);
  }
}
export class NotFoundError extends ServiceError {
  static readonly code = 'NOT_FOUND';
  constructor(message = 'Not found', o: Opts = {}) {
    super(NotFoundError.code, 404, message, o);
  }
}
/** The request contradicts the resource's state (revoking an account's last key, resuming a cancelled monitor). */
export class ConflictError extends ServiceError {
  static readonly code = 'CONFLICT';
  constructor(message = 'Conflict', o: Opts = {}) {
    super(ConflictError.code, 409, message, o);
  }
}
/** An endpoint or option this service does not offer (e.g. Firecrawl's agent): 501, naming it. */
export class NotSupportedError extends ServiceError {
  static readonly code = 'NOT_SUPPORTED';
  constructor(message: string, o: Opts = {}) {
    super(NotSupportedError.code, 501, message, o);
  }
}
export class PayloadTooLargeError extends ServiceError {
  static readonly code = 'PAYLOAD_TOO_LARGE';
  constructor(message = 'Request body is too large', o: Opts = {}) {
    super(PayloadTooLargeError.code, 413, message, o);
  }
}
export class RateLimitedError extends ServiceError {
  static readonly code = 'RATE_LIMITED';
  constructor(retryAfterSeconds: number, message = 'Rate limit exceeded', o: Opts = {}) {
    super(RateLimitedError.code, 429, message, { ...o, details: { retryAfterSeconds, ...o.details } });
  }
  /** Read from `details`, so it survives the wire format like every other field. */
  get retryAfterSeconds(): number {
    return this.details?.retryAfterSeconds as number;
  }
}

// ---- target problems: the page we were asked for ---------------------------------------------
/** Private, loopback, link-local or otherwise disallowed address (also after a redirect). */
export class TargetForbiddenError extends ServiceError {
  static readonly code = 'TARGET_FORBIDDEN';
  constructor(message: string, o: Opts = {}) {
    super(TargetForbiddenError.code, 400, message, o);
  }
}
/** The target's domain does not resolve (spec: 400 for extract). */
export class DnsResolutionError extends ServiceError {
  static readonly code = 'DNS_RESOLUTION_FAILED';
  constructor(message: string, o: Opts = {}) {
    super(DnsResolutionError.code, 400, message, o);
  }
}
/** Connection refused/reset by the target. */
export class TargetUnreachableError extends ServiceError {
  static readonly code = 'TARGET_UNREACHABLE';
  constructor(message: string, o: Opts = {}) {
    super(TargetUnreachableError.code, 502, message, { ...o, retryable: true });
  }
}
export class TlsError extends ServiceError {
  static readonly code = 'TLS_ERROR';
  constructor(message: string, o: Opts = {}) {
    super(TlsError.code, 502, message, o);
  }
}
/** The target answered with a block (403/429/captcha wall) to automated access. */
export class TargetBlockedError extends ServiceError {
  static readonly code = 'TARGET_BLOCKED';
  constructor(message: string, o: Opts = {}) {
    super(TargetBlockedError.code, 502, message, o);
  }
}
/**
 * Target statuses that say "not now" rather than "never": worth another attempt where the work is
 * retried (batch items, crawl pages), like a server's own error page shown with 200.
 */
export const TRANSIENT_HTTP_STATUSES: ReadonlySet<number> = new Set([408, 500, 502, 503, 504]);

/**
 * The target answered with an HTTP error status (404, 500, …); the scrape is not billed. Retryable
 * when the status is transient (TRANSIENT_HTTP_STATUSES): a 404 stays a 404, a 503 may pass.
 */
export class TargetHttpError extends ServiceError {
  static readonly code = 'TARGET_HTTP_ERROR';
  constructor(statusCode: number, message?: string, o: Opts = {}) {
    super(TargetHttpError.code, 502, message ?? `Target responded with HTTP ${statusCode}`, {
      ...o,
      details: { statusCode, ...o.details },
      retryable: TRANSIENT_HTTP_STATUSES.has(statusCode),
    });
  }
}
export class TooManyRedirectsError extends ServiceError {
  static readonly code = 'TOO_MANY_REDIRECTS';
  constructor(message: string, o: Opts = {}) {
    super(TooManyRedirectsError.code, 502, message, o);
  }
}
export class UnsupportedContentTypeError extends ServiceError {
  static readonly code = 'UNSUPPORTED_CONTENT_TYPE';
  constructor(message: string, o: Opts = {}) {
    super(UnsupportedContentTypeError.code, 415, message, o);
  }
}
export class TargetTooLargeError extends ServiceError {
  static readonly code = 'TARGET_TOO_LARGE';
  constructor(message: string, o: Opts = {}) {
    super(TargetTooLargeError.code, 502, message, o);
  }
}
/**
 * A browser action (the `actions` page option) could not be done on the page: its selector matched
 * nothing in time, its script threw, a key name is unknown. `details` names the action and its index.
 */
export class ActionFailedError extends ServiceError {
  static readonly code = 'ACTION_FAILED';
  constructor(message: string, o: Opts & { details: { action: string; index: number } }) {
    super(ActionFailedError.code, 422, message, o);
  }
}
/**
 * The `includeTags` / `excludeTags` selectors cost more on this page than the selector budget
 * (CONTENT_SELECTOR_BUDGET_MS): matching was cut. The caller's options did the damage and the page
 * was fetched and parsed for them, so the request is billed (`billed`), not refunded.
 * `details.selectorBudgetMs` is the budget, `details.field` the option whose pass was cut.
 */
export class SelectorTooExpensiveError extends ServiceError {
  static readonly code = 'SELECTOR_TOO_EXPENSIVE';
  constructor(message: string, o: Opts & { details: { selectorBudgetMs: number; field: string } }) {
    super(SelectorTooExpensiveError.code, 422, message, o);
  }
  override get billed(): boolean {
    return true;
  }
}
/** Fetch, render or the whole job ran out of time. */
export class TimeoutError extends ServiceError {
  static readonly code = 'TIMEOUT';
  constructor(message = 'Timed out; retry', o: Opts = {}) {
    super(TimeoutError.code, 504, message, { ...o, retryable: true });
  }
}

// ---- our own problems ------------------------------------------------------------------------
export class ServiceUnavailableError extends ServiceError {
  static readonly code = 'UNAVAILABLE';
  constructor(message = 'Service temporarily unavailable', o: Opts = {}) {
    super(ServiceUnavailableError.code, 503, message, { ...o, retryable: true });
  }
}
/**
 * The content pipeline (HTML -> markdown/html/text/json) failed on a page it fetched: our bug,
 * never the caller's, so the work is refunded. Not retryable: the same page fails the same way.
 * `details.url` names the page; the message never carries the cause's internals.
 */
export class ContentProcessingError extends ServiceError {
  static readonly code = 'CONTENT_PROCESSING_FAILED';
  constructor(url: string, o: Opts = {}) {
    super(ContentProcessingError.code, 500, `Could not convert the content of ${url}`, {
      ...o,
      details: { url, ...o.details },
    });
  }
}
/** Why a document (PDF, DOCX) could not be read: damaged, password-protected, or cut short. */
export type DocumentUnreadableReason = 'corrupt' | 'encrypted' | 'truncated';

/** A PDF or Word file that cannot be read: a property of the file, so retrying does not help. */
export class DocumentUnreadableError extends ServiceError {
  static readonly code = 'DOCUMENT_UNREADABLE';
  constructor(reason: DocumentUnreadableReason, message: string, o: Opts = {}) {
    super(DocumentUnreadableError.code, 422, message, { ...o, details: { reason, ...o.details } });
  }
}
export class InternalError extends ServiceError {
  static readonly code = 'INTERNAL';
  constructor(message = 'Internal error', o: Opts = {}) {
    super(InternalError.code, 500, message, o);
  }
}

// ---- search providers ---------------------------------------------------------------
/**
 * The configured search provider (SearXNG, Brave, …) failed: unreachable, misconfigured, rejected
 * our key, answered garbage or too late. The message names the setting to check (SEARXNG_URL, …).
 */
export class SearchProviderError extends ServiceError {
  static readonly code = 'SEARCH_PROVIDER_FAILED';
  constructor(message: string, o: Opts & { retryable?: boolean } = {}) {
    super(SearchProviderError.code, 502, message, { ...o, retryable: o.retryable ?? true });
  }
}

// ---- structured extraction ----------------------------------------------------------
/**
 * No language model is configured for extraction (EXTRACT_PROVIDER=anthropic without
 * ANTHROPIC_API_KEY, or openai without OPENAI_BASE_URL). The message names the variable to set.
 */
export class ModelNotConfiguredError extends ServiceError {
  static readonly code = 'MODEL_NOT_CONFIGURED';
  constructor(message: string, o: Opts = {}) {
    super(ModelNotConfiguredError.code, 503, message, o);
  }
}
/**
 * Extraction failed for a reason that is neither the request's nor a timeout: the model's answer
 * stayed invalid after the repair attempt, or the model provider failed (5xx, rejected key, …).
 */
export class ExtractionFailedError extends ServiceError {
  static readonly code = 'EXTRACTION_FAILED';
  constructor(message: string, o: Opts & { retryable?: boolean } = {}) {
    super(ExtractionFailedError.code, 500, message, { ...o, retryable: o.retryable ?? false });
  }
}
