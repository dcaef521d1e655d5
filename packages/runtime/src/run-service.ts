import { createLogger, type Logger } from '@wcs/logger';
import { ShutdownManager } from './shutdown-manager';

/**
 * The body of every service's main.ts: parse config once, make the logger, install signal
 * handling, start, and exit with a one-line message (never a stack) if config or start fails.
 */
export function runService<E extends { LOG_LEVEL: string }>(opts: {
  service: string;
  loadEnv: () => E;
  start: (ctx: { env: E; logger: Logger; shutdown: ShutdownManager }) => Promise<void>;
  /** Overall shutdown deadline (default the ShutdownManager's 20 s); past it the process exits 1. */
  shutdownDeadlineMs?: (env: E) => number;
}): void {
  const main = async () => {
    const env = opts.loadEnv();
    const logger = createLogger({ service: opts.service, level: env.LOG_LEVEL });
    const shutdown = new ShutdownManager(logger, opts.shutdownDeadlineMs?.(env));
    shutdown.installSignalHandlers();
    await opts.start({ env, logger, shutdown });
  };
  main().catch((err: unknown) => {
    process.stderr.write(`${opts.service}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
