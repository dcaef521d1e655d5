export * from './run-service';
export * from './shutdown-manager';
