export type { Job } from 'bullmq';
export { DelayedError } from 'bullmq';
export * from './catalog';
export * from './connection';
export * from './document.contract';
export * from './producer';
export * from './redis-errors';
export * from './wait';
export * from './worker';
