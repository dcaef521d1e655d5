import type { WebhookDeliveriesRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { Dispatcher } from '@wcs/net';
import type { Job, PayloadOf } from '@wcs/queues';
import { postToReceiver } from './receiver-post';
import { webhookBody } from './webhook-body';
import { SIGNATURE_HEADER, signBody, TIMESTAMP_HEADER } from './webhook-signature';

export interface WebhookDeps {
  deliveries: WebhookDeliveriesRepository;
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
  | { sent: false; reason: 'unknown_change' | 'no_webhook' | 'already_attempted' | 'interrupted' }
  | { sent: true; statusCode: number | null; error: string | null };

/** Recorded for a change whose dispatcher died mid-delivery: the receiver may or may not have it. */
export const INTERRUPTED_DELIVERY =
  'Interrupted: the dispatcher stopped during this delivery; whether the receiver got it is unknown (not retried)';

/**
 * One POST per change, never retried (spec): the job has attempts 1 and HTTP failures (refused
 * connection, timeout, 5xx, blocked address) are recorded, not thrown. A change already attempted
 * (a re-delivered job) is not sent again. Redirects are not followed.
 *
 * At most once, also across crashes: the attempt is recorded after the POST, so a dispatcher killed
 * in between leaves no row, and BullMQ hands the stalled job to another dispatcher. That job
 * (`stalledCounter` > 0) may follow a POST the receiver already has, so it records the attempt as
 * interrupted instead of sending it a second time.
 */
export function webhookProcessor(deps: WebhookDeps, opts: WebhookOptions) {
  return async (payload: PayloadOf<'webhook'>, job?: Pick<Job, 'stalledCounter'>): Promise<WebhookResult> => {
    const task = await deps.deliveries.webhookTask(payload.changeId);
    if (!task) return { sent: false, reason: 'unknown_change' };
    if (!task.webhookUrl) return { sent: false, reason: 'no_webhook' };
    if (task.alreadyAttempted) return { sent: false, reason: 'already_attempted' };
    if ((job?.stalledCounter ?? 0) > 0) {
      await deps.deliveries.recordDelivery({
        monitorId: task.monitorId,
        changeId: task.changeId,
        url: task.webhookUrl,
        statusCode: null,
        durationMs: 0,
        error: INTERRUPTED_DELIVERY,
      });
      deps.logger.warn(
        { monitorId: task.monitorId, changeId: task.changeId },
        'webhook interrupted (not retried)',
      );
      return { sent: false, reason: 'interrupted' };
    }
    const body = webhookBody(task);
    const secret = await deps.deliveries.webhookSecret(task.accountId);
    const answer = await postToReceiver({ ...opts, dispatcher: deps.dispatcher }, task.webhookUrl, body, {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signBody(secret, body),
      [TIMESTAMP_HEADER]: new Date().toISOString(),
    });
    const { statusCode, error } = answer;
    const durationMs = Math.round(answer.durationMs);
    await deps.deliveries.recordDelivery({
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
