import type { Logger } from '@wcs/logger';
import type { RunningService, ServiceDefinition, ServiceEnvBase } from './service-definition';

/**
 * Several services in one process (the one-process mode, and the tests' stack in that mode): each
 * env parsed from `source` when its turn comes (so a service started earlier may add to it, as the
 * gateway's address), each service with its own logger, and closed in the reverse of the order
 * `start` was called in — not the order the starts finished in: services may start together.
 * Services share what the process hands them as `shared`.
 */
export class ServiceGroup<S> {
  /** In call order; `running` once that start resolved (a start that failed has nothing to close). */
  private readonly started: Array<{ service: string; running?: RunningService }> = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly opts: {
      source?: NodeJS.ProcessEnv;
      loggerFor: (service: string) => Logger;
      shared?: S;
    },
  ) {}

  /** Names of the services started so far, in the order their starts were called. */
  get services(): string[] {
    return this.started.filter((s) => s.running).map((s) => s.service);
  }

  async start<E extends ServiceEnvBase, R extends RunningService>(
    definition: ServiceDefinition<E, R, S>,
  ): Promise<R> {
    if (this.closing) throw new Error(`${definition.service}: the service group is closing`);
    const env = definition.loadEnv(this.opts.source);
    const slot: { service: string; running?: RunningService } = { service: definition.service };
    this.started.push(slot);
    const running = await definition.start(env, this.opts.loggerFor(definition.service), this.opts.shared);
    slot.running = running;
    return running;
  }

  /** Closes every service in reverse start order; one that throws does not stop the rest. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const errors: unknown[] = [];
      for (const { running } of [...this.started].reverse()) {
        await running?.close().catch((err: unknown) => errors.push(err));
      }
      if (errors.length > 0) throw errors[0];
    })();
    return this.closing;
  }
}
