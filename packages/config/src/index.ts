export * from './load-env';
export * from './schemas';
