import { baseEnv, contentEnv, extractEnv, healthEnv, loadEnv, renderEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

/**
 * No database, and EXTRACT_WORKER_CONCURRENCY instead of WORKER_CONCURRENCY. Nothing
 * model-related is required at start: without a key only extraction requests fail (503).
 */
export const extractWorkerEnvSchema = baseEnv
  .extend(renderEnv.shape)
  .extend(workerEnv.omit({ WORKER_CONCURRENCY: true }).shape)
  .extend(extractEnv.shape)
  // The content pool's settings: the wiring creates the pool from them.
  .extend(contentEnv.shape)
  // The probe server (GET /healthz, /livez) when HEALTH_PORT is set.
  .extend(healthEnv.shape);
export type ExtractWorkerEnv = z.infer<typeof extractWorkerEnvSchema>;

export function loadExtractWorkerEnv(env?: NodeJS.ProcessEnv): ExtractWorkerEnv {
  return loadEnv(extractWorkerEnvSchema, env);
}
