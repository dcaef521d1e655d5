import { toServiceError } from '@wcs/errors';
import { type Dispatcher, isForbiddenAddress, openUrl } from '@wcs/net';

export interface ReceiverPolicy {
  /** SSRF-guarded (createSafeDispatcher): every connection is checked against private ranges. */
  dispatcher: Dispatcher;
  allowPrivateTargets: boolean;
  userAgent: string;
  timeoutMs: number;
}

export interface ReceiverAnswer {
  /** null when no answer came (refused, timed out, blocked address). */
  statusCode: number | null;
  /** Why the delivery failed (a non-2xx is one); null on success. */
  error: string | null;
  /** Whether our error kind says a retry could succeed (no answer, timeout). */
  retryable: boolean;
  durationMs: number;
}

/**
 * One POST of a webhook body, for monitor and job webhooks alike: the address policy up front
 * (every resolved address) and at connect time, no redirects followed, the answer's body never
 * read. HTTP failures are returned, never thrown: the callers log every attempt. `headers` come
 * after the caller's own (lower-cased keys win in openUrl), so ours cannot be overridden.
 */
export async function postToReceiver(
  policy: ReceiverPolicy,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<ReceiverAnswer> {
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let retryable = false;
  try {
    const res = await openUrl(url, {
      dispatcher: policy.dispatcher,
      isForbidden: policy.allowPrivateTargets ? undefined : isForbiddenAddress,
      method: 'POST',
      redirect: 'manual',
      userAgent: policy.userAgent,
      request: { headers },
      body,
      timeoutMs: policy.timeoutMs,
    });
    statusCode = res.statusCode;
    res.close();
    if (statusCode < 200 || statusCode >= 300) error = `Receiver answered HTTP ${statusCode}`;
  } catch (err) {
    const se = toServiceError(err);
    error = se.message;
    retryable = se.retryable;
  }
  return { statusCode, error, retryable, durationMs: performance.now() - started };
}
