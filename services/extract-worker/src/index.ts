export * from './env';
export * from './extract.processor';
export * from './extract-worker';
