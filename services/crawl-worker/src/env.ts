import { baseEnv, crawlEnv, databaseEnv, discoveryEnv, loadEnv, renderEnv, workerEnv } from '@wcs/config';
import type { z } from 'zod';

export const crawlWorkerEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(renderEnv.shape)
  .extend(workerEnv.shape)
  .extend(crawlEnv.shape)
  .extend(discoveryEnv.shape);
export type CrawlWorkerEnv = z.infer<typeof crawlWorkerEnvSchema>;

export function loadCrawlWorkerEnv(env?: NodeJS.ProcessEnv): CrawlWorkerEnv {
  return loadEnv(crawlWorkerEnvSchema, env);
}
