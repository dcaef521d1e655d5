import { createLogger } from '@wcs/logger';
import type { ServiceDefinition } from '@wcs/runtime';
import { loadOneProcessEnv, type OneProcessEnv } from './env';
import { oneProcessShutdownDeadlineMs, type RunningOneProcess, startOneProcess } from './one-process';

/**
 * The one-process mode as its process runs it (`runService`: one ShutdownManager, signal handling
 * and probe server for all): every service, each logging under its own name.
 */
export const oneProcessService: ServiceDefinition<OneProcessEnv, RunningOneProcess> = {
  service: 'one-process',
  loadEnv: loadOneProcessEnv,
  shutdownDeadlineMs: () => oneProcessShutdownDeadlineMs(),
  async start(env, logger) {
    const running = await startOneProcess({
      loggerFor: (service) => createLogger({ service, level: env.LOG_LEVEL, format: env.LOG_FORMAT }),
    });
    logger.info('every service started in this process');
    return running;
  },
};
