export * from './shutdown-manager';
