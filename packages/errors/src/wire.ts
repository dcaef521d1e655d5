import * as declared from './service-error';
import { InternalError, ServiceError, type ServiceErrorJSON } from './service-error';

/** Prefix that marks a BullMQ failedReason / message string as a serialized ServiceError. */
const WIRE_PREFIX = 'WCS_ERROR:';

/** A failure kind: a ServiceError subclass that declares its own `static readonly code`. */
export type ErrorKind = (abstract new (...args: never[]) => ServiceError) & { readonly code: string };

function isErrorKind(value: unknown): value is ErrorKind {
  return (
    typeof value === 'function' &&
    value.prototype instanceof ServiceError &&
    Object.hasOwn(value, 'code') &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/**
 * code -> class, built from the classes exported by service-error.ts (each names its own code), so
 * adding a kind there is all it takes for it to come back from a queue as itself.
 */
export const ERROR_KINDS: ReadonlyMap<string, ErrorKind> = (() => {
  const kinds = new Map<string, ErrorKind>();
  for (const value of Object.values(declared)) {
    if (!isErrorKind(value)) continue;
    const taken = kinds.get(value.code);
    if (taken && taken !== value) {
      throw new Error(`Error code ${value.code} is declared by both ${taken.name} and ${value.name}`);
    }
    kinds.set(value.code, value);
  }
  return kinds;
})();

/** Serialize an error so its class, code and status survive a trip through a queue (as a string). */
export function encodeError(err: unknown): string {
  return WIRE_PREFIX + JSON.stringify(toServiceError(err).toJSON());
}

function isWireJson(j: unknown): j is ServiceErrorJSON {
  if (typeof j !== 'object' || j === null) return false;
  const o = j as Record<string, unknown>;
  return (
    typeof o.code === 'string' &&
    typeof o.message === 'string' &&
    typeof o.status === 'number' &&
    (o.retryable === undefined || typeof o.retryable === 'boolean') &&
    (o.details === undefined || (typeof o.details === 'object' && o.details !== null))
  );
}

/**
 * Reverse of encodeError: an instance of the class registered for the code (ERROR_KINDS), with the
 * code, status, message, retryable and details that were sent. The subclass's constructor is not
 * run (its arguments are not on the wire); the object is built as `new Kind(...)` would leave it.
 * A code this build does not know (a newer worker) is a plain ServiceError that keeps it; any
 * other string becomes an InternalError carrying it.
 */
export function decodeError(text: string | undefined | null): ServiceError {
  if (text?.startsWith(WIRE_PREFIX)) {
    let j: unknown;
    try {
      j = JSON.parse(text.slice(WIRE_PREFIX.length));
    } catch {
      j = undefined; // a malformed payload is still an internal error, not a crash
    }
    if (isWireJson(j)) {
      const args: ConstructorParameters<typeof ServiceError> = [
        j.code,
        j.status,
        j.message,
        { retryable: j.retryable ?? false, ...(j.details ? { details: j.details } : {}) },
      ];
      const Kind = ERROR_KINDS.get(j.code);
      return Kind ? (Reflect.construct(ServiceError, args, Kind) as ServiceError) : new ServiceError(...args);
    }
  }
  return new InternalError(text ? `Job failed: ${text}` : 'Job failed');
}

/**
 * The same kind of error (class, code, status, details) marked not retryable, with `message` when
 * given (the original becomes its cause). For a failure no retry may follow: a job's budget is
 * spent, or it was cancelled. Built as `decodeError` builds kinds, so `instanceof` and the wire
 * keep the class.
 */
export function notRetryable<E extends ServiceError>(err: E, message?: string): E {
  const args: ConstructorParameters<typeof ServiceError> = [
    err.code,
    err.status,
    message ?? err.message,
    {
      retryable: false,
      ...(message === undefined ? {} : { cause: err }),
      ...(err.details ? { details: err.details } : {}),
    },
  ];
  return Reflect.construct(ServiceError, args, err.constructor) as E;
}

/** Anything thrown, as a ServiceError (unknown errors become INTERNAL without leaking stacks). */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof Error) return new InternalError(err.message, { cause: err });
  return new InternalError(String(err));
}
