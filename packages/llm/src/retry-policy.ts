/**
 * When to ask a model server again: the wait its `Retry-After` names (seconds or an HTTP date),
 * else an exponential backoff with jitter (so workers hitting one overloaded server spread out),
 * and a wait that ends early when the call is aborted.
 */

/** Retries of a 429/503 (the server is busy, not broken) when EXTRACT_MODEL_MAX_RETRIES is lower. */
export const BUSY_RETRIES = 8;

/** Milliseconds a `Retry-After` header asks for, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const v = header?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The n-th wait (1-based) without a `Retry-After`: 250 ms doubling up to 4 s, ±20 %. */
export function backoffMs(n: number): number {
  const ms = Math.min(4_000, 250 * 2 ** Math.max(0, n - 1));
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

/** Waits `ms`, or less when `signal` aborts (the caller checks it afterwards). */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
