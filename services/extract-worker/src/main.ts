import { runService } from '@wcs/runtime';
import { loadExtractWorkerEnv } from './env';
import { startExtractWorker } from './extract-worker';

// Starts without a model key: only extraction requests fail (503 naming the variable to set).
runService({
  service: 'extract-worker',
  loadEnv: loadExtractWorkerEnv,
  start: async ({ env, logger, shutdown }) => {
    const worker = await startExtractWorker(env, logger);
    shutdown.add('extract-worker', () => worker.close());
    logger.info(
      { concurrency: env.EXTRACT_WORKER_CONCURRENCY, modelConfigured: worker.modelConfigured },
      'extract worker started',
    );
  },
});
