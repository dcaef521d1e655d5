/** Maps low-level network/undici/abort errors to the service's error classes. */
import {
  DnsResolutionError,
  ServiceError,
  TargetUnreachableError,
  TimeoutError,
  TlsError,
} from '@wcs/errors';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const TLS_CODE_RE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/** The error itself or the first ServiceError / coded error along its `cause` chain. */
function walk(err: unknown): { service?: ServiceError; code?: string } {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof ServiceError) return { service: cur };
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return { code };
    cur = (cur as { cause?: unknown }).cause;
  }
  return {};
}

/** Classify a failed request to `host`; unknown errors become TargetUnreachableError. */
export function mapNetworkError(err: unknown, host: string): ServiceError {
  const { service, code } = walk(err);
  if (service) return service;
  const msg = err instanceof Error ? err.message : String(err);
  const o = { cause: err, details: { host, ...(code ? { errorCode: code } : {}) } };
  if (code && DNS_CODES.has(code))
    return new DnsResolutionError(`Could not resolve host ${host} (${code})`, o);
  if (code && TIMEOUT_CODES.has(code)) return new TimeoutError(`Timed out talking to ${host} (${code})`, o);
  if (code && TLS_CODE_RE.test(code)) return new TlsError(`TLS error with ${host}: ${msg}`, o);
  if (code && UNREACHABLE_CODES.has(code))
    return new TargetUnreachableError(`Could not connect to ${host} (${code})`, o);
  return new TargetUnreachableError(`Request to ${host} failed: ${msg}`, o);
}

/** The error to throw once `signal` has fired: its reason (a DOM TimeoutError becomes ours). */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof ServiceError) return r;
  if (r instanceof Error) return r.name === 'TimeoutError' ? new TimeoutError(r.message, { cause: r }) : r;
  return new DOMException('This operation was aborted', 'AbortError');
}

/** Human-readable reason from an error chain (undici hides the interesting part in `cause`). */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur; i++) {
    const e = cur as { message?: unknown; code?: unknown; cause?: unknown };
    const msg = typeof e.message === 'string' ? e.message : String(cur);
    const code = typeof e.code === 'string' ? ` (${e.code})` : '';
    if (msg && !parts.some((p) => p.includes(msg))) parts.push(`${msg}${code}`);
    cur = e.cause;
  }
  return parts.join(': ') || 'unknown error';
}
