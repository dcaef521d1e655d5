import type { PageMetadata } from './api-responses.js';
/**
 * The one error the client throws. `status` and `message` come from the API's error body
 * (`{ success: false, error, code, details? }`); `status` is 0 when no HTTP response exists
 * (client-side timeout, network failure, missing key).
 */

/** Codes the API answers with (see the service README, "What failures look like"). */
export type ApiErrorCode =
  | 'INVALID_JSON'
  | 'VALIDATION_FAILED'
  | 'INVALID_URL'
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_CREDITS'
  | 'KEY_BUDGET_EXCEEDED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'TARGET_FORBIDDEN'
  | 'DNS_RESOLUTION_FAILED'
  | 'TARGET_UNREACHABLE'
  | 'TLS_ERROR'
  | 'TARGET_BLOCKED'
  | 'TARGET_HTTP_ERROR'
  | 'TOO_MANY_REDIRECTS'
  | 'UNSUPPORTED_CONTENT_TYPE'
  | 'TARGET_TOO_LARGE'
  | 'TIMEOUT'
  | 'UNAVAILABLE'
  | 'INTERNAL'
  | 'SEARCH_PROVIDER_FAILED'
  | 'MODEL_NOT_CONFIGURED'
  | 'EXTRACTION_FAILED'
  | 'CONTENT_PROCESSING_FAILED';

/**
 * `details` of the target's failures. TARGET_HTTP_ERROR: `statusCode` (answered, or shown by a 200
 * page) and `soft: true` when the page was a 200 "not found" or error page. TARGET_BLOCKED:
 * `reason`, `vendor` when recognised (`cloudflare`, …), `statusCode` when the answer's status said so.
 * Both: `attempts`, every step of the fetch ladder when the page was escalated (as `metadata.attempts`).
 */
export interface TargetErrorDetails {
  statusCode?: number;
  soft?: boolean;
  reason?: 'challenge' | 'captcha' | 'access-denied' | 'rate-limited';
  vendor?: string;
  attempts?: NonNullable<PageMetadata['attempts']>;
}

/** Codes of errors raised by the client itself (status 0, except INVALID_RESPONSE: a 2xx that is not JSON). */
export type ClientErrorCode = 'CLIENT_TIMEOUT' | 'NETWORK_ERROR' | 'MISSING_API_KEY' | 'INVALID_RESPONSE';

/** A known code, or any other string a newer server may send. */
export type ErrorCode = ApiErrorCode | ClientErrorCode | (string & {});

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** HTTP status of the response; 0 when there was none. */
  readonly status: number;
  readonly code: ErrorCode;
  /** The API's `details` object when it sent one (e.g. `{ statusCode: 404 }`). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    status: number,
    message: string,
    code: ErrorCode,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * Failures that answer the same however often they are retried: the target's own error, a
 * missing model configuration, a blocked or oversized page.
 */
export const DETERMINISTIC_CODES: ReadonlySet<string> = new Set([
  'MODEL_NOT_CONFIGURED',
  'TARGET_HTTP_ERROR',
  'TARGET_BLOCKED',
  'TLS_ERROR',
  'TOO_MANY_REDIRECTS',
  'TARGET_TOO_LARGE',
  'SEARCH_PROVIDER_FAILED',
  'UNSUPPORTED_CONTENT_TYPE',
]);
