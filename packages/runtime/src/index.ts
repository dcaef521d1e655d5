export * from './http-drain';
export * from './periodic-task';
export * from './run-service';
export * from './shutdown-manager';
