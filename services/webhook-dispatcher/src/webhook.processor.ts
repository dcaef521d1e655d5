import type { MonitorsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { PayloadOf } from '@wcs/queues';
import { assertAllowedUrl } from '@wcs/renderer';
import { type Dispatcher, request } from 'undici';
import { SIGNATURE_HEADER, signBody, TIMESTAMP_HEADER } from './webhook-signature';

export interface WebhookDeps {
  monitors: MonitorsRepository;
  /** SSRF-guarded (createSafeDispatcher): every connection is checked against private ranges. */
  dispatcher: Dispatcher;
  logger: Logger;
}

export interface WebhookOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  userAgent: string;
}

export type WebhookResult =
  | { sent: false; reason: 'unknown_change' | 'no_webhook' | 'already_attempted' }
  | { sent: true; statusCode: number | null; error: string | null };

/**
 * One POST per change, never retried (spec): the job has attempts 1 and HTTP failures (refused
 * connection, timeout, 5xx, blocked address) are recorded, not thrown. A change already attempted
 * (a re-delivered job) is not sent again. Redirects are not followed.
 */
export function webhookProcessor(deps: WebhookDeps, opts: WebhookOptions) {
  return async (payload: PayloadOf<'webhook'>): Promise<WebhookResult> => {
    const task = await deps.monitors.webhookTask(payload.changeId);
    if (!task) return { sent: false, reason: 'unknown_change' };
    if (!task.webhookUrl) return { sent: false, reason: 'no_webhook' };
    if (task.alreadyAttempted) return { sent: false, reason: 'already_attempted' };
    const body = JSON.stringify({
      monitorId: task.monitorId,
      url: task.url,
      detectedAt: task.detectedAt.toISOString(),
      snapshot: task.snapshot,
    });
    const secret = await deps.monitors.webhookSecret(task.accountId);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      await assertAllowedUrl(task.webhookUrl, { allowPrivateTargets: opts.allowPrivateTargets });
      const res = await request(task.webhookUrl, {
        method: 'POST',
        dispatcher: deps.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': opts.userAgent,
          [SIGNATURE_HEADER]: signBody(secret, body),
          [TIMESTAMP_HEADER]: new Date().toISOString(),
        },
        body,
        signal: AbortSignal.timeout(opts.timeoutMs),
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
      });
      statusCode = res.statusCode;
      await res.body.dump().catch(() => undefined);
      if (statusCode < 200 || statusCode >= 300) error = `Receiver answered HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const durationMs = Math.round(performance.now() - started);
    await deps.monitors.recordDelivery({
      monitorId: task.monitorId,
      changeId: task.changeId,
      url: task.webhookUrl,
      statusCode,
      durationMs,
      error: error?.slice(0, 1_000) ?? null,
    });
    if (error)
      deps.logger.info({ monitorId: task.monitorId, statusCode, error }, 'webhook failed (not retried)');
    return { sent: true, statusCode, error };
  };
}
