import {
  baseEnv,
  contentEnv,
  databaseEnv,
  extractEnv,
  healthEnv,
  loadEnv,
  monitorEnv,
  renderEnv,
  workerEnv,
} from '@wcs/config';
import type { z } from 'zod';

export const monitorSchedulerEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(renderEnv.shape)
  .extend(workerEnv.shape)
  .extend(monitorEnv.shape)
  // The content pool's settings: the wiring creates the pool from them.
  .extend(contentEnv.shape)
  // The extract model judges changes of monitors with a goal (the extract-worker's settings).
  .extend(extractEnv.omit({ EXTRACT_WORKER_CONCURRENCY: true }).shape)
  // The probe server (GET /healthz, /livez) when HEALTH_PORT is set.
  .extend(healthEnv.shape);
export type MonitorSchedulerEnv = z.infer<typeof monitorSchedulerEnvSchema>;

export function loadMonitorSchedulerEnv(env?: NodeJS.ProcessEnv): MonitorSchedulerEnv {
  return loadEnv(monitorSchedulerEnvSchema, env);
}
