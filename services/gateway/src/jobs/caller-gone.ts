/** The part of Express's Response this needs (so callers may pass `res` as it is). */
export interface CallerResponse {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/**
 * Aborted when the client goes away before its answer is written: the response's socket closed
 * (client disconnect, or the drain cutting a request at its deadline). `res` 'close' also fires
 * after a normal answer; `writableFinished` tells the two apart. (`req` 'close' is no use: it
 * fires once the request body has been read.)
 */
export function callerGone(res: CallerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client closed the connection'));
  });
  return controller.signal;
}
