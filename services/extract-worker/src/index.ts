export * from './env';
export * from './extract.processor';
export * from './extract-worker';
export { extractWorkerService } from './service';
