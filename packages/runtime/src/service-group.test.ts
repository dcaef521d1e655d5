import { createLogger } from '@wcs/logger';
import type { ServiceDefinition } from './service-definition';
import { ServiceGroup } from './service-group';

/** A service whose start resolves when the test says so, recording its close. */
function gatedService(name: string, closed: string[]) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const definition: ServiceDefinition<{ LOG_LEVEL: string }, { close(): Promise<void> }> = {
    service: name,
    loadEnv: () => ({ LOG_LEVEL: 'silent' }),
    async start() {
      await released;
      return {
        close: async () => {
          closed.push(name);
        },
      };
    },
  };
  return { definition, release };
}

describe('ServiceGroup', () => {
  it('closes in the reverse of the order starts were called in, whatever order they finished in', async () => {
    const closed: string[] = [];
    const group = new ServiceGroup({ loggerFor: (s) => createLogger({ service: s, level: 'silent' }) });
    const worker = gatedService('worker', closed);
    const gateway = gatedService('gateway', closed);
    const starts = [group.start(worker.definition), group.start(gateway.definition)];
    // The gateway (called last) finishes first.
    gateway.release();
    await starts[1];
    expect(group.services).toEqual(['gateway']);
    worker.release();
    await Promise.all(starts);
    expect(group.services).toEqual(['worker', 'gateway']);
    await group.close();
    expect(closed).toEqual(['gateway', 'worker']);
  });

  it('skips a service whose start failed when closing the rest', async () => {
    const closed: string[] = [];
    const group = new ServiceGroup({ loggerFor: (s) => createLogger({ service: s, level: 'silent' }) });
    const worker = gatedService('worker', closed);
    worker.release();
    await group.start(worker.definition);
    const failing: ServiceDefinition<{ LOG_LEVEL: string }, { close(): Promise<void> }> = {
      service: 'failing',
      loadEnv: () => ({ LOG_LEVEL: 'silent' }),
      start: () => Promise.reject(new Error('no')),
    };
    await expect(group.start(failing)).rejects.toThrow('no');
    await group.close();
    expect(closed).toEqual(['worker']);
    expect(group.services).toEqual(['worker']);
  });
});
