import {
  apiKeysEnv,
  baseEnv,
  checkPageStoreEnv,
  databaseEnv,
  gatewayEnv,
  loadEnv,
  pageStoreEnvFields,
  renderEnv,
  searchEnv,
} from '@wcs/config';
import type { z } from 'zod';

export const gatewayEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(gatewayEnv.shape)
  .extend(apiKeysEnv.shape)
  .extend(searchEnv.shape)
  // Refuses private monitor/webhook URLs at creation, as the workers would when they fetch them.
  .extend(renderEnv.pick({ ALLOW_PRIVATE_TARGETS: true }).shape)
  // Serves screenshots from where the workers keep them (PostgreSQL or the S3 bucket).
  .extend(pageStoreEnvFields.omit({ PAGE_CACHE_TTL_HOURS: true, RETENTION_SWEEP_MS: true }).shape)
  .superRefine(checkPageStoreEnv);
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function loadGatewayEnv(env?: NodeJS.ProcessEnv): GatewayEnv {
  return loadEnv(gatewayEnvSchema, env);
}
