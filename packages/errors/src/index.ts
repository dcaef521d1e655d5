export * from './service-error';
export * from './wire';
