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
