import { createLogger } from '@wcs/logger';
import { ShutdownManager } from '@wcs/runtime';
import { loadScrapeWorkerEnv } from './env';
import { startScrapeWorker } from './scrape-worker';

async function main(): Promise<void> {
  const env = loadScrapeWorkerEnv();
  const logger = createLogger({ service: 'scrape-worker', level: env.LOG_LEVEL });
  const shutdown = new ShutdownManager(logger);
  shutdown.installSignalHandlers();
  const running = await startScrapeWorker(env, logger);
  shutdown.add('scrape-worker', () => running.close());
  logger.info({ concurrency: env.WORKER_CONCURRENCY }, 'scrape worker started');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
