import {
  baseEnv,
  databaseEnv,
  envInt,
  healthEnv,
  loadEnv,
  renderEnv,
  webhookEnv,
  workerEnv,
} from '@wcs/config';
import { z } from 'zod';

/** Webhooks of crawls and batches: retries and the outbox relay. */
export const jobWebhookEnv = z.object({
  /** Attempts per event, the first included (1 = never retried). */
  JOB_WEBHOOK_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10)
    .default(3)
    .describe(
      'attempts of one crawl/batch webhook event (retried on no answer, timeout, 408, 425, 429, 5xx)',
    ),
  /** Wait before the first retry; doubles for each further one. */
  JOB_WEBHOOK_RETRY_DELAY_MS: envInt(2_000, 10).describe(
    'first back-off between attempts of a job webhook event (doubles each time)',
  ),
  /** How often the relay adds dispatch jobs for new outbox events and looks for lost ones. */
  JOB_WEBHOOK_RELAY_INTERVAL_MS: envInt(1_000, 50).describe(
    'how often events whose delivery job is missing get one added',
  ),
  /** A pending event untouched this long may have lost its job (Redis restarted empty): checked. */
  JOB_WEBHOOK_STALE_MS: envInt(60_000, 100).describe(
    'a pending event untouched this long with no live job is re-enqueued (Redis restarted empty)',
  ),
});

/** No renderer: of the fetch settings only the address policy, connect timeout and User-Agent. */
export const webhookDispatcherEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(
    renderEnv.pick({ ALLOW_PRIVATE_TARGETS: true, FETCH_CONNECT_TIMEOUT_MS: true, USER_AGENT: true }).shape,
  )
  .extend(workerEnv.shape)
  .extend(webhookEnv.shape)
  .extend(jobWebhookEnv.shape)
  // The probe server (GET /healthz, /livez) when HEALTH_PORT is set.
  .extend(healthEnv.shape);
export type WebhookDispatcherEnv = z.infer<typeof webhookDispatcherEnvSchema>;

export function loadWebhookDispatcherEnv(env?: NodeJS.ProcessEnv): WebhookDispatcherEnv {
  return loadEnv(webhookDispatcherEnvSchema, env);
}
