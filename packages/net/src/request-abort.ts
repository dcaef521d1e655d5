/** Abort plumbing of `openUrl`: stop reading a body cleanly, and settle a request on abort. */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { abortReason } from './network-errors';

/** Destroy a body we stop reading; undici then emits an abort error nobody needs to see. */
export function discard(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * Let go of a body we do not need (`declared`: its Content-Length, NaN when unknown). When all of
 * it has arrived already — a redirect's few bytes, a short error page — it is read to its end: the
 * next request finds its keep-alive connection free (destroyed, a redirect's next hop on the same
 * host opened a second connection, with its own TLS handshake), and undici builds no abort error,
 * whose stack Node formats through the source maps.
 * A body still on its way, or of unknown length, is destroyed as `discard` does: nothing waits on
 * a sender that may never finish. Resolves when the body is gone (a redirect's next hop then finds
 * the connection free).
 */
export function release(body: Readable, declared: number): Promise<void> {
  if (body.destroyed) return Promise.resolve();
  if (declared >= 0 && body.readableLength >= declared) {
    // Resolves once read out (it has all arrived: a tick or two), the connection free again.
    const done = new Promise<void>((resolve) => body.once('close', () => resolve()));
    body.on('error', () => undefined);
    body.resume();
    return done;
  }
  discard(body);
  return Promise.resolve();
}

/**
 * The request, or the abort as soon as it fires: undici only notices an abort once a pending
 * connect ends, and a connect through a stuck proxy may outlast the request's budget.
 */
export function settleByAbort(
  pending: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  if (signal.aborted) {
    pending.then(
      (r) => discard(r.body),
      () => undefined,
    );
    return Promise.reject(abortReason(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then(
        (r) => discard(r.body),
        () => undefined,
      );
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (r) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(r.body);
        else resolve(r);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
