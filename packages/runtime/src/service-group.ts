import type { Logger } from '@wcs/logger';
import type { RunningService, ServiceDefinition, ServiceEnvBase } from './service-definition';

/**
 * Several services in one process (the one-process mode, and the tests' stack in that mode): each
 * env parsed from `source` when its turn comes (so a service started earlier may add to it, as the
 * gateway's address), each service with its own logger, started in the order `start` is called and
 * closed in reverse. Services share what the process hands them as `shared`.
 */
export class ServiceGroup<S> {
  private readonly started: Array<{ service: string; running: RunningService }> = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly opts: {
      source?: NodeJS.ProcessEnv;
      loggerFor: (service: string) => Logger;
      shared?: S;
    },
  ) {}

  /** Names of the services started so far, in start order. */
  get services(): string[] {
    return this.started.map((s) => s.service);
  }

  async start<E extends ServiceEnvBase, R extends RunningService>(
    definition: ServiceDefinition<E, R, S>,
  ): Promise<R> {
    if (this.closing) throw new Error(`${definition.service}: the service group is closing`);
    const env = definition.loadEnv(this.opts.source);
    const running = await definition.start(env, this.opts.loggerFor(definition.service), this.opts.shared);
    this.started.push({ service: definition.service, running });
    return running;
  }

  /** Closes every service in reverse start order; one that throws does not stop the rest. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const errors: unknown[] = [];
      for (const { running } of [...this.started].reverse()) {
        await running.close().catch((err: unknown) => errors.push(err));
      }
      if (errors.length > 0) throw errors[0];
    })();
    return this.closing;
  }
}
