import { baseEnv, loadEnv, renderEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

export const scrapeWorkerEnvSchema = baseEnv.extend(renderEnv.shape).extend(workerEnv.shape);
export type ScrapeWorkerEnv = z.infer<typeof scrapeWorkerEnvSchema>;

export function loadScrapeWorkerEnv(env?: NodeJS.ProcessEnv): ScrapeWorkerEnv {
  return loadEnv(scrapeWorkerEnvSchema, env);
}
