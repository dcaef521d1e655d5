import type { ServiceDefinition } from '@wcs/runtime';
import type { SharedWorkerResources } from '@wcs/scraper';
import { type ExtractWorkerEnv, loadExtractWorkerEnv } from './env';
import { type RunningExtractWorker, startExtractWorker } from './extract-worker';

/**
 * The extract worker as a process runs it: its own (main.ts) or the one-process mode's. Starts
 * without a model key: only extraction requests fail (503 naming the variable to set).
 */
export const extractWorkerService: ServiceDefinition<
  ExtractWorkerEnv,
  RunningExtractWorker,
  SharedWorkerResources
> = {
  service: 'extract-worker',
  loadEnv: loadExtractWorkerEnv,
  async start(env, logger, shared) {
    const worker = await startExtractWorker(env, logger, shared);
    logger.info(
      { concurrency: env.EXTRACT_WORKER_CONCURRENCY, modelConfigured: worker.modelConfigured },
      'extract worker started',
    );
    return worker;
  },
};
