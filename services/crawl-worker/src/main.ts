import { startIdleService } from '@wcs/queues';
import { runService } from '@wcs/runtime';
import { loadServiceEnv } from './env';

// A real process already (config, Redis, clean shutdown); issue #3 adds the crawl and map processors.
runService({
  service: 'crawl-worker',
  loadEnv: loadServiceEnv,
  start: async ({ env, logger, shutdown }) => {
    const idle = await startIdleService(env.REDIS_URL, (err) =>
      logger.warn({ err: err.message }, 'redis error'),
    );
    shutdown.add('idle', () => idle.close());
    logger.info('started; issue #3 adds the crawl and map processors');
  },
});
