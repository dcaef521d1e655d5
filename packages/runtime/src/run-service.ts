import { createLogger, type LogFormat, type Logger } from '@wcs/logger';
import { type HealthServer, startHealthServer } from './health-server';
import { collectIdleGarbage } from './idle-garbage';
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

/** What runService reads of a service's env; the rest is the service's own. */
export interface ServiceEnvBase {
  LOG_LEVEL: string;
  LOG_FORMAT?: LogFormat;
  /** The workers' `healthEnv`: > 0 starts the probe server (health-server.ts). */
  HEALTH_PORT?: number;
  HEALTH_HOST?: string;
}

/**
 * The body of every service's main.ts: parse config once, make the logger, install signal
 * handling, start, and exit with a one-line message (never a stack) if config or start fails.
 *
 * A service whose env has HEALTH_PORT > 0 (the workers' `healthEnv`) also gets the probe server
 * (health-server.ts): listening before `start()`, ready once it resolved, not ready from the first
 * moment of a shutdown, and closed last (its close step is the first one registered).
 */
export function runService<E extends ServiceEnvBase>(opts: {
  service: string;
  loadEnv: () => E;
  start: (ctx: { env: E; logger: Logger; shutdown: ShutdownManager }) => Promise<void>;
  /** Overall shutdown deadline (default the ShutdownManager's 20 s); past it the process exits 1. */
  shutdownDeadlineMs?: (env: E) => number;
}): void {
  installSourceMaps();
  const main = async () => {
    const env = opts.loadEnv();
    const logger = createLogger({ service: opts.service, level: env.LOG_LEVEL, format: env.LOG_FORMAT });
    const health = env.HEALTH_PORT
      ? await startHealthServer({ port: env.HEALTH_PORT, host: env.HEALTH_HOST })
      : undefined;
    const shutdown = health
      ? new ShutdownReportingTo(health, logger, opts.shutdownDeadlineMs?.(env))
      : new ShutdownManager(logger, opts.shutdownDeadlineMs?.(env));
    if (health) {
      shutdown.add('health-server', () => health.close());
      logger.info({ port: health.port, host: env.HEALTH_HOST }, 'health server listening');
    }
    shutdown.installSignalHandlers();
    await opts.start({ env, logger, shutdown });
    health?.markReady();
    const stopIdleGarbage = collectIdleGarbage();
    shutdown.add('idle-garbage', () => stopIdleGarbage());
  };
  main().catch((err: unknown) => {
    process.stderr.write(`${opts.service}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
