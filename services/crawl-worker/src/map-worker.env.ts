import { baseEnv, contentEnv, discoveryEnv, loadEnv, renderEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

/**
 * What startMapWorker reads (no database; MAP_WORKER_CONCURRENCY, not WORKER_CONCURRENCY); the
 * crawl-worker's env.ts composes `discoveryEnv` into its schema.
 */
export const mapWorkerEnvSchema = baseEnv
  .extend(renderEnv.shape)
  .extend(workerEnv.omit({ WORKER_CONCURRENCY: true }).shape)
  .extend(discoveryEnv.shape)
  // Validated at start (fail fast), as in the crawl-worker process that runs this queue.
  .extend(contentEnv.shape);
export type MapWorkerEnv = z.infer<typeof mapWorkerEnvSchema>;

export function loadMapWorkerEnv(env?: NodeJS.ProcessEnv): MapWorkerEnv {
  return loadEnv(mapWorkerEnvSchema, env);
}
