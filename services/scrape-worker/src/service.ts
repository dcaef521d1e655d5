import type { SharedDb } from '@wcs/db';
import type { ServiceDefinition } from '@wcs/runtime';
import type { SharedWorkerResources } from '@wcs/scraper';
import { loadScrapeWorkerEnv, type ScrapeWorkerEnv } from './env';
import { type RunningScrapeWorker, startScrapeWorker } from './scrape-worker';

/** The scrape worker as a process runs it: its own (main.ts) or the one-process mode's. */
export const scrapeWorkerService: ServiceDefinition<
  ScrapeWorkerEnv,
  RunningScrapeWorker,
  SharedWorkerResources & SharedDb
> = {
  service: 'scrape-worker',
  loadEnv: loadScrapeWorkerEnv,
  async start(env, logger, shared) {
    const running = await startScrapeWorker(env, logger, shared);
    logger.info({ concurrency: env.WORKER_CONCURRENCY }, 'scrape worker started');
    return running;
  },
};
