/**
 * Whether an error is the pool's "no connection free within connectionTimeoutMillis" (pg-pool's
 * own message; Prisma's driver adapter passes it on as the error or its cause). That is overload,
 * not a fault: callers answer it as a retryable 503, not as an internal error.
 */
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';

export function isPoolTimeout(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (e.message.includes(POOL_TIMEOUT)) return true;
    e = e.cause;
  }
  return false;
}
