import { createLogger } from '@wcs/logger';
import { type HealthServer, startHealthServer } from './health-server';
import { collectIdleGarbage } from './idle-garbage';
import type { RunningService, ServiceDefinition, ServiceEnvBase } from './service-definition';
import { type ShutdownLogger, ShutdownManager } from './shutdown-manager';
import { installSourceMaps } from './source-maps';

/** Marks the health server not ready as the shutdown begins, before any close step runs. */
class ShutdownReportingTo extends ShutdownManager {
  constructor(
    private readonly health: HealthServer,
    logger: ShutdownLogger,
    deadlineMs?: number,
  ) {
    super(logger, deadlineMs);
  }

  override shutdown(reason: string): Promise<void> {
    this.health.markStopping();
    return super.shutdown(reason);
  }
}

/**
 * The body of every service's main.ts (`runService(definition)`, the definition from the
 * service's service.ts): parse config once, make the logger, install signal handling, start, and
 * exit with a one-line message (never a stack) if config or start fails. The running service's
 * `close` is the shutdown step.
 *
 * A service whose env has HEALTH_PORT > 0 (the workers' `healthEnv`) also gets the probe server
 * (health-server.ts): listening before `start()`, ready once it resolved, not ready from the first
 * moment of a shutdown, and closed last (its close step is the first one registered).
 */
export function runService<E extends ServiceEnvBase, R extends RunningService, S>(
  definition: ServiceDefinition<E, R, S>,
): void {
  installSourceMaps();
  const main = async () => {
    const env = definition.loadEnv();
    const logger = createLogger({
      service: definition.service,
      level: env.LOG_LEVEL,
      format: env.LOG_FORMAT,
    });
    const health = env.HEALTH_PORT
      ? await startHealthServer({ port: env.HEALTH_PORT, host: env.HEALTH_HOST })
      : undefined;
    const deadlineMs = definition.shutdownDeadlineMs?.(env);
    const shutdown = health
      ? new ShutdownReportingTo(health, logger, deadlineMs)
      : new ShutdownManager(logger, deadlineMs);
    if (health) {
      shutdown.add('health-server', () => health.close());
      logger.info({ port: health.port, host: env.HEALTH_HOST }, 'health server listening');
    }
    shutdown.installSignalHandlers();
    const running = await definition.start(env, logger);
    shutdown.add(definition.service, () => running.close());
    health?.markReady();
    const stopIdleGarbage = collectIdleGarbage();
    shutdown.add('idle-garbage', () => stopIdleGarbage());
  };
  main().catch((err: unknown) => {
    process.stderr.write(`${definition.service}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/**
 * A service's main.ts: `export const main = serviceMain(module, definition)`. The build bundles each
 * service's main.ts (scripts/bundle-entry.mjs), and the loader it writes as dist/main.js calls
 * `main()` once the bundle has loaded: the bundle runs nothing on load, so the build can load it to
 * write V8's code cache. Run directly (`tsx src/main.ts`), the file is the process's main module
 * and starts at once.
 */
export function serviceMain<E extends ServiceEnvBase, R extends RunningService, S>(
  entry: NodeJS.Module,
  definition: ServiceDefinition<E, R, S>,
): () => void {
  const main = () => runService(definition);
  if (require.main === entry) main();
  return main;
}
