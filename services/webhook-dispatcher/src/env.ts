import { baseEnv, loadEnv, monitorEnv, renderEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

export const webhookDispatcherEnvSchema = baseEnv
  .extend(renderEnv.shape)
  .extend(workerEnv.shape)
  .extend(monitorEnv.shape);
export type WebhookDispatcherEnv = z.infer<typeof webhookDispatcherEnvSchema>;

export function loadWebhookDispatcherEnv(env?: NodeJS.ProcessEnv): WebhookDispatcherEnv {
  return loadEnv(webhookDispatcherEnvSchema, env);
}
