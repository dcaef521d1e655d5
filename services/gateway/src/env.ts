import { baseEnv, databaseEnv, gatewayEnv, loadEnv, searchEnv } from '@wcs/config';
import type { z } from 'zod';

export const gatewayEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(gatewayEnv.shape)
  .extend(searchEnv.shape);
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function loadGatewayEnv(env?: NodeJS.ProcessEnv): GatewayEnv {
  return loadEnv(gatewayEnvSchema, env);
}
