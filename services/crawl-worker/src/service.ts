import type { SharedDb } from '@wcs/db';
import type { ServiceDefinition } from '@wcs/runtime';
import type { SharedWorkerResources } from '@wcs/scraper';
import { type RunningCrawlWorker, startCrawlWorker } from './crawl-worker';
import { type CrawlWorkerEnv, loadCrawlWorkerEnv } from './env';
import { type RunningMapWorker, startMapWorker } from './map-worker';

/** The crawl-worker process's two workers: crawls, and the `map` queue. */
export interface RunningCrawlService {
  crawl: RunningCrawlWorker;
  map: RunningMapWorker;
  close(): Promise<void>;
}

/** The crawl worker (with the map worker) as a process runs it: its own or the one-process mode's. */
export const crawlWorkerService: ServiceDefinition<
  CrawlWorkerEnv,
  RunningCrawlService,
  SharedWorkerResources & SharedDb
> = {
  service: 'crawl-worker',
  loadEnv: loadCrawlWorkerEnv,
  async start(env, logger, shared) {
    const crawl = await startCrawlWorker(env, logger, shared);
    // The map worker reuses the crawl worker's renderer (one Chromium pool per process).
    const map = await startMapWorker(env, logger, { renderer: crawl.renderer }).catch(
      async (err: unknown) => {
        await crawl.close();
        throw err;
      },
    );
    logger.info(
      { concurrency: env.WORKER_CONCURRENCY, hostConcurrency: env.CRAWL_HOST_CONCURRENCY },
      'crawl worker started',
    );
    return {
      crawl,
      map,
      // The map worker first, before the renderer it shares with the crawl worker.
      async close() {
        await map.close();
        await crawl.close();
      },
    };
  },
};
