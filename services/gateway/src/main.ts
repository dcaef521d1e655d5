import { createLogger } from '@wcs/logger';
import { ShutdownManager } from '@wcs/runtime';
import { loadGatewayEnv } from './env';
import { startGateway } from './gateway';

async function main(): Promise<void> {
  const env = loadGatewayEnv();
  const logger = createLogger({ service: 'gateway', level: env.LOG_LEVEL });
  const shutdown = new ShutdownManager(logger);
  shutdown.installSignalHandlers();
  const gateway = await startGateway(env, logger);
  shutdown.add('gateway', () => gateway.close());
  logger.info({ port: gateway.port }, 'gateway listening');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
