import { DEFAULT_SHUTDOWN_DEADLINE_MS, type ServiceDefinition } from '@wcs/runtime';
import { type GatewayEnv, loadGatewayEnv } from './env';
import { type GatewayShared, type RunningGateway, startGateway } from './gateway';

/** The gateway as a process runs it: its own (main.ts) or the one-process mode's. */
export const gatewayService: ServiceDefinition<GatewayEnv, RunningGateway, GatewayShared> = {
  service: 'gateway',
  loadEnv: loadGatewayEnv,
  // The drain plus closing the queues and the pool must fit in the deadline.
  shutdownDeadlineMs: (env) => Math.max(DEFAULT_SHUTDOWN_DEADLINE_MS, env.SHUTDOWN_DRAIN_MS + 5_000),
  async start(env, logger, shared) {
    const gateway = await startGateway(env, logger, shared);
    logger.info({ port: gateway.port }, 'gateway listening');
    return gateway;
  },
};
