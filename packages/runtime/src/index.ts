export * from './health-server';
export * from './http-drain';
export * from './periodic-task';
export * from './run-service';
export * from './service-catalog';
export * from './shutdown-manager';
export * from './source-maps';
