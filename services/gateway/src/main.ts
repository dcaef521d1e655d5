import { runService } from '@wcs/runtime';
import { loadGatewayEnv } from './env';
import { startGateway } from './gateway';

runService({
  service: 'gateway',
  loadEnv: loadGatewayEnv,
  start: async ({ env, logger, shutdown }) => {
    const gateway = await startGateway(env, logger);
    shutdown.add('gateway', () => gateway.close());
    logger.info({ port: gateway.port }, 'gateway listening');
  },
});
