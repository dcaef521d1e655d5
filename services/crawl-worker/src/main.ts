import { runService } from '@wcs/runtime';
import { startCrawlWorker } from './crawl-worker';
import { loadCrawlWorkerEnv } from './env';
import { startMapWorker } from './map-worker';

runService({
  service: 'crawl-worker',
  loadEnv: loadCrawlWorkerEnv,
  start: async ({ env, logger, shutdown }) => {
    const crawl = await startCrawlWorker(env, logger);
    shutdown.add('crawl-worker', () => crawl.close());
    // Closed first (newest first), before the renderer it shares with the crawl worker.
    const map = await startMapWorker(env, logger, { renderer: crawl.renderer });
    shutdown.add('map-worker', () => map.close());
    logger.info(
      { concurrency: env.WORKER_CONCURRENCY, hostConcurrency: env.CRAWL_HOST_CONCURRENCY },
      'crawl worker started',
    );
  },
});
