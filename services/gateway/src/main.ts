import { DEFAULT_SHUTDOWN_DEADLINE_MS, runService } from '@wcs/runtime';
import { loadGatewayEnv } from './env';
import { startGateway } from './gateway';

runService({
  service: 'gateway',
  loadEnv: loadGatewayEnv,
  // The drain plus closing the queues and the pool must fit in the deadline.
  shutdownDeadlineMs: (env) => Math.max(DEFAULT_SHUTDOWN_DEADLINE_MS, env.SHUTDOWN_DRAIN_MS + 5_000),
  start: async ({ env, logger, shutdown }) => {
    const gateway = await startGateway(env, logger);
    shutdown.add('gateway', () => gateway.close());
    logger.info({ port: gateway.port }, 'gateway listening');
  },
});
