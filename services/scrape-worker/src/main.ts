import { runService } from '@wcs/runtime';
import { loadScrapeWorkerEnv } from './env';
import { startScrapeWorker } from './scrape-worker';

runService({
  service: 'scrape-worker',
  loadEnv: loadScrapeWorkerEnv,
  start: async ({ env, logger, shutdown }) => {
    const running = await startScrapeWorker(env, logger);
    shutdown.add('scrape-worker', () => running.close());
    logger.info({ concurrency: env.WORKER_CONCURRENCY }, 'scrape worker started');
  },
});
