import {
  baseEnv,
  checkPageStoreEnv,
  contentEnv,
  crawlEnv,
  databaseEnv,
  discoveryEnv,
  extractEnv,
  healthEnv,
  loadEnv,
  pageStoreEnvFields,
  renderEnv,
  workerEnv,
} from '@wcs/config';
import type { z } from 'zod';

export const crawlWorkerEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(renderEnv.shape)
  .extend(workerEnv.shape)
  .extend(crawlEnv.shape)
  .extend(discoveryEnv.shape)
  // The content pool's settings: the wiring creates the pool from them.
  .extend(contentEnv.shape)
  // Screenshots of `scrapeOptions` and the page cache (`maxAge`).
  .extend(pageStoreEnvFields.shape)
  // The probe server (GET /healthz, /livez) when HEALTH_PORT is set.
  .extend(healthEnv.shape)
  // The `summary` format's model (the extract model's settings; none configured = 503 for it).
  .extend(extractEnv.omit({ EXTRACT_WORKER_CONCURRENCY: true }).shape)
  .superRefine(checkPageStoreEnv);
export type CrawlWorkerEnv = z.infer<typeof crawlWorkerEnvSchema>;

export function loadCrawlWorkerEnv(env?: NodeJS.ProcessEnv): CrawlWorkerEnv {
  return loadEnv(crawlWorkerEnvSchema, env);
}
