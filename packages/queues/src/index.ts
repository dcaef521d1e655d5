export type { Job } from 'bullmq';
export * from './catalog';
export * from './connection';
export * from './producer';
export * from './wait';
export * from './worker';
