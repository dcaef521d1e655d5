import type { LogFormat, Logger } from '@wcs/logger';

/** What runService reads of a service's env; the rest is the service's own. */
export interface ServiceEnvBase {
  LOG_LEVEL: string;
  LOG_FORMAT?: LogFormat;
  /** The workers' `healthEnv`: > 0 starts the probe server (health-server.ts). */
  HEALTH_PORT?: number;
  HEALTH_HOST?: string;
}

/** A started service: what its process closes on shutdown. */
export interface RunningService {
  close(): Promise<void>;
}

/**
 * One service, as its own process runs it (`runService(definition)` in its main.ts) and as the
 * one-process mode runs it next to the others (`startServices`). `S` is what a process may hand
 * every service it runs to share (the one-process mode's content pool); a service's own process
 * passes nothing and the service makes its own.
 */
export interface ServiceDefinition<E extends ServiceEnvBase, R extends RunningService, S = undefined> {
  service: string;
  /** Parses the service's env from `source` (default the process environment), once per start. */
  loadEnv(source?: NodeJS.ProcessEnv): E;
  /** Starts the service; logs its one "started" line. Its `close` is the shutdown step. */
  start(env: E, logger: Logger, shared?: S): Promise<R>;
  /** Overall shutdown deadline (default the ShutdownManager's 20 s); past it the process exits 1. */
  shutdownDeadlineMs?(env: E): number;
}
