import { runService } from '@wcs/runtime';
import { loadMonitorSchedulerEnv } from './env';
import { startMonitorScheduler } from './monitor-scheduler';

runService({
  service: 'monitor-scheduler',
  loadEnv: loadMonitorSchedulerEnv,
  start: async ({ env, logger, shutdown }) => {
    const scheduler = await startMonitorScheduler(env, logger);
    shutdown.add('monitor-scheduler', () => scheduler.close());
    logger.info({ scale: env.MONITOR_INTERVAL_SCALE }, 'monitor scheduler started');
  },
});
