import { baseEnv, databaseEnv, gatewayEnv, loadEnv, renderEnv, searchEnv } from '@wcs/config';
import type { z } from 'zod';

export const gatewayEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(gatewayEnv.shape)
  .extend(searchEnv.shape)
  // Refuses private monitor/webhook URLs at creation, as the workers would when they fetch them.
  .extend(renderEnv.pick({ ALLOW_PRIVATE_TARGETS: true }).shape);
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function loadGatewayEnv(env?: NodeJS.ProcessEnv): GatewayEnv {
  return loadEnv(gatewayEnvSchema, env);
}
