import { InternalError, ServiceError, type ServiceErrorJSON } from './service-error';

/** Prefix that marks a BullMQ failedReason / message string as a serialized ServiceError. */
const WIRE_PREFIX = 'WCS_ERROR:';

/** Serialize an error so its code and status survive a trip through a queue (as a string). */
export function encodeError(err: unknown): string {
  return WIRE_PREFIX + JSON.stringify(toServiceError(err).toJSON());
}

/** Reverse of encodeError; any other string becomes an InternalError carrying it. */
export function decodeError(text: string | undefined | null): ServiceError {
  if (text?.startsWith(WIRE_PREFIX)) {
    try {
      const j = JSON.parse(text.slice(WIRE_PREFIX.length)) as ServiceErrorJSON;
      return new ServiceError(j.code, j.status, j.message, {
        retryable: j.retryable,
        ...(j.details ? { details: j.details } : {}),
      });
    } catch {
      // fall through: a malformed payload is still an internal error, not a crash
    }
  }
  return new InternalError(text ? `Job failed: ${text}` : 'Job failed');
}

/** Anything thrown, as a ServiceError (unknown errors become INTERNAL without leaking stacks). */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof Error) return new InternalError(err.message, { cause: err });
  return new InternalError(String(err));
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}
