/**
 * The chunks of a long page through the model, a few at once, results in page order. A chunk
 * whose call fails (a model error, a call's timeout, a server that hung up) is tried once more;
 * when it fails again its part of the page is left out and the others go on, so one bad call no
 * longer throws away the rest of the page. A cancel (the job's signal) starts no further chunk and
 * aborts the calls in flight; a configuration error (no model, a rejected key, no such model)
 * stops every chunk, as each would fail the same way.
 */
import { ModelNotConfiguredError, ServiceError } from '@wcs/errors';

/** Errors every chunk would meet the same way: no model, a rejected key, no such model. */
function isConfigurationError(err: unknown): boolean {
  if (err instanceof ModelNotConfiguredError) return true;
  const status = err instanceof ServiceError ? err.details?.httpStatus : undefined;
  return status === 401 || status === 403 || status === 404;
}

export type ChunkOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function runChunks<T>(
  chunks: string[],
  concurrency: number,
  outer: AbortSignal | undefined,
  one: (text: string, signal: AbortSignal) => Promise<T>,
): Promise<ChunkOutcome<T>[]> {
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const results: ChunkOutcome<T>[] = [];
  let next = 0;
  let fatal: { err: unknown } | undefined;
  const attempt = async (text: string): Promise<ChunkOutcome<T>> => {
    let error: unknown;
    for (let tries = 0; tries < 2 && !signal.aborted; tries++) {
      try {
        return { ok: true, value: await one(text, signal) };
      } catch (err) {
        error = err;
        if (isConfigurationError(err)) throw err;
      }
    }
    return { ok: false, error };
  };
  const worker = async () => {
    while (!fatal && !signal.aborted && next < chunks.length) {
      const i = next++;
      try {
        results[i] = await attempt(chunks[i] as string);
      } catch (err) {
        fatal ??= { err };
        stop.abort(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, chunks.length)) }, worker));
  // A cancel is the reason, not the aborted calls' errors it caused.
  outer?.throwIfAborted();
  if (fatal) throw fatal.err;
  return results;
}
