import {
  baseEnv,
  batchEnv,
  checkPageStoreEnv,
  contentEnv,
  databaseEnv,
  extractEnv,
  healthEnv,
  loadEnv,
  pageStoreEnvFields,
  renderEnv,
  workerEnv,
} from '@wcs/config';
import type { z } from 'zod';

export const scrapeWorkerEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(renderEnv.shape)
  .extend(workerEnv.shape)
  .extend(batchEnv.shape)
  // The content pool's settings: the wiring creates the pool from them.
  .extend(contentEnv.shape)
  // Screenshots it takes, the page cache, and the retention sweep of both.
  .extend(pageStoreEnvFields.shape)
  // The probe server (GET /healthz, /livez) when HEALTH_PORT is set.
  .extend(healthEnv.shape)
  // The `summary` format's model (the extract model's settings; none configured = 503 for it).
  .extend(extractEnv.omit({ EXTRACT_WORKER_CONCURRENCY: true }).shape)
  .superRefine(checkPageStoreEnv);
export type ScrapeWorkerEnv = z.infer<typeof scrapeWorkerEnvSchema>;

export function loadScrapeWorkerEnv(env?: NodeJS.ProcessEnv): ScrapeWorkerEnv {
  return loadEnv(scrapeWorkerEnvSchema, env);
}
