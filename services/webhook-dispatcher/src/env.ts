import { baseEnv, databaseEnv, loadEnv, renderEnv, webhookEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

/** No renderer: of the fetch settings only the address policy, connect timeout and User-Agent. */
export const webhookDispatcherEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(
    renderEnv.pick({ ALLOW_PRIVATE_TARGETS: true, FETCH_CONNECT_TIMEOUT_MS: true, USER_AGENT: true }).shape,
  )
  .extend(workerEnv.shape)
  .extend(webhookEnv.shape);
export type WebhookDispatcherEnv = z.infer<typeof webhookDispatcherEnvSchema>;

export function loadWebhookDispatcherEnv(env?: NodeJS.ProcessEnv): WebhookDispatcherEnv {
  return loadEnv(webhookDispatcherEnvSchema, env);
}
