export { loadMonitorSchedulerEnv, type MonitorSchedulerEnv, monitorSchedulerEnvSchema } from './env';
export { checkIdFor, contentHash, monitorCheckProcessor, SNAPSHOT_CHARS } from './monitor-check.processor';
export { MonitorReconciler, type ReconcileResult } from './monitor-reconciler';
export { type RunningMonitorScheduler, startMonitorScheduler } from './monitor-scheduler';
export { INTERVAL_MS, MonitorSchedules } from './monitor-schedules';
export { ResumeSweep } from './resume-sweep';
export { monitorSchedulerService } from './service';
