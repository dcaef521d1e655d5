import type { SharedDb } from '@wcs/db';
import type { ServiceDefinition } from '@wcs/runtime';
import type { SharedWorkerResources } from '@wcs/scraper';
import { loadMonitorSchedulerEnv, type MonitorSchedulerEnv } from './env';
import { type RunningMonitorScheduler, startMonitorScheduler } from './monitor-scheduler';

/** The monitor scheduler as a process runs it: its own (main.ts) or the one-process mode's. */
export const monitorSchedulerService: ServiceDefinition<
  MonitorSchedulerEnv,
  RunningMonitorScheduler,
  SharedWorkerResources & SharedDb
> = {
  service: 'monitor-scheduler',
  loadEnv: loadMonitorSchedulerEnv,
  async start(env, logger, shared) {
    const scheduler = await startMonitorScheduler(env, logger, shared);
    logger.info({ scale: env.MONITOR_INTERVAL_SCALE }, 'monitor scheduler started');
    return scheduler;
  },
};
